package audit

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"hearth/backend/internal/safefile/safefiletest"
)

// A pipe or /dev/zero behind a link in a day's place is skipped at once: the query
// answers with the other days.
func TestBadDayFileAnswersAtOnce(t *testing.T) {
	for name, p := range safefiletest.Make(t, t.TempDir(), 1<<20) {
		if name == "folder" || name == "huge" {
			continue
		}
		l, _, dir := newLog(t, time.Date(2026, 11, 23, 9, 0, 0, 0, time.Local))
		if err := l.Write(Entry{Tool: "a"}); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p, filepath.Join(dir, "2026-11-22.jsonl")); err != nil {
			t.Fatal(err)
		}
		safefiletest.Answers(t, name, func() {
			if got, err := l.Query(Filter{}); err != nil || len(got) != 1 {
				t.Errorf("%s: %+v %v", name, got, err)
			}
		})
	}
}
