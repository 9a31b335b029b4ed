package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/fakeollama"
)

// serviceOver wraps a consolidation fixture's stores in a Service.
func serviceOver(t *testing.T, f *consFixture, changes *event.Broker[event.MemoryChanged]) *Service {
	t.Helper()
	s := NewService(ServiceOptions{Workspace: f.ws, IndexDir: t.TempDir(), StateDir: t.TempDir(), Sessions: f.sessions, Window: 4, ContextTokens: 4096,
		DefaultModel: "ollama/qwen3:4b", Resolve: f.c.opts.Resolve}, changes)
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

// AfterRun is the one trigger of a background consolidation: it saves what the
// budget left out, or a window's worth of unconsolidated messages; a failure is kept
// for the next run to tell, once.
func TestAfterRunIsTheConsolidationTrigger(t *testing.T) {
	f := newConsFixture(t, 3) // 6 messages
	s := serviceOver(t, f, nil)
	s.AfterRun(f.id, 3, 0) // fewer than a window: nothing to do
	if s.Consolidations().Pending() != 0 {
		t.Fatal("a consolidation started below the window")
	}
	f.fake.Enqueue(saveCall("[2026-11-23 14:05] Talked about the sourdough starter.", "- Lives in Porto.\n- Bakes sourdough.\n"))
	s.AfterRun(f.id, 6, 4) // the budget left messages 0-3 out
	if err := s.Consolidations().Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if f.cursor(t) != 3 || !strings.Contains(f.read(t, HistoryFile), "sourdough starter") {
		t.Fatalf("left-out turns not consolidated: cursor %d", f.cursor(t))
	}
	f.fake.Enqueue(fakeollama.Reply{Content: "no"}, fakeollama.Reply{Content: "no"})
	s.AfterRun(f.id, 6+4, 0) // a window's worth more
	_ = s.Consolidations().Wait(context.Background())
	err := s.TakeFailure(f.id)
	if err == nil || !strings.Contains(err.Error(), "did not call save_memory") {
		t.Errorf("failure %v", err)
	}
	if again := s.TakeFailure(f.id); again != nil {
		t.Errorf("the failure was told twice: %v", again)
	}
}

// Files change through the service, the watcher after Start, and a moved workspace:
// every change reaches the broker.
func TestServiceNewsAndWorkspaceMove(t *testing.T) {
	f := newConsFixture(t, 1)
	changes := event.NewBroker[event.MemoryChanged](0)
	news := changes.Subscribe(t.Context())
	s := serviceOver(t, f, changes)
	next := func() string {
		t.Helper()
		select {
		case c := <-news:
			return c.File
		case <-time.After(10 * time.Second):
			t.Fatal("no MemoryChanged")
		}
		return ""
	}
	// The reply is a catalog message: the window words it in its language.
	if reply, err := s.Remember("Ana climbs on Tuesdays"); err != nil || reply.Code != "memory.remember.saved" ||
		reply.String() != "Saved to "+MemoryFile+"." || !strings.Contains(reply.In(i18n.Chinese), "已保存到 "+MemoryFile) {
		t.Fatalf("remember: %+v %v", reply, err)
	}
	if got := next(); got != MemoryFile {
		t.Errorf("own write told as %q", got)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Watch(); err != nil {
		t.Fatal(err)
	}
	ws2 := t.TempDir()
	writeFile(t, ws2, MemoryFile, "- moved\n")
	opts := s.opts
	opts.Workspace = ws2
	s.Apply(opts)
	if f, err := s.Store().Read(MemoryFile); err != nil || f.Content != "- moved\n" {
		t.Fatalf("after the move: %+v %v", f, err)
	}
	if err := os.WriteFile(filepath.Join(ws2, MemoryFile), []byte("- edited by hand\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != MemoryFile {
		t.Errorf("hand edit in the new workspace told as %q", got)
	}
	if reply, _ := s.Remember(" "); !strings.HasPrefix(reply.String(), "Usage:") || !strings.HasPrefix(reply.In(i18n.Chinese), "用法") {
		t.Errorf("empty /remember: %+v", reply)
	}
}
