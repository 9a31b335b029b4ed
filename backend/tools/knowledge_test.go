package tools

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A knowledge folder is read by the file tools and commands' paths, never
// written: write_file, edit_file and a link into it are refused, naming
// Settings › Knowledge.
func TestKnowledgeFolderReadOnly(t *testing.T) {
	s := newSandbox(t)
	kb := filepath.Join(s.root, "kb")
	s.write(t, filepath.Join(kb, "notes.md"), "the lighthouse keeper's log\n")
	s.policy.Knowledge = []string{kb}
	wantOK(t, s.call(t, "read_file", map[string]any{"path": filepath.Join(kb, "notes.md")}), "lighthouse keeper")
	wantErr(t, s.call(t, "write_file", map[string]any{"path": filepath.Join(kb, "notes.md"), "content": "gone"}), "Settings › Knowledge")
	wantErr(t, s.call(t, "write_file", map[string]any{"path": filepath.Join(kb, "new/x.md"), "content": "x"}), "Settings › Knowledge")
	wantErr(t, s.call(t, "edit_file", map[string]any{"path": filepath.Join(kb, "notes.md"), "old_text": "keeper", "new_text": "thief"}), "Settings › Knowledge")
	// A link in the workspace pointing into the folder is the folder.
	if err := os.Symlink(kb, filepath.Join(s.ws, "kb")); err != nil {
		t.Fatal(err)
	}
	wantErr(t, s.call(t, "write_file", map[string]any{"path": "kb/notes.md", "content": "gone"}), "Settings › Knowledge")
	if _, err := s.policy.ResolveWrite(filepath.Join(kb, "notes.md")); !errors.Is(err, ErrKnowledgeFolder) || !errors.Is(err, ErrProtected) {
		t.Errorf("ResolveWrite: %v", err)
	}
	if !s.policy.IsProtected(filepath.Join(kb, "notes.md"), "") {
		t.Error("commands may write the folder")
	}
	if b, _ := os.ReadFile(filepath.Join(kb, "notes.md")); string(b) != "the lighthouse keeper's log\n" {
		t.Errorf("the file changed: %q", b)
	}
}
