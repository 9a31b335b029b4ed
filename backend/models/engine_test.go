package models

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/i18n"
	"hearth/backend/settings"
)

// engineSettings opens settings for a played Ollama at addr with config.json holding
// cfg (may be empty).
func engineSettings(t *testing.T, addr, cfg string) *settings.Service {
	t.Helper()
	path := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "hearth", "config.json")
	if cfg != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return settings.Open(settings.Options{ConfigPath: path, Getenv: func(k string) string {
		if k == "OLLAMA_HOST" {
			return addr
		}
		return ""
	}})
}

func codes(ms []i18n.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Code)
	}
	return out
}

// waitAnswer polls until Ollama at addr answers (the revived server takes a moment to
// start); the deadline is generous, not a speed test.
func waitAnswer(t *testing.T, m *Service, addr string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := m.OllamaVersion(context.Background(), "http://"+addr); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Ollama at %s did not come back", addr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The restart scenario: Ollama started from the window, Hearth quits (and stops it),
// Hearth starts again → Ollama answers before the first message and the chat says so;
// Ollama killed mid-session → it comes back and the next chat says so.
func TestEngineRestartScenario(t *testing.T) {
	addr := ollamaOnPath(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	m := New(engineSettings(t, addr, ""), Options{})
	if m.Engine("http://" + addr).Managed {
		t.Fatal("managed before Hearth ever started Ollama")
	}
	if err := m.EnsureOllama(ctx); err != nil || m.runsOurs() {
		t.Fatalf("EnsureOllama started an Ollama Hearth never started: %v", err)
	}
	if _, err := m.StartOllama(ctx); err != nil { // the window's Start button
		t.Fatal(err)
	}
	if st := m.Engine("http://" + addr); !st.Managed || !st.ByHearth || !st.Startable {
		t.Errorf("after Start: %+v", st)
	}
	m.Close()
	if _, err := m.OllamaVersion(ctx, "http://"+addr); err == nil {
		t.Fatal("Ollama still answers after quitting")
	}

	// The next launch: the first chat's first request finds Ollama answering.
	m2 := New(engineSettings(t, addr, ""), Options{})
	defer m2.Close()
	got := chatShow(t, ctx, m2)
	if len(got) != 1 || got[0] != "notice.ollamaStarted" {
		t.Errorf("first chat after the restart was told %v, want notice.ollamaStarted", got)
	}
	if _, err := m2.OllamaVersion(ctx, "http://"+addr); err != nil {
		t.Fatalf("Ollama does not answer after the first request: %v", err)
	}
	if got := chatShow(t, ctx, m2); len(got) != 0 {
		t.Errorf("the next chat is told again: %v", got)
	}

	// Killed mid-session (a crash, the OOM killer): it comes back by itself.
	m2.mu.Lock()
	pid := m2.serve.cmd.Process.Pid
	done := m2.serve.done
	m2.mu.Unlock()
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-done
	waitAnswer(t, m2, addr)
	got = chatShow(t, ctx, m2)
	if len(got) != 1 || got[0] != "notice.ollamaRestarted" {
		t.Errorf("the chat after the crash was told %v, want notice.ollamaRestarted", got)
	}
}

// chatShow runs what a chat's run does before its first request (Show on the run's
// provider) and returns the codes of what it tells the user.
func chatShow(t *testing.T, ctx context.Context, m *Service) []string {
	t.Helper()
	p, model, err := m.ResolveChat("ollama/qwen3:4b")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.(checkedProvider).Show(ctx, model); err != nil {
		t.Fatalf("Show before the first request: %v", err)
	}
	return codes(p.(agent.Noticer).Notices())
}

// Quitting leaves the Ollama Hearth started running while another program has a model
// loaded in it, or when providers.ollama.keepRunning says so; "never" starts nothing.
func TestEngineQuitLeavesOthersOllama(t *testing.T) {
	addr := ollamaOnPath(t)
	ps := filepath.Join(t.TempDir(), "ps.json")
	t.Setenv(psFileEnv, ps)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	for _, c := range []struct{ name, cfg, ps string }{
		{"another client's model", "", `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest"}]}`},
		{"keepRunning", `{"providers":{"ollama":{"keepRunning":true}}}`, `{"models":[]}`},
	} {
		if err := os.WriteFile(ps, []byte(c.ps), 0o600); err != nil {
			t.Fatal(err)
		}
		m := New(engineSettings(t, addr, c.cfg), Options{})
		if _, err := m.StartOllama(ctx); err != nil {
			t.Fatal(err)
		}
		m.use("qwen3:4b")
		m.mu.Lock()
		pid, done := m.serve.cmd.Process.Pid, m.serve.done
		m.mu.Unlock()
		m.Close()
		if _, err := m.OllamaVersion(ctx, "http://"+addr); err != nil {
			t.Errorf("%s: Hearth stopped Ollama on quitting: %v", c.name, err)
		}
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-done
	}

	// Hearth's own models loaded only: stopped.
	if err := os.WriteFile(ps, []byte(`{"models":[{"name":"qwen3:4b"},{"name":"nomic-embed-text:latest"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	m := New(engineSettings(t, addr, `{}`), Options{})
	if _, err := m.StartOllama(ctx); err != nil {
		t.Fatal(err)
	}
	m.use("qwen3:4b")
	m.Close()
	if _, err := m.OllamaVersion(ctx, "http://"+addr); err == nil {
		t.Error("Ollama with only Hearth's models loaded still answers after quitting")
	}

	// "never": Hearth started it before, but starts nothing by itself.
	m = New(engineSettings(t, addr, `{"providers":{"ollama":{"start":"never"}}}`), Options{})
	defer m.Close()
	if err := m.EnsureOllama(ctx); err != nil || m.runsOurs() || m.Engine("http://"+addr).Managed {
		t.Errorf(`start "never": EnsureOllama %v, runs %v`, err, m.runsOurs())
	}
}

// A symlink planted where Hearth remembers it started Ollama is never written through.
func TestEngineMarkerSymlink(t *testing.T) {
	addr := ollamaOnPath(t)
	m := New(engineSettings(t, addr, ""), Options{})
	defer m.Close()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := m.settings.Paths().StateDir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, startedMarker)); err != nil {
		t.Fatal(err)
	}
	m.remember()
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the marker was written through a symlink: %q", b)
	}
}

func TestParsePS(t *testing.T) {
	got, err := parsePS(strings.NewReader(`{"models":[{"name":"a:1"},{"model":"b"},{"name":" "}]}`))
	if err != nil || strings.Join(got, ",") != "a:1,b" {
		t.Errorf("parsePS = %v, %v", got, err)
	}
	huge := `{"models":[` + strings.Repeat(`{"name":"x"},`, maxPSBytes/12) + `{"name":"y"}]}`
	if _, err := parsePS(strings.NewReader(huge)); err == nil {
		t.Error("an answer over the limit was read")
	}
	if tagged("qwen3") != "qwen3:latest" || tagged("hf.co/a/b:Q4") != "hf.co/a/b:Q4" || tagged("") != ":latest" {
		t.Error("tagged")
	}
}

// FuzzParsePS: whatever /api/ps answers, reading it neither panics nor yields an empty
// model name.
func FuzzParsePS(f *testing.F) {
	f.Add([]byte(`{"models":[{"name":"qwen3:4b","model":"qwen3:4b","size":1}]}`))
	f.Add([]byte(`{"models":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parsePS(strings.NewReader(string(data)))
		if err != nil {
			return
		}
		for _, n := range got {
			if strings.TrimSpace(n) == "" {
				t.Errorf("empty name in %q", data)
			}
		}
	})
}

// An `ollama serve` that dies while starting is seen to go at once: the start says it
// exited (and where its log is) instead of waiting for an answer that cannot come.
func TestStartOllamaThatDies(t *testing.T) {
	addr := ollamaOnPath(t)
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "ollama"), []byte("#!/bin/sh\necho 'Error: listen: address in use' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	m := New(engineSettings(t, addr, ""), Options{})
	defer m.Close()
	_, err := m.StartOllama(context.Background())
	if err == nil || !strings.Contains(err.Error(), "exited") || !strings.Contains(err.Error(), "ollama.log") {
		t.Errorf("err %v", err)
	}
	log, _ := os.ReadFile(filepath.Join(m.settings.Paths().StateDir, "ollama.log"))
	if !strings.Contains(string(log), "address in use") {
		t.Errorf("ollama.log %q", log)
	}
	if m.manages() {
		t.Error("a start that failed is remembered")
	}
}
