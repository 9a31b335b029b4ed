package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildHeadless compiles the CLI-only binary the way `make headless` does.
func buildHeadless(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a binary; skipped in -short mode")
	}
	bin := filepath.Join(t.TempDir(), "hearth-headless")
	cmd := exec.Command("go", "build", "-tags", "headless", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("headless build: %v\n%s", err, out)
	}
	return bin
}

func run(t *testing.T, bin string, args ...string) (string, int) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir,
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_DATA_HOME=" + filepath.Join(dir, "data"),
		"XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"OLLAMA_HOST=127.0.0.1:9", "DBUS_SESSION_BUS_ADDRESS=disabled:",
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

// The headless build must run on a server without GTK or WebKit installed.
func TestHeadlessBinaryLinksNoGUI(t *testing.T) {
	bin := buildHeadless(t)
	if _, err := exec.LookPath("ldd"); err == nil {
		out, _ := exec.Command("ldd", bin).CombinedOutput()
		for _, lib := range []string{"gtk", "webkit", "gdk", "javascriptcore"} {
			if strings.Contains(strings.ToLower(string(out)), lib) {
				t.Fatalf("headless binary links %s:\n%s", lib, out)
			}
		}
	}
	if out, err := exec.Command("go", "list", "-tags", "headless", "-deps", ".").Output(); err != nil {
		t.Fatal(err)
	} else if strings.Contains(string(out), "github.com/wailsapp/wails") {
		t.Fatal("headless build imports Wails")
	}

	out, code := run(t, bin)
	if code != 0 || !strings.Contains(out, "Usage:") || !strings.Contains(out, "status") {
		t.Fatalf("bare headless `hearth` should print help and exit 0; got %d:\n%s", code, out)
	}
	out, code = run(t, bin, "version")
	if code != 0 || !strings.HasPrefix(out, "hearth ") {
		t.Fatalf("version: exit %d, output %q", code, out)
	}
	out, code = run(t, bin, "no-such-command")
	if code != 2 {
		t.Fatalf("unknown command: want exit 2, got %d:\n%s", code, out)
	}
}
