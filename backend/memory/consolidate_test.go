package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
)

type consFixture struct {
	fake     *fakeollama.Server
	store    *Store
	sessions *session.Store
	ws       string
	c        *Consolidator
	id       string
}

func newConsFixture(t *testing.T, turns int, models ...fakeollama.Model) *consFixture {
	t.Helper()
	if len(models) == 0 {
		models = []fakeollama.Model{fakeollama.DefaultModel()}
	}
	fake, host := fakeollama.Start(t, fakeollama.Script{Models: models})
	o, err := llm.NewOllama(llm.OllamaConfig{Host: host, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	writeFile(t, ws, MemoryFile, "- Lives in Porto.\n")
	f := &consFixture{fake: fake, store: NewStore(ws, nil), sessions: session.NewStore(t.TempDir(), session.Options{}), ws: ws}
	m, err := f.sessions.Create(session.CreateOptions{Model: "ollama/" + models[0].Name})
	if err != nil {
		t.Fatal(err)
	}
	f.id = m.ID
	for i := range turns {
		err := f.sessions.Append(f.id,
			session.MessageRecord("r1", llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("question %d about the sourdough starter", i)}),
			session.MessageRecord("r1", llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("answer %d: feed it daily", i)}))
		if err != nil {
			t.Fatal(err)
		}
	}
	f.c = NewConsolidator(ConsolidatorOptions{Store: f.store, Sessions: f.sessions, Window: 4, ContextTokens: 4096,
		DefaultModel: "ollama/qwen3:4b",
		Now:          func() time.Time { return time.Date(2026, 11, 23, 14, 5, 0, 0, time.UTC) },
		Resolve: func(name string) (llm.Provider, string, error) {
			return o, strings.TrimPrefix(name, "ollama/"), nil
		}})
	t.Cleanup(f.c.Close)
	return f
}

func saveCall(entry, memory string) fakeollama.Reply {
	args, _ := json.Marshal(map[string]string{"history_entry": entry, "memory_update": memory})
	return fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: SaveMemoryTool, Arguments: args}}}
}

func (f *consFixture) read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.ws, rel))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

func (f *consFixture) cursor(t *testing.T) int {
	t.Helper()
	s, err := f.sessions.Load(f.id)
	if err != nil {
		t.Fatal(err)
	}
	return s.Meta.LastConsolidated
}

func TestConsolidateAppendsRewritesAndMovesCursor(t *testing.T) {
	f := newConsFixture(t, 3)
	f.fake.Enqueue(saveCall("Discussed feeding the sourdough starter daily.", "- Lives in Porto.\n- Bakes sourdough."))
	n, err := f.c.ConsolidateAll(context.Background(), f.id)
	if err != nil || n != 6 {
		t.Fatalf("n=%d err=%v", n, err)
	}
	if got := f.read(t, HistoryFile); got != "[2026-11-23 14:05] Discussed feeding the sourdough starter daily.\n" {
		t.Errorf("HISTORY.md = %q", got)
	}
	if got := f.read(t, MemoryFile); got != "- Lives in Porto.\n- Bakes sourdough.\n" {
		t.Errorf("MEMORY.md = %q", got)
	}
	if c := f.cursor(t); c != 5 {
		t.Errorf("cursor %d, want 5", c)
	}
	reqs := f.fake.ChatRequests()
	if len(reqs) != 1 || len(reqs[0].Tools) != 1 || !strings.Contains(string(reqs[0].Tools[0]), SaveMemoryTool) {
		t.Fatalf("requests %+v", reqs)
	}
	last := reqs[0].Messages[len(reqs[0].Messages)-1].Content
	if !strings.Contains(last, "- Lives in Porto.") || !strings.Contains(last, "USER: question 2 about the sourdough starter") {
		t.Errorf("prompt lacks memory or transcript: %q", last)
	}
	// Nothing left: a second call asks the model nothing.
	if n, err := f.c.ConsolidateAll(context.Background(), f.id); n != 0 || err != nil || len(f.fake.ChatRequests()) != 1 {
		t.Errorf("second consolidation n=%d err=%v", n, err)
	}
}

func TestConsolidateFailuresLeaveEverythingIntact(t *testing.T) {
	cases := []struct {
		name    string
		replies []fakeollama.Reply
		want    error
		calls   int
	}{
		{"answers without the tool twice", []fakeollama.Reply{{Content: "Sure, noted."}, {Content: "Done!"}}, ErrNoToolCall, 2},
		{"server error", []fakeollama.Reply{{Status: 500, Error: "model crashed"}}, nil, 1},
		{"empty entry", []fakeollama.Reply{saveCall("", "x"), saveCall("  ", "y")}, ErrNoToolCall, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newConsFixture(t, 3)
			f.fake.Enqueue(tc.replies...)
			if !f.c.Due(f.id, 6) {
				t.Fatal("not due at 6 messages with window 4")
			}
			if err := f.c.Wait(context.Background()); err != nil {
				t.Fatal(err)
			}
			err := f.c.TakeFailure(f.id)
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("failure = %v, want %v", err, tc.want)
			}
			if f.c.TakeFailure(f.id) != nil {
				t.Error("failure reported twice")
			}
			if got := f.read(t, MemoryFile); got != "- Lives in Porto.\n" {
				t.Errorf("MEMORY.md = %q", got)
			}
			if got := f.read(t, HistoryFile); got != "" {
				t.Errorf("HISTORY.md = %q", got)
			}
			if c := f.cursor(t); c != session.NoneConsolidated {
				t.Errorf("cursor moved to %d", c)
			}
			if n := len(f.fake.ChatRequests()); n != tc.calls {
				t.Errorf("%d model calls, want %d", n, tc.calls)
			}
			// Retried later, not at once.
			if f.c.Due(f.id, 7) {
				t.Error("retried at the next message")
			}
			f.fake.Enqueue(saveCall("Talked about sourdough.", ""))
			if !f.c.Due(f.id, 6+retryAfter) {
				t.Fatal("not retried after more messages")
			}
			f.c.Wait(context.Background())
			if c := f.cursor(t); c != 5 { // the session has 6 messages
				t.Errorf("after retry cursor %d, want 5", c)
			}
		})
	}
}

