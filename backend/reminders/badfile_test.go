package reminders

import (
	"os"
	"path/filepath"
	"testing"

	"hearth/backend/internal/safefile/safefiletest"
)

// A pipe, /dev/zero behind a link or a huge file as the notices file is refused at
// once: the notices start empty.
func TestBadNoticesFileAnswersAtOnce(t *testing.T) {
	for name, p := range safefiletest.Make(t, t.TempDir(), maxNoticesBytes) {
		if name == "folder" {
			continue
		}
		path := filepath.Join(t.TempDir(), NoticesFile)
		if err := os.Rename(p, path); err != nil {
			t.Fatal(err)
		}
		safefiletest.Answers(t, name, func() {
			if list := readNotices(path); len(list) != 0 {
				t.Errorf("%s: %d notices", name, len(list))
			}
		})
	}
}
