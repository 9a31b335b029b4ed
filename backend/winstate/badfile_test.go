package winstate

import (
	"os"
	"path/filepath"
	"testing"

	"hearth/backend/internal/safefile/safefiletest"
)

// A pipe, /dev/zero behind a link or a huge file in the state's place is refused
// at once: the window opens at its default size.
func TestBadStateFileAnswersAtOnce(t *testing.T) {
	for name, p := range safefiletest.Make(t, t.TempDir(), maxFileBytes) {
		if name == "folder" {
			continue
		}
		path := filepath.Join(t.TempDir(), "window.json")
		if err := os.Rename(p, path); err != nil {
			t.Fatal(err)
		}
		safefiletest.Answers(t, name, func() {
			if s, err := Load(path); err == nil || s != Default() {
				t.Errorf("%s: %+v, %v", name, s, err)
			}
		})
	}
}
