//go:build unix

package memory

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/llm"
	"hearth/backend/session"
)

// The real Ollama server with the tiny generated models: embeddings through
// batched /api/embed end to end, and consolidation with a chat model that
// never calls save_memory. The tiny embedding model's vectors are random, so
// this checks correctness (a note's own text finds it), not quality.
func TestRealOllamaMemory(t *testing.T) {
	host := realollama.StartWithModels(t)
	o, err := llm.NewOllama(llm.OllamaConfig{Host: host, EmbedBatch: 8, Retry: llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	t.Run("embedding path", func(t *testing.T) {
		ws, dir := t.TempDir(), t.TempDir()
		notes := []string{
			"Planted tomatoes and basil on the balcony.",
			"The plumber fixed the leaking kitchen tap.",
			"Started reading a novel about lighthouse keepers.",
			"Booked a table at the Thai restaurant for Friday.",
			"Paid the annual subscription for the cloud backup.",
			"Went swimming at the lake before sunrise.",
			"Sorted old photos from the trip to Norway.",
			"Changed the bicycle chain and oiled the gears.",
			"Called the bank about the new credit card.",
			"Learned three chords on the ukulele.",
		}
		var b strings.Builder
		for i, n := range notes {
			fmt.Fprintf(&b, "[2026-02-%02d 08:00] %s\n\n", i+1, n)
		}
		writeFile(t, ws, HistoryFile, b.String())
		x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Model: testmodel.EmbedModelName, Embed: func(ctx context.Context, in []string) ([][]float32, error) {
			return o.Embed(ctx, testmodel.EmbedModelName, in)
		}})
		rep, err := x.Sync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Chunks != len(notes) || rep.Vectors != len(notes) || rep.Embedded != len(notes) || rep.Mode != ModeHybrid {
			t.Fatalf("report %+v", rep)
		}
		x.mu.Lock()
		vs, err := x.vectors()
		x.mu.Unlock()
		if err != nil || vs.dim != testmodel.EmbeddingLength || vs.len() != len(notes) {
			t.Fatalf("vectors: %d of %d dims, %v", vs.len(), vs.dim, err)
		}
		for i, n := range notes {
			entry := fmt.Sprintf("[2026-02-%02d 08:00] %s", i+1, n)
			// Vector path alone: the note's own text ranks it first.
			vecs, err := o.Embed(ctx, testmodel.EmbedModelName, []string{entry})
			if err != nil {
				t.Fatal(err)
			}
			x.mu.Lock()
			r, err := x.query(ctx, "", normalize(vecs[0]), 3, "")
			x.mu.Unlock()
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Hits) == 0 || r.Hits[0].Snippet != entry || r.Hits[0].Mode != ModeVector || r.Hits[0].Score < vectorWeight-0.01 { // cosine ≈ 1, weighted
				t.Errorf("vector query for note %d: %+v", i, r.Hits)
			}
			// And the full hybrid search.
			res, err := x.Search(ctx, n, 3)
			if err != nil {
				t.Fatal(err)
			}
			if res.Mode != ModeHybrid || len(res.Hits) == 0 || res.Hits[0].Snippet != entry || res.Hits[0].Mode != ModeHybrid {
				t.Errorf("hybrid search for note %d: %+v", i, res)
			}
		}
	})

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
