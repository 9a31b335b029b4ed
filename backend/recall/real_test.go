//go:build unix

package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/llm"
)

// The real Ollama server with the tiny generated models: embeddings through
// batched /api/embed end to end. The tiny embedding model's vectors are random, so
// this checks correctness (a note's own text finds it), not quality.
func TestRealOllamaRecall(t *testing.T) {
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

}
