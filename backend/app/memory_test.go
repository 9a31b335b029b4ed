package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/memory"
	"hearth/backend/recall"
)

type changes struct {
	mu    sync.Mutex
	names []string
}

func (c *changes) add(n string) { c.mu.Lock(); c.names = append(c.names, n); c.mu.Unlock() }

func (c *changes) waitFor(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		for _, n := range c.names {
			if n == name {
				c.mu.Unlock()
				return
			}
		}
		c.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no change reported for %s (got %v)", name, c.names)
}

func TestMemoryAPI(t *testing.T) {
	rememberArgs, _ := json.Marshal(map[string]string{"text": "Sister's birthday is 3 May"})
	saveArgs, _ := json.Marshal(map[string]string{"history_entry": "Talked about the sister's birthday.", "memory_update": "- Sister's birthday is 3 May.\n"})
	svc, fake := chatService(t, `{"agents":{"defaults":{"embeddingModel":""}}}`,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "remember", Arguments: rememberArgs}}},
		fakeollama.Reply{Content: "Noted."},
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: memory.SaveMemoryTool, Arguments: saveArgs}}})
	if err := svc.Memory.Watch(); err != nil { // the desktop's: hand edits are reported
		t.Fatal(err)
	}
	ch := &changes{}
	onMemoryChange(t, svc, ch.add)

	files, err := svc.Memory.Store().List()
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	for _, f := range files {
		paths[f.Path] = true
	}
	for _, want := range []string{"memory/MEMORY.md", "memory/HISTORY.md", "AGENTS.md", "SOUL.md", "USER.md", "TOOLS.md", "HEARTBEAT.md"} {
		if !paths[want] {
			t.Errorf("ListMemoryFiles lacks %s: %v", want, paths)
		}
	}
	opened, err := svc.Memory.Store().Read("memory/MEMORY.md")
	if err != nil || !opened.Exists {
		t.Fatal(opened, err)
	}

	// The agent remembers while the user has MEMORY.md open.
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "m1", Text: "remember my sister's birthday, 3 May"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK || res.Final != "Noted." {
		t.Fatalf("run %+v", res)
	}
	ch.waitFor(t, "memory/MEMORY.md")
	res, err := svc.Memory.Store().Save("memory/MEMORY.md", opened.Content+"- Likes jazz\n", opened.Hash)
	if err != nil || res.Saved || res.Conflict == nil || !strings.Contains(res.Conflict.Theirs, "Sister's birthday is 3 May") ||
		!strings.HasSuffix(res.Conflict.Mine, "- Likes jazz\n") {
		t.Fatalf("save over the agent's write: %+v %v", res, err)
	}

	// A hand edit is reported and found by search.
	ws := svc.Settings.Paths().Workspace
	if err := os.WriteFile(filepath.Join(ws, "memory", "2026-06-01.md"), []byte("Bought a kayak at the harbour shop.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ch.waitFor(t, "memory/2026-06-01.md")
	found, err := svc.Memory.Search(context.Background(), "kayak", 3)
	hits := found.Hits
	if err != nil || len(hits) != 1 || hits[0].Source != "memory/2026-06-01.md" || hits[0].Mode != recall.ModeKeyword {
		t.Fatalf("search: %+v %v", hits, err)
	}
	rep, err := svc.Memory.Reindex(context.Background())
	if err != nil || !rep.Rebuilt || rep.Chunks < 1 || rep.Mode != recall.ModeKeyword {
		t.Errorf("reindex %+v %v", rep, err)
	}
	if _, err := svc.Memory.Store().Read("../config.json"); err == nil {
		t.Error("read outside the memory files allowed")
	}

	// /new saves the chat to memory first, then archives it.
	run, err = svc.Chat.Start(context.Background(), agent.Request{SessionID: "m1", Text: "/new"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK || res.NewSessionID == "" {
		t.Fatalf("/new %+v", res)
	}
	h, _ := svc.Memory.Store().Read(memory.HistoryFile)
	if !strings.Contains(h.Content, "] Talked about the sister's birthday.") {
		t.Errorf("HISTORY.md %q", h.Content)
	}
	if s, _ := svc.Sessions.Load("m1"); !s.Meta.Archived || s.Meta.LastConsolidated != len(s.Messages())-1 {
		t.Errorf("session after /new: %+v", s.Meta)
	}
	reqs := fake.ChatRequests()
	if len(reqs) != 3 || len(reqs[2].Tools) != 1 {
		t.Errorf("%d requests", len(reqs))
	}
	// The archived chat is now searchable.
	if res, _ := svc.Memory.Search(context.Background(), "sister birthday", 5); len(res.Hits) == 0 {
		t.Error("archived chat not recalled")
	} else {
		found := false
		for _, h := range res.Hits {
			found = found || h.Source == "sessions/m1"
		}
		if !found {
			t.Errorf("hits %+v", res.Hits)
		}
	}
}

// Turns the window leaves out are consolidated, not lost unseen
// (docs/design/prompt-size.md#token-budget).
func TestBudgetConsolidatesLeftOutTurns(t *testing.T) {
	svc, fake := chatService(t, `{"agents":{"defaults":{"embeddingModel":"","contextTokens":2400,"maxTokens":200}}}`)
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 40)
	for i := range 4 {
		run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "b1", Text: long + string(rune('A'+i))}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res := run.Wait(); res.Status != event.StatusOK {
			t.Fatalf("run %d: %+v", i, res)
		}
	}
	if err := svc.Memory.Consolidations().Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	var cons int
	for _, r := range fake.ChatRequests() {
		if len(r.Tools) == 1 && strings.Contains(string(r.Tools[0]), memory.SaveMemoryTool) {
			cons++
			if !strings.Contains(r.Messages[1].Content, "USER: The quick brown fox") {
				t.Errorf("consolidation transcript: %q", r.Messages[1].Content)
			}
		}
	}
	if cons == 0 {
		t.Fatal("no consolidation was asked for the left-out turns")
	}
	// The fake echoes instead of calling save_memory: the chat stays
	// unconsolidated and the next turn says so.
	if s, _ := svc.Sessions.Load("b1"); s.Meta.LastConsolidated != -1 {
		t.Errorf("cursor %d", s.Meta.LastConsolidated)
	}
}

// /remember and /memory answer in catalog messages, as the other slash
// commands do: the window words them in its language, the CLI prints the
// English.
func TestMemorySlashRepliesCarryCodes(t *testing.T) {
	svc, _ := chatService(t, `{"agents":{"defaults":{"embeddingModel":""}}}`)
	for _, tc := range []struct{ text, code, english string }{
		{"/remember the spare key is under the blue pot", "memory.remember.saved", "Saved to memory/MEMORY.md."},
		{"/remember", "memory.remember.usage", "Usage: /remember TEXT"},
		{"/memory", "memory.command.usage", "Usage: /memory log"},
		{"/memory diff", "memory.command.usage", "Usage: /memory log"},
		{"/memory log 2020-01-01", "memory.log.empty", "No history yet."},
		{"/memory log MEMORY.md", "slash.text", "/remember the spare key"},
	} {
		var lines []event.Line
		run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "s1", Text: tc.text}, func(e event.Event) {
			if d, ok := e.Data.(event.DeltaData); ok {
				lines = append(lines, d.Lines...)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		res := run.Wait()
		if res.Status != event.StatusOK || len(lines) != 1 || lines[0].Code != tc.code || !strings.Contains(res.Final, tc.english) {
			t.Errorf("%s: %+v, lines %+v; want %s %q", tc.text, res, lines, tc.code, tc.english)
		}
	}
}