// The user saves MEMORY.md while the model is thinking: the consolidation
// must not overwrite the edit, nor append its entry.
func TestConsolidateLosesToAConcurrentEdit(t *testing.T) {
	f := newConsFixture(t, 2)
	r := saveCall("Talked about bread.", "- Lives in Porto.\n- Likes bread.")
	r.DelayMS = 300
	f.fake.Enqueue(r)
	f.c.Start(f.id, -1)
	// The model is asked (MEMORY.md was read for it) and answers slowly: edit now.
	for deadline := time.Now().Add(20 * time.Second); len(f.fake.ChatRequests()) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the consolidation never asked the model")
		}
	}
	cur, _ := f.store.Read(MemoryFile)
	if res, err := f.store.Save(MemoryFile, "- Lives in Lisbon now.\n", cur.Hash); err != nil || !res.Saved {
		t.Fatal(res, err)
	}
	f.c.Wait(context.Background())
	if err := f.c.TakeFailure(f.id); !errors.Is(err, ErrMemoryChanged) {
		t.Errorf("failure %v", err)
	}
	if got := f.read(t, MemoryFile); got != "- Lives in Lisbon now.\n" {
		t.Errorf("the user's edit was lost: %q", got)
	}
	if f.read(t, HistoryFile) != "" || f.cursor(t) != session.NoneConsolidated {
		t.Error("partial consolidation written")
	}
}

// /new with models that will not or cannot call tools: a plain summary.
func TestConsolidateAllFallsBackToPlainSummary(t *testing.T) {
	t.Run("ignores the tool", func(t *testing.T) {
		f := newConsFixture(t, 2)
		f.fake.Enqueue(fakeollama.Reply{Content: "ok"}, fakeollama.Reply{Content: "ok"}, fakeollama.Reply{Content: "The user asked how to keep a sourdough starter alive."})
		n, err := f.c.ConsolidateAll(context.Background(), f.id)
		if err != nil || n != 4 {
			t.Fatalf("n=%d err=%v", n, err)
		}
		if got := f.read(t, HistoryFile); !strings.Contains(got, "] The user asked how to keep a sourdough starter alive.") {
			t.Errorf("HISTORY.md = %q", got)
		}
		if got := f.read(t, MemoryFile); got != "- Lives in Porto.\n" {
			t.Errorf("MEMORY.md changed: %q", got)
		}
	})
	t.Run("no tool support", func(t *testing.T) {
		m := fakeollama.DefaultModel()
		m.Name, m.Capabilities = "gemma:2b", []string{"completion"}
		f := newConsFixture(t, 2, m)
		f.fake.Enqueue(fakeollama.Reply{Content: "Talked about sourdough."})
		f.c.Start(f.id, -1) // the background path falls back too
		f.c.Wait(context.Background())
		if err := f.c.TakeFailure(f.id); err != nil {
			t.Fatal(err)
		}
		reqs := f.fake.ChatRequests()
		if len(reqs) != 1 || len(reqs[0].Tools) != 0 {
			t.Fatalf("%d requests, tools %v", len(reqs), reqs)
		}
		if got := f.read(t, HistoryFile); !strings.Contains(got, "Talked about sourdough.") || f.cursor(t) != 3 {
			t.Errorf("HISTORY.md = %q, cursor %d", got, f.cursor(t))
		}
	})
}

// A one-shot process that cannot wait cancels before anything is written:
// the work is deferred, not half done.
func TestWaitCancelledDefers(t *testing.T) {
	f := newConsFixture(t, 3)
	f.fake.Enqueue(fakeollama.Reply{Hang: true})
	f.c.Start(f.id, -1)
	if f.c.Pending() != 1 {
		t.Fatalf("pending %d", f.c.Pending())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := f.c.Wait(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait = %v", err)
	}
	if f.c.Pending() != 0 || f.read(t, HistoryFile) != "" || f.cursor(t) != session.NoneConsolidated {
		t.Error("cancelled consolidation left something behind")
	}
}

func TestTurnBoundaryAndTranscript(t *testing.T) {
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: "list files"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{Name: "list_dir", Arguments: json.RawMessage(`{"path":"."}`)}}},
		{Role: llm.RoleTool, ToolName: "list_dir", Content: strings.Repeat("x", 1000)},
		{Role: llm.RoleAssistant, Content: "There are files."},
		{Role: llm.RoleUser, Content: "thanks"},
	}
	if e := turnBoundary(msgs, 0, 2); e != 0 {
		t.Errorf("boundary inside a tool batch = %d", e)
	}
	if e := turnBoundary(msgs, 0, 4); e != 4 {
		t.Errorf("boundary = %d", e)
	}
	end, text := formatTranscript(msgs, 0, 5, 10)
	if end != 4 || !strings.Contains(text, `ASSISTANT called list_dir {"path":"."}`) || strings.Count(text, "x") > maxToolChars+10 {
		t.Errorf("end %d text %q", end, text)
	}
}
