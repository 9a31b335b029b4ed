//go:build unix

package memory

import (
	"context"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/llm"
	"hearth/backend/session"
)

// The real Ollama server with the tiny generated models: consolidation with a chat
// model that never calls save_memory (backend/recall tests the embeddings).
func TestRealOllamaMemory(t *testing.T) {
	host := realollama.StartWithModels(t)
	o, err := llm.NewOllama(llm.OllamaConfig{Host: host, EmbedBatch: 8, Retry: llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	t.Run("consolidation with a model that ignores save_memory", func(t *testing.T) {
		ws := t.TempDir()
		writeFile(t, ws, MemoryFile, "- Likes tea.\n")
		store := NewStore(ws, nil)
		sessions := session.NewStore(t.TempDir(), session.Options{})
		m, _ := sessions.Create(session.CreateOptions{Model: "ollama/" + testmodel.ChatModelName})
		sessions.Append(m.ID,
			session.MessageRecord("r", llm.Message{Role: llm.RoleUser, Content: "hello"}),
			session.MessageRecord("r", llm.Message{Role: llm.RoleAssistant, Content: testmodel.ChatReply}))
		c := NewConsolidator(ConsolidatorOptions{Store: store, Sessions: sessions, Window: 2, ContextTokens: 2048,
			Resolve: func(name string) (llm.Provider, string, error) { return o, strings.TrimPrefix(name, "ollama/"), nil }})
		defer c.Close()
		// Background: the tiny model calls get_weather, not save_memory: twice,
		// then the session is left as it is and the failure reported.
		c.Start(m.ID, -1)
		c.Wait(ctx)
		if err := c.TakeFailure(m.ID); err == nil || !strings.Contains(err.Error(), "save_memory") {
			t.Fatalf("failure %v", err)
		}
		if f, _ := store.Read(HistoryFile); f.Exists {
			t.Errorf("HISTORY.md written: %q", f.Content)
		}
		// /new: the plain-summary fallback saves an entry and moves the cursor.
		n, err := c.ConsolidateAll(ctx, m.ID)
		if err != nil || n != 2 {
			t.Fatalf("ConsolidateAll n=%d err=%v", n, err)
		}
		h, _ := store.Read(HistoryFile)
		if !strings.Contains(h.Content, testmodel.ChatReply) {
			t.Errorf("HISTORY.md %q", h.Content)
		}
		if mem, _ := store.Read(MemoryFile); mem.Content != "- Likes tea.\n" {
			t.Errorf("MEMORY.md %q", mem.Content)
		}
		if s, _ := sessions.Load(m.ID); s.Meta.LastConsolidated != 1 {
			t.Errorf("cursor %d", s.Meta.LastConsolidated)
		}
	})
}
