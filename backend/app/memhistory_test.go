package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/approval"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// The desktop's path: the app started (watcher on), a save from the sidebar, an edit
// outside Hearth, then the history and /memory in a chat.
func TestMemoryHistoryThroughTheApp(t *testing.T) {
	setXDG(t)
	a := open(t, Options{})
	if err := a.Start(t.Context(), StartOptions{WatchMemory: true}); err != nil {
		t.Fatal(err)
	}
	st := a.Memory.Store()
	cur, err := st.Read("MEMORY.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save("MEMORY.md", cur.Content+"- Lives in Porto\n", cur.Hash); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(a.Settings.Paths().Workspace, "memory", "MEMORY.md")
	if err := os.WriteFile(p+".tmp", []byte("# Memory\n- Lives in Lisbon\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".tmp", p); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var authors []string
	go func() {
		defer close(done)
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			revs, err := a.Memory.History("MEMORY.md", 0)
			if err != nil {
				t.Error(err)
				return
			}
			authors = authors[:0]
			for _, r := range revs {
				authors = append(authors, r.Author)
			}
			if len(revs) == 3 {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("History hangs")
	}
	if strings.Join(authors, ",") != "outside Hearth,you,Hearth" {
		t.Errorf("authors %v", authors)
	}
}

// The model's own file tools write around the memory service: their changes of
// memory and persona files are the agent's in the history, with the chat and the
// run, not "outside Hearth" — the watcher running or not.
func TestAgentFileToolsCommittedAsTheAgent(t *testing.T) {
	setXDG(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}})
	edit, _ := json.Marshal(map[string]string{"path": "memory/MEMORY.md", "old_text": "# Memory", "new_text": "# Memory\n\n- Lives in Porto"})
	write, _ := json.Marshal(map[string]string{"path": "SOUL.md", "content": "Be brief.\n"})
	fake.Enqueue(fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "edit_file", Arguments: edit}}},
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "write_file", Arguments: write}}},
		fakeollama.Reply{Content: "done"})
	a := started(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1}})
	ans := newAnswerer(a, approval.Once, approval.Once) // both are writes: asked
	run, err := a.Chat.Start(context.Background(), agent.Request{SessionID: "porto", Text: "remember I live in Porto"}, ans.sink)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("run %+v", res)
	}
	time.Sleep(500 * time.Millisecond) // past the watcher's debounce: its commit must not win
	for file, tool := range map[string]string{"MEMORY.md": "edit_file", "SOUL.md": "write_file"} {
		revs, err := a.Memory.History(file, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(revs) != 2 || revs[0].Author != "agent" || !strings.HasPrefix(revs[0].Message, tool+" in chat porto (run ") {
			t.Errorf("%s: %+v", file, revs)
		}
	}
	if st, _ := a.Memory.Store().Read("MEMORY.md"); !strings.Contains(st.Content, "Porto") {
		t.Errorf("MEMORY.md: %q", st.Content)
	}
}

// The desktop watches the memory files; a command (StartOptions without WatchMemory)
// does not, and the desktop's second Start (the tray's, with the lock) starts no second.
func TestOnlyTheDesktopWatchesMemory(t *testing.T) {
	setXDG(t)
	cli := started(t, Options{})
	if cli.Memory.Watching() {
		t.Error("a command's Start watches the memory files")
	}
	desk := open(t, Options{})
	if err := desk.Start(t.Context(), StartOptions{WatchMemory: true}); err != nil {
		t.Fatal(err)
	}
	if err := desk.Start(t.Context(), StartOptions{WatchMemory: true}); err != nil {
		t.Fatal(err)
	}
	if !desk.Memory.Watching() {
		t.Error("the desktop's Start does not watch the memory files")
	}
}
