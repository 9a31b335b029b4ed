package tools

import (
	"os"
	"path/filepath"
	"testing"

	"hearth/backend/internal/safefile/safefiletest"
)

// A pipe, /dev/zero behind a link or a huge file named .gitignore in a folder above
// the one searched is skipped at once, not read forever.
func TestBadAncestorIgnoreAnswersAtOnce(t *testing.T) {
	for name, p := range safefiletest.Make(t, t.TempDir(), maxIgnoreBytes) {
		if name == "folder" {
			continue
		}
		ws := t.TempDir()
		sub := filepath.Join(ws, "src")
		if err := os.Mkdir(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p, filepath.Join(ws, ".gitignore")); err != nil {
			t.Fatal(err)
		}
		safefiletest.Answers(t, name, func() {
			if got := ancestorIgnores(sub, ws); len(got) != 0 {
				t.Errorf("%s: %d ignore files read", name, len(got))
			}
		})
	}
}
