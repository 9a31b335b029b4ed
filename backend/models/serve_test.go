package models

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/adrg/xdg"
	"github.com/zalando/go-keyring"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/settings"
)

// TestMain lets this test binary play `ollama serve` for TestStartOllama: the fake
// `ollama` on PATH runs it again with fakeOllamaEnv set.
const fakeOllamaEnv = "HEARTH_TEST_PLAY_OLLAMA"

// psFileEnv names the file the played Ollama answers /api/ps from.
const psFileEnv = "HEARTH_TEST_OLLAMA_PS"

func TestMain(m *testing.M) {
	if os.Getenv(fakeOllamaEnv) == "1" {
		playOllama()
		return
	}
	os.Exit(m.Run())
}

func playOllama() {
	ln, err := net.Listen("tcp", os.Getenv("OLLAMA_HOST"))
	if err != nil {
		os.Exit(3)
	}
	fake := fakeollama.New(fakeollama.DefaultScript())
	// /api/ps answers from the file the test names: the models other clients loaded.
	mux := http.NewServeMux()
	mux.Handle("/", fake)
	mux.HandleFunc("/api/ps", func(w http.ResponseWriter, r *http.Request) {
		data, err := os.ReadFile(os.Getenv(psFileEnv))
		if err != nil {
			data = []byte(`{"models":[]}`)
		}
		_, _ = w.Write(data)
	})
	srv := &http.Server{Handler: mux}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	go func() { <-ctx.Done(); _ = srv.Close() }()
	_ = srv.Serve(ln)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// ollamaOnPath puts a fake `ollama` on PATH that plays `ollama serve` (this test
// binary), sets HOME and the XDG folders to a temporary root, and returns a free
// loopback address for it.
func ollamaOnPath(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for k, v := range map[string]string{"HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data", "XDG_STATE_HOME": "state"} {
		t.Setenv(k, filepath.Join(root, v))
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	keyring.MockInitWithError(errors.New("no keyring in tests"))
	bin := filepath.Join(root, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\n[ \"$1\" = serve ] || exit 2\nexec env " + fakeOllamaEnv + "=1 '" + exe + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "ollama"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return freeAddr(t)
}

// An installed Ollama that is not running is started on request, answers, and is
// stopped when the service closes; one that was running already is left alone.
func TestStartOllama(t *testing.T) {
	addr := ollamaOnPath(t)
	s := settings.Open(settings.Options{Getenv: func(k string) string {
		if k == "OLLAMA_HOST" {
			return addr
		}
		return ""
	}})
	m := New(s, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	v, err := m.StartOllama(ctx)
	if err != nil || v == "" {
		t.Fatalf("StartOllama = %q, %v", v, err)
	}
	if !m.StartedOllama() {
		t.Error("StartedOllama is false after starting it")
	}
	// Asked again while it runs: the same server, nothing new started.
	if v2, err := m.StartOllama(ctx); err != nil || v2 != v {
		t.Errorf("second StartOllama = %q, %v", v2, err)
	}
	m.Close()
	if _, err := m.OllamaVersion(ctx, "http://"+addr); err == nil {
		t.Error("Ollama still answers after Close: Hearth must stop what it started")
	}

	// A running Ollama that Hearth did not start: reported, not started, not stopped.
	fake, url := fakeollama.Start(t, fakeollama.DefaultScript())
	_ = fake
	s2 := settings.Open(settings.Options{Getenv: func(k string) string {
		if k == "OLLAMA_HOST" {
			return url
		}
		return ""
	}})
	m2 := New(s2, Options{})
	if _, err := m2.StartOllama(ctx); err != nil || m2.StartedOllama() {
		t.Errorf("with Ollama running: err %v, started %v", err, m2.StartedOllama())
	}
	m2.Close()
	if _, err := m2.OllamaVersion(ctx, url); err != nil {
		t.Errorf("Close stopped an Ollama Hearth did not start: %v", err)
	}

	// Another machine's address: Hearth cannot start it and says where to.
	s3 := settings.Open(settings.Options{Getenv: func(k string) string {
		if k == "OLLAMA_HOST" {
			return "http://192.0.2.7:11434"
		}
		return ""
	}})
	if _, err := New(s3, Options{}).StartOllama(ctx); err == nil || !strings.Contains(err.Error(), "another machine") {
		t.Errorf("remote host: %v", err)
	}
}

// StartedOllama reports whether Hearth runs an Ollama it started.
func (s *Service) StartedOllama() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.serve == nil {
		return false
	}
	select {
	case <-s.serve.done:
		return false
	default:
		return true
	}
}
