// Package bench measures Hearth as a user meets it: whole processes, started and stopped.
// Run with `make bench`, which builds the binaries, sets HEARTH_BIN / HEARTH_HEADLESS_BIN
// and provides a display for the window benchmark. These are benchmarks, never timed tests.
package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func binary(b *testing.B, env string) string {
	b.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		b.Skipf("%s is not set; run `make bench`", env)
	}
	return bin
}

func isolatedEnv(dir string) []string {
	return append(os.Environ(),
		"HOME="+dir,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"OLLAMA_HOST=127.0.0.1:9",
	)
}

func benchVersion(b *testing.B, bin string) {
	env := isolatedEnv(b.TempDir())
	b.ResetTimer()
	for b.Loop() {
		cmd := exec.Command(bin, "version")
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("hearth version: %v\n%s", err, out)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
}

// BenchmarkVersion: `hearth version` (desktop binary, which links GTK and WebKit) from
// process start to exit. Target: under 50 ms.
func BenchmarkVersion(b *testing.B) { benchVersion(b, binary(b, "HEARTH_BIN")) }

// BenchmarkVersionHeadless: the same for the CLI-only build. Target: under 50 ms.
func BenchmarkVersionHeadless(b *testing.B) { benchVersion(b, binary(b, "HEARTH_HEADLESS_BIN")) }

// BenchmarkWindowMapped: from launching the desktop app to its window being mapped
// (visible to the X server), under Xvfb. Target: under 1 s.
func BenchmarkWindowMapped(b *testing.B) {
	bin := binary(b, "HEARTH_BIN")
	if os.Getenv("DISPLAY") == "" {
		b.Skip("no DISPLAY; `make bench` runs this under xvfb-run")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		b.Skip("xdotool not installed")
	}
	var total time.Duration
	for b.Loop() {
		env := isolatedEnv(b.TempDir())
		app := exec.Command(bin)
		app.Env = env
		start := time.Now()
		if err := app.Start(); err != nil {
			b.Fatal(err)
		}
		wait := exec.Command("timeout", "30", "xdotool", "search", "--sync", "--onlyvisible", "--name", "^Hearth$")
		if out, err := wait.CombinedOutput(); err != nil {
			_ = app.Process.Kill()
			_ = app.Wait()
			b.Fatalf("window never mapped: %v %s", err, out)
		}
		total += time.Since(start)
		b.StopTimer()
		_ = app.Process.Signal(syscall.SIGTERM)
		_ = app.Wait()
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-window")
}
