package models

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"hearth/backend/config"
	"hearth/backend/egress"
	"hearth/backend/llm"
)

// The connection a chat leaves idle belongs to the egress guard's transport, so the app's
// rest (Egress().CloseIdle) closes it: a provider that copied the transport kept its own
// idle connections, whose 90 s timeout then woke the resting app.
func TestChatConnectionClosedWithTheGuardsIdleOnes(t *testing.T) {
	var open atomic.Int32
	closed := make(chan struct{}, 4)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/api/show":
			_, _ = io.WriteString(w, `{"capabilities":["completion"],"model_info":{"general.architecture":"qwen3","qwen3.context_length":4096}}`)
		case "/api/chat":
			_, _ = io.WriteString(w, `{"message":{"role":"assistant","content":"hi"},"done":true,"done_reason":"stop"}`+"\n")
		default:
			http.NotFound(w, r)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			open.Add(1)
		case http.StateClosed:
			open.Add(-1)
			closed <- struct{}{}
		}
	}
	srv.Start()
	defer srv.Close()

	s := openSettings(t)
	if err := s.Update(func(c *config.Config) error { c.Providers.Ollama.Host = srv.URL; return nil }); err != nil {
		t.Fatal(err)
	}
	g := egress.New(egress.Options{})
	m := New(s, Options{Retry: llm.RetryPolicy{MaxAttempts: 1}, Egress: g})
	p, name, err := m.Resolve("ollama/qwen3:4b")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.Chat(context.Background(), llm.Request{Model: name, Messages: []llm.Message{{Role: llm.RoleUser, Content: "hello"}}}, nil)
	if err != nil || resp.Message.Content != "hi" {
		t.Fatalf("chat = %+v, %v", resp, err)
	}
	if n := open.Load(); n < 1 {
		t.Fatalf("%d connections open after the chat; want the kept-alive one", n)
	}
	g.CloseIdle()
	for open.Load() > 0 { // every connection the chat left ends
		select {
		case <-closed:
		case <-time.After(30 * time.Second): // a hang detector, not a speed limit
			t.Fatalf("%d connections still open after CloseIdle: the chat's is not the guard's", open.Load())
		}
	}
}
