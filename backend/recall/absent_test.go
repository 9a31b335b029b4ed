package recall

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/backend/llm"
)

// A missing embedding model is asked about once, not before every turn:
// searches an hour apart stay keyword-only without calling it, until Recheck
// (after a pull) or absentRetry; then recall is hybrid again.
func TestMissingEmbeddingModelAskedOnce(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, history("Ordered a blue raincoat online.", "Visited grandma in the hospital."))
	var calls atomic.Int64
	var installed atomic.Bool
	fe := &fakeEmbed{}
	embed := func(ctx context.Context, texts []string) ([][]float32, error) {
		calls.Add(1)
		if !installed.Load() {
			return nil, &llm.Error{Kind: llm.KindModelNotFound, Message: "nomic-embed-text is not installed in Ollama",
				Hint: "pull it: ollama pull nomic-embed-text"}
		}
		return fe.embed(ctx, texts)
	}
	now := time.Now()
	x := NewIndex(IndexOptions{Workspace: ws, Embed: embed, Model: "m", Now: func() time.Time { return now }})
	for turn := range 5 {
		r, err := x.Search(context.Background(), "raincoat", 2)
		if err != nil {
			t.Fatal(err)
		}
		if r.Mode != ModeKeyword || !strings.Contains(r.Note, "not installed") || !strings.Contains(topSource(t, r), "raincoat") {
			t.Fatalf("turn %d: %+v", turn, r)
		}
		now = now.Add(time.Minute) // well past embedRetry
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("the missing model was asked %d times in 5 turns, want once", n)
	}
	if rep := x.Report(); rep.Mode != ModeKeyword || !strings.Contains(rep.EmbedError, "not installed") {
		t.Errorf("report %+v", rep)
	}
	installed.Store(true)
	x.Recheck() // what core does after a pull
	r, _ := x.Search(context.Background(), "raincoat", 2)
	if r.Mode != ModeHybrid || x.Report().Vectors != 2 {
		t.Fatalf("after the pull: mode %s, %+v", r.Mode, x.Report())
	}

	// A model removed and then pulled outside Hearth is noticed after
	// absentRetry, with one call.
	installed.Store(false)
	writeFile(t, ws, HistoryFile, history("Ordered a blue raincoat online.", "Visited grandma in the hospital.", "Bought tea."))
	x.Search(context.Background(), "tea", 2)
	before := calls.Load()
	installed.Store(true)
	now = now.Add(absentRetry / 2)
	x.Search(context.Background(), "tea", 2)
	if calls.Load() != before {
		t.Errorf("asked again before absentRetry")
	}
	now = now.Add(absentRetry)
	if r, _ := x.Search(context.Background(), "tea", 2); r.Mode != ModeHybrid {
		t.Errorf("not noticed after absentRetry: %+v", r)
	}
}
