package schedule

import (
	"os"
	"path/filepath"
	"testing"

	"hearth/backend/internal/safefile/safefiletest"
)

// A jobs.json that is a named pipe, /dev/zero behind a symlink or larger than the
// bound answers at once with an error, never a hang.
func TestBadJobsFileAnswersAtOnce(t *testing.T) {
	for name, p := range safefiletest.Make(t, t.TempDir(), maxJobsBytes) {
		if name == "folder" {
			continue
		}
		dir := t.TempDir()
		if err := os.Rename(p, filepath.Join(dir, FileName)); err != nil {
			t.Fatal(err)
		}
		safefiletest.Answers(t, name, func() {
			if _, _, err := NewStore(dir).Load(); err == nil {
				t.Errorf("%s: loaded", name)
			}
		})
	}
}
