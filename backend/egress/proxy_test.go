package egress

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// fakeProxy is an HTTP proxy on loopback: it answers plain proxied requests
// itself and CONNECT with 502, and records every request it saw.
type fakeProxy struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func newFakeProxy(t *testing.T) *fakeProxy {
	p := &fakeProxy{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.seen = append(p.seen, r.Method+" "+r.Host)
		p.mu.Unlock()
		if r.Method == http.MethodConnect {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		_, _ = io.WriteString(w, "proxied")
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *fakeProxy) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// failingResolver fails the test if anything is looked up.
func failingResolver(t *testing.T) *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(_ context.Context, _, addr string) (net.Conn, error) {
		t.Errorf("a DNS query was sent (to %s)", addr)
		return nil, errors.New("no DNS in this test")
	}}
}

// With a proxy on this machine set in the environment, local-only mode still
// refuses a cloud provider, a LAN host and a remote MCP server: the request is
// judged by its own host, never reaches the proxy, and the log names the host.
func TestLocalOnlyIgnoresEnvironmentProxy(t *testing.T) {
	p := newFakeProxy(t)
	t.Setenv("HTTP_PROXY", p.URL)
	t.Setenv("HTTPS_PROXY", p.URL)
	t.Setenv("NO_PROXY", "")
	g := New(Options{LocalOnly: func() bool { return true }, Resolver: failingResolver(t)})
	for _, target := range []string{"https://api.openai.com/v1/chat/completions", "http://192.168.1.20:8080/v1/models", "https://mcp.example.com/mcp"} {
		req, _ := http.NewRequest(http.MethodPost, target, strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer sk-secret")
		resp, err := g.Client("model provider x", 0).Do(req)
		if err == nil {
			_ = resp.Body.Close()
		}
		if !errors.Is(err, ErrLocalOnly) {
			t.Errorf("%s: %v, want a local-only refusal", target, err)
		}
	}
	if seen := p.requests(); len(seen) != 0 {
		t.Errorf("the proxy was reached in local-only mode: %v", seen)
	}
	log := g.Recent(0)
	want := []string{"mcp.example.com:443", "192.168.1.20:8080", "api.openai.com:443"}
	if len(log) != len(want) {
		t.Fatalf("log %+v", log)
	}
	for i, e := range log {
		if e.Host != want[i] || !e.Refused || e.Via != "" {
			t.Errorf("entry %d: %+v, want %s refused", i, e, want[i])
		}
	}
}

// Outside local-only mode the proxy carries the request, and the log names the
// destination with the proxy, not just the proxy's loopback address.
func TestProxyLoggedUnderDestination(t *testing.T) {
	p := newFakeProxy(t)
	t.Setenv("HTTP_PROXY", p.URL)
	t.Setenv("NO_PROXY", "")
	g := New(Options{LocalOnly: func() bool { return false }, Resolver: failingResolver(t)})
	for range 2 {
		resp, err := g.Client("web_search", 0).Get("http://search.example.test/q")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if string(body) != "proxied" {
			t.Fatalf("body %q", body)
		}
	}
	via := strings.TrimPrefix(p.URL, "http://")
	log := g.Recent(0)
	if len(log) != 2 {
		t.Fatalf("log %+v, want one entry per request", log)
	}
	for _, e := range log {
		if e.Host != "search.example.test:80" || e.Via != via || e.Local || e.Refused {
			t.Errorf("entry %+v, want search.example.test:80 via %s", e, via)
		}
	}
	// A dead proxy is logged as what was dialled.
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	if _, err := g.Client("web_search", 0).Get("http://search.example.test/q"); err == nil {
		t.Fatal("a dead proxy answered")
	}
	if e := g.Recent(1)[0]; e.Host != "127.0.0.1:1" || e.Error == "" {
		t.Errorf("dead proxy entry %+v", e)
	}
}

// Names under .localhost are this machine: they are dialled at loopback with no
// DNS query, in local-only mode and out of it, and never through a proxy.
func TestLocalhostNamesSkipDNS(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "here") }))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	p := newFakeProxy(t)
	t.Setenv("HTTP_PROXY", p.URL)
	t.Setenv("NO_PROXY", "")
	for _, localOnly := range []bool{true, false} {
		g := New(Options{LocalOnly: func() bool { return localOnly }, Resolver: failingResolver(t)})
		for _, name := range []string{"foo.localhost", "Ollama.LOCALHOST.", "localhost"} {
			resp, err := g.Client("model provider local", 0).Get("http://" + net.JoinHostPort(name, u.Port()) + "/")
			if err != nil {
				t.Fatalf("%s (local-only %v): %v", name, localOnly, err)
			}
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if string(body) != "here" {
				t.Errorf("%s: body %q", name, body)
			}
		}
		if e := g.Recent(1)[0]; !e.Local || e.Via != "" {
			t.Errorf("entry %+v", e)
		}
	}
	if seen := p.requests(); len(seen) != 0 {
		t.Errorf("a loopback name went through the proxy: %v", seen)
	}
}
