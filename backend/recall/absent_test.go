package recall

import (
	"context"
	"strconv"
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

// Each `hearth` command is a new process: the first to find the embedding model
// missing records it in the index, and the next ones neither ask the model nor read
// the chunks still to embed, until absentRetry, another model, or a Recheck in any
// process sharing the index.
func TestMissingEmbeddingModelRememberedAcrossProcesses(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
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
	process := func(model string) *Index {
		x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: embed, Model: model, Now: func() time.Time { return now }})
		t.Cleanup(func() { x.Close() })
		return x
	}
	turn := func(x *Index) Results {
		t.Helper()
		r, err := x.Search(context.Background(), "raincoat", 2)
		if err != nil {
			t.Fatal(err)
		}
		x.Close() // the process ends
		return r
	}
	first := process("m")
	if r := turn(first); r.Mode != ModeKeyword || calls.Load() != 1 {
		t.Fatalf("first process: %+v, %d scans, %d calls", r, first.missingScans, calls.Load())
	}
	for i := range 3 {
		now = now.Add(time.Minute)
		x := process("m")
		r := turn(x)
		if r.Mode != ModeKeyword || !strings.Contains(r.Note, "not installed") || !strings.Contains(r.Note, "ollama pull") {
			t.Fatalf("process %d: %+v", i, r)
		}
		if x.missingScans != 0 || calls.Load() != 1 {
			t.Fatalf("process %d read the chunks to embed %d times; the model was asked %d times in all", i, x.missingScans, calls.Load())
		}
		if rep := x.Report(); !strings.Contains(rep.EmbedError, "not installed") {
			t.Errorf("process %d report %+v", i, rep)
		}
	}
	// Another embedding model is asked about at once.
	if turn(process("other")); calls.Load() != 2 {
		t.Errorf("another model was not asked: %d calls", calls.Load())
	}
	// After absentRetry the model is asked again, once.
	turn(process("m"))
	before := calls.Load()
	now = now.Add(absentRetry)
	turn(process("m"))
	if calls.Load() != before+1 {
		t.Errorf("after absentRetry: %d calls, want %d", calls.Load(), before+1)
	}
	// A pull through Hearth (Recheck, here in a process that has not opened the
	// index yet) reaches the next process: the model is used at once.
	installed.Store(true)
	process("m").Recheck()
	x := process("m")
	if r := turn(x); r.Mode != ModeHybrid {
		t.Fatalf("after Recheck in another process: %+v", r)
	}
	// A record from a clock set back (in the future) or damaged is not trusted.
	installed.Store(false)
	y := process("m")
	turn(y)
	for _, bad := range []string{`{"model":"m","at":` + strconv.FormatInt(now.Add(time.Hour).UnixNano(), 10) + `,"err":"x"}`, `{"model":`, `[]`} {
		x := process("m")
		if err := x.open(); err != nil {
			t.Fatal(err)
		}
		if err := setMeta(x.db, absentKey, bad); err != nil {
			t.Fatal(err)
		}
		x.Close()
		before := calls.Load()
		turn(process("m"))
		if calls.Load() == before {
			t.Errorf("record %s trusted", bad)
		}
	}
}

// The recorded absence is JSON the index reads back from its own file: anything
// there gives a trusted record or none, never a panic.
func FuzzAbsentRecord(f *testing.F) {
	f.Add(`{"model":"m","at":1,"err":"missing","hint":"pull it"}`)
	f.Add(`{"model":"m","at":-9223372036854775808,"err":"x"}`)
	f.Add(`{`)
	ws, dir := f.TempDir(), f.TempDir()
	now := time.Unix(0, 2)
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Model: "m", Now: func() time.Time { return now },
		Embed: func(context.Context, []string) ([][]float32, error) { return nil, nil }})
	if err := x.open(); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { x.Close() })
	f.Fuzz(func(t *testing.T, v string) {
		if err := setMeta(x.db, absentKey, v); err != nil {
			t.Skip()
		}
		x.embedErr, x.absent, x.forget = nil, nil, false
		x.loadAbsent()
		if x.absent != nil && (x.embedDown.After(now) || x.absent.Error() == "") {
			t.Fatalf("trusted %q: %v at %v", v, x.absent, x.embedDown)
		}
	})
}
