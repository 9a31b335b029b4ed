package app

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/adrg/xdg"
)

// A write killed half-way left a temporary file in the sessions folder; the next
// start removes it and leaves the session itself alone.
func TestStartRemovesLeftoversOfKilledWrites(t *testing.T) {
	setXDG(t)
	dir := filepath.Join(xdg.DataHome, "hearth", "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, n := range []string{".chat.jsonl8812345678", "chat.jsonl"} {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	open(t, Options{})
	if _, err := os.Stat(filepath.Join(dir, ".chat.jsonl8812345678")); !os.IsNotExist(err) {
		t.Errorf("leftover still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "chat.jsonl")); err != nil {
		t.Errorf("the session went too: %v", err)
	}
}
