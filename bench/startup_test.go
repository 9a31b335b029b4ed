// Package bench measures Hearth as a user meets it: whole processes, started and stopped.
// Run with `make bench`, which builds the binaries, sets HEARTH_BIN / HEARTH_DESKTOP_BIN / HEARTH_HEADLESS_BIN
// and provides a display for the window benchmark. These are benchmarks, never timed tests.
package bench

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// BenchmarkVersion: `hearth version` — the binary users run (the CLI-only launcher that
// carries the desktop image) — from process start to exit. Target: under 50 ms.
func BenchmarkVersion(b *testing.B) { benchVersion(b, binary(b, "HEARTH_BIN")) }

// BenchmarkVersionDesktopImage: the same for the desktop image run directly, which links
// GTK and WebKit: the cost the launcher avoids (reported, no target).
func BenchmarkVersionDesktopImage(b *testing.B) { benchVersion(b, binary(b, "HEARTH_DESKTOP_BIN")) }

// BenchmarkVersionHeadless: the same for the CLI-only build. Target: under 50 ms.
func BenchmarkVersionHeadless(b *testing.B) { benchVersion(b, binary(b, "HEARTH_HEADLESS_BIN")) }

// BenchmarkWindowMapped: from launching `hearth` to its window being mapped (visible to
// the X server), under Xvfb, with the desktop image already unpacked (every launch after
// the first of a version). Target: under 1 s.
func BenchmarkWindowMapped(b *testing.B) { benchWindow(b, false) }

// BenchmarkWindowMappedFirstLaunch: the same on a fresh cache, so each launch unpacks the
// desktop image first (the first start of a new version). Target: under 1 s.
func BenchmarkWindowMappedFirstLaunch(b *testing.B) { benchWindow(b, true) }

func benchWindow(b *testing.B, fresh bool) {
	bin := binary(b, "HEARTH_BIN")
	if os.Getenv("DISPLAY") == "" {
		b.Skip("no DISPLAY; `make bench` runs this under xvfb-run")
	}
	for _, tool := range []string{"xdotool", "xev"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s not installed", tool)
		}
	}
	maps := watchMaps(b)
	cache := filepath.Join(b.TempDir(), "cache")
	launch := func() time.Duration {
		dir := b.TempDir()
		env := isolatedEnv(dir)
		if fresh {
			env = append(env, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
		} else {
			env = append(env, "XDG_CACHE_HOME="+cache)
		}
		app := exec.Command(bin)
		app.Env = env
		var out bytes.Buffer
		app.Stdout, app.Stderr = &out, &out
		for len(maps) > 0 {
			<-maps // windows of the launch before
		}
		start := time.Now()
		if err := app.Start(); err != nil {
			b.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { _ = app.Wait(); close(exited) }()
		var took time.Duration
		for took == 0 {
			select {
			case m := <-maps:
				// GTK maps the window under the program's name ("hearth") and
				// Wails sets the title just after: the window search matched both.
				name, _ := exec.Command("xdotool", "getwindowname", m.window).Output()
				if strings.EqualFold(strings.TrimSpace(string(name)), "Hearth") {
					took = m.at.Sub(start)
				}
			case <-exited:
				b.Fatalf("the app exited before its window mapped:\n%s", out.String())
			case <-time.After(30 * time.Second):
				_ = app.Process.Kill()
				<-exited
				b.Fatalf("window never mapped within 30 s; the app wrote:\n%s", out.String())
			}
		}
		_ = app.Process.Signal(syscall.SIGTERM)
		<-exited
		return took
	}
	if !fresh {
		launch() // unpack the image once, outside the timing
	}
	var total time.Duration
	b.ResetTimer()
	for b.Loop() {
		took := launch()
		b.StopTimer()
		total += took
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-window")
}

// mapped is a window the X server mapped, and when the watcher heard of it.
type mapped struct {
	window string
	at     time.Time
}

// watchMaps reports every window mapped on the display, through one X client (xev
// listening to the root window) for the whole benchmark. Polling for the window took a
// new X client every 50 ms, and under load Xvfb then refused the app's own connection now
// and then ("failed to init GTK"); `xdotool search --sync` looks only every 500 ms.
func watchMaps(b *testing.B) chan mapped {
	b.Helper()
	xev := exec.Command("xev", "-root", "-event", "substructure")
	out, err := xev.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := xev.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = xev.Process.Kill(); _ = xev.Wait() })
	maps := make(chan mapped, 64)
	go func() {
		// "MapNotify event, serial 18, synthetic NO, window 0x50d,"
		// "    event 0x50d, window 0x400030, override NO": the second line names it.
		sc := bufio.NewScanner(out)
		inMap := false
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "MapNotify event") {
				inMap = true
				continue
			}
			if inMap {
				inMap = false
				if _, rest, ok := strings.Cut(line, ", window "); ok {
					id, _, _ := strings.Cut(rest, ",")
					select {
					case maps <- mapped{window: id, at: time.Now()}:
					default: // nobody is waiting: a launch drains what is left
					}
				}
			}
		}
	}()
	time.Sleep(200 * time.Millisecond) // xev has selected the root window's events
	return maps
}
