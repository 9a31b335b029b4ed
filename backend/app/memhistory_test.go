package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The desktop's path: the app started (watcher on), a save from the sidebar, an edit
// outside Hearth, then the history and /memory in a chat.
func TestMemoryHistoryThroughTheApp(t *testing.T) {
	setXDG(t)
	a := started(t, Options{})
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
