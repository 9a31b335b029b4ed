//go:build unix

package dream

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/llm"
	"hearth/backend/memory"
)

// realFixture is a workspace with seeded history and a Dream service over the real
// Ollama server running a tiny model that calls edit_memory with args; looping
// makes it call the tool after every tool result too (a weak model that never stops).
func realFixture(t *testing.T, args string, looping bool, budget Budget) (*fixture, string) {
	t.Helper()
	host := realollama.Start(t)
	u, _ := url.Parse(host)
	gguf, err := testmodel.ToolCallModel("edit_memory", args)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := testmodel.Template
	if looping {
		tmpl = strings.Replace(tmpl, `{{ if and .Tools (ne $last "tool") }}`, `{{ if .Tools }}`, 1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := testmodel.Create(ctx, api.NewClient(u, http.DefaultClient), "hearth-dream:latest", gguf, tmpl); err != nil {
		t.Fatal(err)
	}
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: host, Retry: llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	write(t, ws, memory.MemoryFile, "- Lives in Porto.\n")
	write(t, ws, memory.HistoryFile, "[2026-11-24 09:00] Ana moved to Lisbon.\n")
	resolve := func(name string) (llm.Provider, string, error) { return prov, strings.TrimPrefix(name, "ollama/"), nil }
	mem := memory.NewService(memory.ServiceOptions{Workspace: ws, IndexDir: t.TempDir(), StateDir: t.TempDir(), Resolve: resolve}, nil)
	t.Cleanup(func() { _ = mem.Close(context.Background()) })
	if err := mem.SyncHistory(); err != nil {
		t.Fatal(err)
	}
	f := &fixture{mem: mem, ws: ws}
	f.svc = New(Options{Store: mem.Store, Resolve: resolve, Model: func() string { return "ollama/hearth-dream:latest" }, Budget: budget})
	return f, host
}

// A Dream pass over seeded history edits MEMORY.md and commits it; Restore brings
// the previous text back.
func TestRealOllamaDreamEditsAndCommits(t *testing.T) {
	f, _ := realFixture(t, `{"file": "MEMORY.md", "old_text": "Porto", "new_text": "Lisbon (2026-11-24, HISTORY)"}`, false, Budget{})
	rep, err := f.svc.RunNow(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, f.ws, memory.MemoryFile); got != "- Lives in Lisbon (2026-11-24, HISTORY).\n" {
		t.Fatalf("MEMORY.md %q (report %+v)", got, rep)
	}
	if rep.Edits != 1 || rep.ToolCalls != 1 || rep.Tokens == 0 || rep.Stopped != "" {
		t.Errorf("report %+v", rep)
	}
	revs, err := f.mem.History("MEMORY.md", 0)
	if err != nil || len(revs) != 2 || revs[0].Author != memory.AuthorDream {
		t.Fatalf("history %+v %v", revs, err)
	}
	if _, err := f.mem.Restore(revs[0].Rev+"^", "MEMORY.md"); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f.ws, memory.MemoryFile); got != "- Lives in Porto.\n" {
		t.Errorf("restored %q", got)
	}
}

// A model that calls the tool after every result, forever, is stopped at the
// tool-call budget; its no-op edits count.
func TestRealOllamaLoopingDreamStoppedAtBudget(t *testing.T) {
	f, _ := realFixture(t, `{"file": "MEMORY.md", "old_text": "Porto", "new_text": "Porto"}`, true, Budget{ToolCalls: 2, Time: time.Minute})
	start := time.Now()
	rep, err := f.svc.RunNow(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stopped != StopToolCalls || rep.ToolCalls != 2 || rep.NoOps != 2 || len(rep.Files) != 0 {
		t.Errorf("report %+v", rep)
	}
	if got := read(t, f.ws, memory.MemoryFile); got != "- Lives in Porto.\n" {
		t.Errorf("MEMORY.md %q", got)
	}
	t.Logf("looping model stopped after %v, %d tokens", time.Since(start).Round(time.Millisecond), rep.Tokens)
}

// With the memory inbox on, a real pass changes nothing until its hunk is approved.
func TestRealOllamaDreamInboxHoldsUntilApproved(t *testing.T) {
	f, _ := realFixture(t, `{"file": "MEMORY.md", "old_text": "Porto", "new_text": "Lisbon (2026-11-24, HISTORY)"}`, false, Budget{})
	in := f.mem.Inbox()
	if err := in.SetSettings(memory.ReviewSettings{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	rep, err := f.svc.RunNow(t.Context())
	if err != nil || !rep.Proposed || rep.Edits != 1 {
		t.Fatalf("report %+v %v", rep, err)
	}
	if got := read(t, f.ws, memory.MemoryFile); got != "- Lives in Porto.\n" {
		t.Fatalf("changed before approval: %q", got)
	}
	ps, err := in.List()
	if err != nil || len(ps) != 1 || ps[0].Author != memory.AuthorDream || len(ps[0].Hunks) != 1 {
		t.Fatalf("proposals %+v %v", ps, err)
	}
	if _, err := in.Decide(ps[0].ID, 0, "approve", nil); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f.ws, memory.MemoryFile); got != "- Lives in Lisbon (2026-11-24, HISTORY).\n" {
		t.Errorf("after approval: %q", got)
	}
}
