package memory

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/confined"
)

// A command swaps memory/ for a symlink out of the workspace: Hearth's own
// memory writes refuse with a clear error instead of writing there, and
// reads do not bring the outside files in.
func TestMemoryFolderSwappedForSymlink(t *testing.T) {
	s, ws := newTestStore(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "MEMORY.md"), []byte("outside notes"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(ws, "memory")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "memory")); err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func() error{
		"remember": func() error { _, err := s.Remember("a fact"); return err },
		"history":  func() error { return s.AppendHistory("an entry", time.Now()) },
		"save":     func() error { _, err := s.Save("memory/2026-11-23.md", "note", ""); return err },
	} {
		err := write()
		if !errors.Is(err, confined.ErrOutside) || !strings.Contains(err.Error(), "outside") {
			t.Errorf("%s through the symlink: %v", name, err)
		}
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		t.Errorf("outside folder now holds %v", ents)
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "MEMORY.md")); string(b) != "outside notes" {
		t.Errorf("outside MEMORY.md changed: %q", b)
	}
	if f, err := s.Read("MEMORY.md"); err == nil || strings.Contains(f.Content, "outside notes") {
		t.Errorf("read through the symlink: %+v %v", f, err)
	}
}

// MEMORY.md pointed at config.json (or hard-linked to it): its content
// never comes back from the store, so it cannot reach the prompt.
func TestMemoryFilePointingOutside(t *testing.T) {
	for _, kind := range []string{"symlink", "hard link"} {
		t.Run(kind, func(t *testing.T) {
			s, ws := newTestStore(t)
			cfg := filepath.Join(t.TempDir(), "config.json")
			if err := os.WriteFile(cfg, []byte(`{"apiKey":"sk-never-in-prompt"}`), 0o600); err != nil {
				t.Fatal(err)
			}
			link := os.Symlink
			if kind == "hard link" {
				link = os.Link
			}
			if err := link(cfg, filepath.Join(ws, "memory", "MEMORY.md")); err != nil {
				t.Fatal(err)
			}
			f, err := s.Read("MEMORY.md")
			if err == nil || strings.Contains(f.Content, "sk-never") || strings.Contains(err.Error(), "sk-never") {
				t.Fatalf("read: %+v %v", f, err)
			}
			list, err := s.List()
			if err != nil {
				t.Fatalf("one bad file failed the whole list: %v", err)
			}
			for _, fi := range list {
				if fi.Path == MemoryFile {
					t.Errorf("listed: %+v", fi)
				}
			}
			if _, err := s.Remember("x"); err == nil {
				t.Error("remember wrote through")
			}
			if b, _ := os.ReadFile(cfg); string(b) != `{"apiKey":"sk-never-in-prompt"}` {
				t.Errorf("config changed: %q", b)
			}
		})
	}
}
