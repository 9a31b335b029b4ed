package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command swapped .hearth/results for a symlink to a folder of the user's:
// deleting a chat must not delete the folder of the same name there.
func TestDeleteNeverFollowsSwappedResults(t *testing.T) {
	s, _ := newTestStore(t)
	ws, docs := t.TempDir(), t.TempDir()
	m := mustCreate(t, s, CreateOptions{ID: "chat-1"})
	rd, err := ResultsDir(ws, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(docs, filepath.Base(rd))
	if err := os.MkdirAll(victim, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(victim, "thesis.txt"), []byte("years of work"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, ".hearth"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(docs, filepath.Join(ws, ".hearth", "results")); err != nil {
		t.Fatal(err)
	}
	err = s.Delete(m.ID, ws)
	if err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("delete through a swapped results folder: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(victim, "thesis.txt")); err != nil || string(b) != "years of work" {
		t.Fatalf("a folder outside the workspace was removed: %v", err)
	}
}
