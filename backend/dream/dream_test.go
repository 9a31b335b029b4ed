package dream

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/memory"
)

type fixture struct {
	fake    *fakeollama.Server
	mem     *memory.Service
	ws      string
	svc     *Service
	reports []Report
}

func newFixture(t *testing.T, script fakeollama.Script, budget Budget) *fixture {
	t.Helper()
	if len(script.Models) == 0 {
		script.Models = []fakeollama.Model{fakeollama.DefaultModel()}
	}
	fake, host := fakeollama.Start(t, script)
	o, err := llm.NewOllama(llm.OllamaConfig{Host: host, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	write(t, ws, memory.MemoryFile, "# Memory\n- Lives in Porto.\n- Lives in Porto.\n")
	write(t, ws, memory.HistoryFile, "[2026-11-24 09:00] Ana said she moved to Lisbon in October and now works at a bakery.\n")
	write(t, ws, "USER.md", "Name: Ana\n")
	resolve := func(name string) (llm.Provider, string, error) { return o, strings.TrimPrefix(name, "ollama/"), nil }
	mem := memory.NewService(memory.ServiceOptions{Workspace: ws, IndexDir: t.TempDir(), StateDir: t.TempDir(), Resolve: resolve}, nil)
	t.Cleanup(func() { _ = mem.Close(context.Background()) })
	if err := mem.SyncHistory(); err != nil {
		t.Fatal(err)
	}
	f := &fixture{fake: fake, mem: mem, ws: ws}
	f.svc = New(Options{Store: mem.Store, Resolve: resolve, Model: func() string { return "ollama/" + script.Models[0].Name },
		Budget: budget, Done: func(r Report) { f.reports = append(f.reports, r) }})
	return f
}

func write(t *testing.T, ws, rel, content string) {
	t.Helper()
	p := filepath.Join(ws, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, ws, rel string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(ws, rel))
	return string(b)
}

func edit(file, old, repl string) fakeollama.Reply {
	args, _ := json.Marshal(map[string]string{"file": file, "old_text": old, "new_text": repl})
	return fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "edit_memory", Arguments: args}}, PromptEvalCount: 400, EvalCount: 30}
}

func done(summary string) fakeollama.Reply {
	args, _ := json.Marshal(map[string]string{"summary": summary})
	return fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "done", Arguments: args}}, PromptEvalCount: 500, EvalCount: 10}
}

// A pass folds the new history into MEMORY.md surgically (the duplicate merged, the
// stale fact replaced with a dated, sourced one), commits it as Dream, and the next
// timer pass with nothing new asks no model.
func TestPassEditsAndCommits(t *testing.T) {
	f := newFixture(t, fakeollama.Script{}, Budget{})
	f.fake.Enqueue(
		edit("MEMORY.md", "- Lives in Porto.\n- Lives in Porto.\n", "- Lives in Lisbon since 2026-10 (2026-11-24, HISTORY).\n"),
		edit("USER.md", "", "Works at a bakery (2026-11-24, HISTORY)."),
		edit("SOUL.md", "nothing like this", "x"), // a miss: told, counted, nothing changes
		done("moved Ana to Lisbon, merged a duplicate"),
	)
	rep, err := f.svc.RunNow(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, f.ws, memory.MemoryFile); got != "# Memory\n- Lives in Lisbon since 2026-10 (2026-11-24, HISTORY).\n" {
		t.Errorf("MEMORY.md:\n%s", got)
	}
	if got := read(t, f.ws, "USER.md"); got != "Name: Ana\nWorks at a bakery (2026-11-24, HISTORY).\n" {
		t.Errorf("USER.md:\n%s", got)
	}
	if rep.Edits != 2 || rep.NoOps != 1 || rep.ToolCalls != 4 || rep.Tokens != 400*3+90+510 || rep.Stopped != "" ||
		strings.Join(rep.Files, ",") != "memory/MEMORY.md,USER.md" || !strings.Contains(rep.Summary, "Lisbon") {
		t.Errorf("report %+v", rep)
	}
	// The model saw the new history and was offered only the two tools.
	req := f.fake.ChatRequests()[0]
	if !strings.Contains(req.Messages[1].Content, "moved to Lisbon") || len(req.Tools) != 2 {
		t.Errorf("request: %+v", req)
	}
	revs, err := f.mem.History("MEMORY.md", 0)
	if err != nil || len(revs) != 2 || revs[0].Author != memory.AuthorDream || !strings.HasPrefix(revs[0].Message, "Dream: moved Ana") {
		t.Fatalf("history: %+v %v", revs, err)
	}
	// Restore brings back the text before the pass.
	if _, err := f.mem.Restore(revs[0].Rev+"^", "MEMORY.md"); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f.ws, memory.MemoryFile); !strings.Contains(got, "Porto") {
		t.Errorf("restore: %q", got)
	}

	// The timer's pass with no new history asks no model.
	asked := len(f.fake.ChatRequests())
	rep, err = f.svc.run(t.Context(), false)
	if err != nil || rep.Skipped != "no new history" || len(f.fake.ChatRequests()) != asked {
		t.Errorf("idle pass: %+v %v", rep, err)
	}
	// New history: the next pass reads only the new entry.
	hist := read(t, f.ws, memory.HistoryFile)
	write(t, f.ws, memory.HistoryFile, hist+"\n[2026-11-25 08:00] Ana adopted a cat named Miso.\n")
	f.fake.Enqueue(done("nothing lasting"))
	if _, err := f.svc.run(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	last := f.fake.ChatRequests()[len(f.fake.ChatRequests())-1].Messages[1].Content
	if !strings.Contains(last, "Miso") || strings.Contains(last, "bakery.\n") {
		t.Errorf("second pass material:\n%s", last)
	}
	if st := f.svc.Status(); st.Last == nil || st.Last.Summary != "nothing lasting" || st.NextRun.IsZero() {
		t.Errorf("status %+v", st)
	}
	if len(f.reports) != 3 {
		t.Errorf("reports told: %d", len(f.reports))
	}
}

