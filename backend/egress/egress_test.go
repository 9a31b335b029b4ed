package egress

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// In local-only mode the guard refuses a connection to anywhere but this machine
// and the configured Ollama host, before any dial (so before any DNS lookup),
// with an error that names the purpose and says how to allow it; the log lists
// every connection asked for, refused or made, and is kept on disk.
func TestLocalOnlyRefusesAndLogs(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) }))
	defer srv.Close()
	dir := t.TempDir()
	local := true
	g := New(Options{LocalOnly: func() bool { return local }, OllamaHost: func() string { return "http://ollama-box.lan:11434" },
		Dir: func() string { return dir }})
	var dialled []string
	spy := g.Wrap("test", func(ctx context.Context, network, addr string) (net.Conn, error) {
		dialled = append(dialled, addr)
		return nil, errors.New("spy does not connect")
	})
	for _, addr := range []string{"api.openai.com:443", "93.184.216.34:80", "[2606:2800:220:1::]:443", "10.0.0.2:11434"} {
		_, err := spy(context.Background(), "tcp", addr)
		var r *Refused
		if !errors.As(err, &r) || !errors.Is(err, ErrLocalOnly) || r.Host != addr || !strings.Contains(err.Error(), "hint:") {
			t.Errorf("%s: %v", addr, err)
		}
	}
	if len(dialled) != 0 {
		t.Errorf("refused hosts were dialled: %v", dialled)
	}
	for _, addr := range []string{"127.0.0.1:11434", "[::1]:80", "localhost:8080", "ollama-box.lan:11434"} {
		if _, err := spy(context.Background(), "tcp", addr); errors.Is(err, ErrLocalOnly) {
			t.Errorf("%s refused", addr)
		}
	}
	if len(dialled) != 4 {
		t.Errorf("local hosts not dialled: %v", dialled)
	}
	// A real request through the guard's client to a loopback server works.
	resp, err := g.Client("http test", 0).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	// Off: nothing is refused.
	local = false
	if _, err := spy(context.Background(), "tcp", "api.openai.com:443"); errors.Is(err, ErrLocalOnly) {
		t.Error("refused with local-only off")
	}
	log := g.Recent(0)
	if len(log) != 10 || log[0].Host != "api.openai.com:443" || log[0].Refused || log[1].Purpose != "http test" || !log[1].Local ||
		!log[len(log)-1].Refused || log[len(log)-1].Purpose != "test" {
		t.Errorf("log %+v", log)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("log files %v", files)
	}
	data, _ := os.ReadFile(files[0])
	if n := strings.Count(string(data), "\n"); n != 10 || !strings.Contains(string(data), `"refused":true`) {
		t.Errorf("log file (%d lines):\n%s", n, data)
	}
}

func TestLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST.": true, "app.localhost": true, "127.0.0.1": true, "127.8.9.10": true, "::1": true,
		"[::1]": true, "::ffff:127.0.0.1": true, "10.0.0.1": false, "example.com": false, "localhost.example.com": false, "": false,
	} {
		if got := Loopback(host); got != want {
			t.Errorf("Loopback(%q) = %v", host, got)
		}
	}
}

// Clients of one purpose share a transport, so a second request reuses the first's idle
// connection instead of dialling again (and leaving another idle connection behind); the
// log shows one connection for the two.
func TestClientsOfOnePurposeShareConnections(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) }))
	defer srv.Close()
	g := New(Options{})
	get := func(c *http.Client) {
		t.Helper()
		resp, err := c.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
	get(g.Client("Ollama models", 0))
	get(g.Client("Ollama models", 0))
	if n := len(g.Recent(10)); n != 1 {
		t.Errorf("two requests of one purpose dialled %d connections, want 1: %+v", n, g.Recent(10))
	}
	if g.Transport("Ollama models") == g.Transport("web_search") {
		t.Error("two purposes share a transport: the log could not tell them apart")
	}
	get(g.Client("web_search", 0))
	if n := len(g.Recent(10)); n != 2 {
		t.Errorf("a second purpose dialled %d connections in all, want 2", n)
	}
}

func TestCloseIdleClosesKeptConnections(t *testing.T) {
	closed := make(chan struct{}, 1)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed <- struct{}{}
		}
	}
	srv.Start()
	defer srv.Close()
	g := New(Options{})
	resp, err := g.Client("test", 5*time.Second).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close() // the connection goes back to the transport's idle pool
	select {
	case <-closed:
		t.Fatal("the connection closed before CloseIdle: nothing was kept alive")
	default:
	}
	g.CloseIdle()
	<-closed                  // the server sees the kept connection end
	(*Guard)(nil).CloseIdle() // a nil guard has nothing to close
}
