package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/recall"
	"hearth/backend/tools"
)

func TestTools(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, "[2026-01-01 10:00] Met Ana at the climbing gym.\n")
	s := NewStore(ws, nil)
	x := recall.NewIndex(recall.IndexOptions{Workspace: ws})
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(Tools(s, x, recall.ToolOptions{})...); err != nil {
		t.Fatal(err)
	}
	if res := reg.Call(context.Background(), "memory_search", []byte(`{"query":"climbing gym"}`)); res.IsError || !strings.Contains(res.Content, "climbing gym") {
		t.Errorf("memory_search: %+v", res)
	}
	res := reg.Call(context.Background(), "remember", []byte(`{"text":"Ana climbs on Tuesdays"}`))
	b, _ := os.ReadFile(filepath.Join(ws, MemoryFile))
	if res.IsError || string(b) != "- Ana climbs on Tuesdays\n" {
		t.Errorf("remember: %+v, MEMORY.md %q", res, b)
	}
}

func TestWatchReportsHandEdits(t *testing.T) {
	s, ws := newTestStore(t)
	news := storeNews(t, s)
	got := make(chan string, 10)
	go func() {
		for c := range news {
			got <- c.File
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := s.Watch(ctx); err != nil {
		t.Fatal(err)
	}
	// The store's own write is reported once, not again by the watcher.
	if _, err := s.Remember("own write"); err != nil {
		t.Fatal(err)
	}
	if n := <-got; n != MemoryFile {
		t.Fatalf("own write reported as %q", n)
	}
	time.Sleep(2 * watchDebounce)
	os.WriteFile(filepath.Join(ws, "memory", "2026-05-01.md"), []byte("hand"), 0o600)
	os.WriteFile(filepath.Join(ws, "memory", "scratch.txt"), []byte("ignored"), 0o600)
	select {
	case n := <-got:
		if n != "memory/2026-05-01.md" {
			t.Errorf("changed %q", n)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("no change reported")
	}
	select {
	case n := <-got:
		t.Errorf("extra change %q", n)
	case <-time.After(300 * time.Millisecond):
	}
}
