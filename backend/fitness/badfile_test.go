package fitness

import (
	"os"
	"path/filepath"
	"testing"

	"hearth/backend/internal/safefile/safefiletest"
)

// A pipe, /dev/zero behind a link or a huge file as the checks' file is refused at
// once: the model is simply unchecked.
func TestBadChecksFileAnswersAtOnce(t *testing.T) {
	for name, p := range safefiletest.Make(t, t.TempDir(), maxFileBytes) {
		if name == "folder" {
			continue
		}
		path := filepath.Join(t.TempDir(), FileName)
		if err := os.Rename(p, path); err != nil {
			t.Fatal(err)
		}
		safefiletest.Answers(t, name, func() {
			if _, ok := NewStore(path).Lookup("ollama/qwen3:4b"); ok {
				t.Errorf("%s: a result", name)
			}
		})
	}
}
