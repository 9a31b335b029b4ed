//go:build unix

// Package realollama starts the real Ollama server for integration tests:
// `ollama serve` from $HEARTH_TEST_OLLAMA on a free loopback port, with its
// models and home in a temp dir, in its own process group that is killed
// when the test ends. Without the variable the test is skipped, saying so.
package realollama

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hearth/backend/internal/testmodel"
)

// EnvVar names the ollama binary; `make test` (scripts/ollama-build.sh) sets it.
const EnvVar = "HEARTH_TEST_OLLAMA"

// Start runs the server and returns its base URL ("http://127.0.0.1:port").
func Start(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(EnvVar)
	if bin == "" {
		t.Skip("real-Ollama test skipped: set HEARTH_TEST_OLLAMA to an ollama binary (scripts/ollama-build.sh builds and prints one)")
	}
	dir := t.TempDir()
	addr := freeAddr(t)
	logPath := filepath.Join(dir, "ollama.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "OLLAMA_HOST=" + addr,
		"OLLAMA_MODELS=" + filepath.Join(dir, "models"), "OLLAMA_NOPRUNE=1", "OLLAMA_KEEP_ALIVE=5m",
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	// Its own group: `ollama serve` spawns `ollama runner` children.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		logf.Close()
		if t.Failed() {
			if b, err := os.ReadFile(logPath); err == nil {
				if len(b) > 4000 {
					b = b[len(b)-4000:]
				}
				t.Logf("ollama log (tail):\n%s", b)
			}
		}
	})
	host := "http://" + addr
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(host + "/api/version")
		if err == nil {
			resp.Body.Close()
			return host
		}
		if time.Now().After(deadline) {
			t.Fatalf("ollama serve did not come up on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// StartWithModels is Start plus the tiny generated models of testmodel.
func StartWithModels(t *testing.T) string {
	t.Helper()
	host := Start(t)
	u, _ := url.Parse(host)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := testmodel.Install(ctx, api.NewClient(u, http.DefaultClient)); err != nil {
		t.Fatalf("install tiny models: %v", err)
	}
	return host
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
