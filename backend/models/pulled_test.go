package models

import (
	"testing"

	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// A model pulled is news (memory's recall index asks for a missing embedding model
// again); a failed pull is not.
func TestPullTellsThePulledNews(t *testing.T) {
	st := openSettings(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{})
	if err := st.Update(func(c *config.Config) error { c.Providers.Ollama.Host = url; return nil }); err != nil {
		t.Fatal(err)
	}
	pulled := event.NewBroker[string](0)
	news := pulled.Subscribe(t.Context())
	m := New(st, Options{Retry: llm.RetryPolicy{MaxAttempts: 1}, Pulled: pulled})
	t.Cleanup(m.Close)
	fake.EnqueuePull(fakeollama.PullReply{Error: "pull model manifest: file does not exist"}, fakeollama.PullReply{})
	if err := m.Pull(t.Context(), "ollama/nope:1b", nil); err == nil {
		t.Fatal("the failed pull succeeded")
	}
	if err := m.Pull(t.Context(), "ollama/nomic-embed-text", nil); err != nil {
		t.Fatal(err)
	}
	if got := <-news; got != "nomic-embed-text" {
		t.Errorf("news %q, want the pulled model alone", got)
	}
}
