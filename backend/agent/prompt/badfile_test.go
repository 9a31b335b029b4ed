package prompt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/internal/safefile/safefiletest"
)

// The workspace is the agent's to write: a huge file, a pipe or /dev/zero behind a
// link in AGENTS.md's place does not hang or sink the prompt. The huge file is an
// error the turn warns about; the prompt is still built.
func TestBadWorkspaceFilesAnswerAtOnce(t *testing.T) {
	for name, p := range safefiletest.Make(t, t.TempDir(), maxFileBytes) {
		if name == "folder" {
			continue
		}
		ws := t.TempDir()
		writeFile(t, ws, "SOUL.md", "Be kind.", past)
		if err := os.Rename(p, filepath.Join(ws, "AGENTS.md")); err != nil {
			t.Fatal(err)
		}
		b, err := New(Options{Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		safefiletest.Answers(t, name, func() {
			text, err := b.SystemPrompt()
			if !strings.Contains(text, "Be kind.") {
				t.Errorf("%s: prompt without the other files: %q", name, text)
			}
			if name == "huge" && (err == nil || !strings.Contains(err.Error(), "AGENTS.md")) {
				t.Errorf("%s: %v", name, err)
			}
		})
	}
}