// A weak model that repeats the same no-op edit forever is stopped at the tool-call
// budget (no-op edits count), one that burns tokens at the token budget, and a slow
// one at the time budget — in one pass each, not after hours.
func TestLoopingModelStoppedAtBudget(t *testing.T) {
	same := edit("MEMORY.md", "- Lives in Porto.\n- Lives in Porto.\n", "- Lives in Porto.\n- Lives in Porto.\n")
	t.Run("tool calls", func(t *testing.T) {
		f := newFixture(t, fakeollama.Script{Default: &same}, Budget{ToolCalls: 5, Tokens: 1_000_000})
		rep, err := f.svc.RunNow(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		// Three no-op edits in a row end it before the budget of five.
		if rep.Stopped != StopNoOps || rep.ToolCalls != 3 || rep.NoOps != 3 || len(rep.Files) != 0 {
			t.Errorf("report %+v", rep)
		}
	})
	t.Run("tool calls with progress", func(t *testing.T) {
		// Edits that do change something, forever: the tool-call budget ends it.
		grow := 0
		f := newFixture(t, fakeollama.Script{}, Budget{ToolCalls: 6, Tokens: 1_000_000})
		for i := 0; i < 20; i++ {
			grow++
			f.fake.Enqueue(edit("MEMORY.md", "", "- fact "+strings.Repeat("x", grow)))
		}
		rep, err := f.svc.RunNow(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stopped != StopToolCalls || rep.ToolCalls != 6 || len(f.fake.ChatRequests()) != 7 {
			t.Errorf("report %+v, %d requests", rep, len(f.fake.ChatRequests()))
		}
		// What it did before the budget is kept, and says it was stopped.
		revs, _ := f.mem.History("MEMORY.md", 1)
		if len(revs) != 1 || !strings.Contains(revs[0].Message, "stopped at the tool calls budget") {
			t.Errorf("commit %+v", revs)
		}
	})
	t.Run("tokens", func(t *testing.T) {
		big := edit("MEMORY.md", "", "- more")
		big.PromptEvalCount = 3000
		f := newFixture(t, fakeollama.Script{Default: &big}, Budget{Tokens: 10_000, ToolCalls: 1000})
		rep, _ := f.svc.RunNow(t.Context())
		if rep.Stopped != StopTokens || rep.Tokens < 10_000 || rep.Tokens > 13_100 {
			t.Errorf("report %+v", rep)
		}
	})
	t.Run("time", func(t *testing.T) {
		slow := fakeollama.Reply{Content: "thinking", Hang: true}
		f := newFixture(t, fakeollama.Script{Default: &slow}, Budget{Time: 300 * time.Millisecond})
		start := time.Now()
		rep, err := f.svc.RunNow(t.Context())
		if err != nil || rep.Stopped != StopTime || time.Since(start) > 20*time.Second {
			t.Errorf("report %+v %v after %v", rep, err, time.Since(start))
		}
	})
}

// The user editing MEMORY.md while a pass runs wins: Dream's edit of it is dropped.
func TestUserEditDuringPassWins(t *testing.T) {
	f := newFixture(t, fakeollama.Script{}, Budget{})
	f.fake.Enqueue(edit("MEMORY.md", "- Lives in Porto.\n- Lives in Porto.\n", "- Porto\n"), fakeollama.Reply{Content: "done", DelayMS: 200})
	go func() { // once Dream's edit ran (the model is asked again, and answers slowly)
		for deadline := time.Now().Add(20 * time.Second); len(f.fake.ChatRequests()) < 2; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Error("Dream never asked the model again")
				return
			}
		}
		write(t, f.ws, memory.MemoryFile, "mine\n")
	}()
	rep, err := f.svc.RunNow(t.Context())
	if err == nil || !strings.Contains(err.Error(), "changed while Dream worked") || read(t, f.ws, memory.MemoryFile) != "mine\n" {
		t.Errorf("%+v %v %q", rep, err, read(t, f.ws, memory.MemoryFile))
	}
}

func TestReplace(t *testing.T) {
	for _, c := range []struct{ text, old, repl, want, err string }{
		{"a\nb\n", "b", "c", "a\nc\n", ""},
		{"a\n", "", "b", "a\nb\n", ""},
		{"", "", "b", "b\n", ""},
		{"a\na\n", "a", "b", "", "occurs 2 times"},
		{"a\n", "z", "b", "", "not found"},
		{"x\n\n- old\n\ny\n", "- old\n", "", "x\n\ny\n", ""},
	} {
		got, err := replace(c.text, c.old, c.repl)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("replace(%q,%q): %v", c.text, c.old, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("replace(%q,%q,%q) = %q %v, want %q", c.text, c.old, c.repl, got, err, c.want)
		}
	}
}
