package session

import (
	"os"
	"path/filepath"
	"testing"

	"hearth/backend/internal/safefile/safefiletest"
	"hearth/backend/llm"
)

// A session file that is a named pipe, /dev/zero behind a symlink or larger than
// MaxFileBytes is refused at once by Load, and List skips it: the other chats
// still list and load.
func TestBadSessionFilesAnswerAtOnce(t *testing.T) {
	dir := t.TempDir()
	st := NewStore(dir, Options{})
	if _, err := st.Create(CreateOptions{ID: "good"}); err != nil {
		t.Fatal(err)
	}
	if err := st.Append("good", MessageRecord("r1", llm.Message{Role: llm.RoleUser, Content: "hello"})); err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	for name, p := range safefiletest.Make(t, scratch, MaxFileBytes) {
		if name == "folder" {
			continue
		}
		if err := os.Rename(p, filepath.Join(dir, name+".jsonl")); err != nil {
			t.Fatal(err)
		}
		safefiletest.Answers(t, "load "+name, func() {
			if _, err := st.Load(name); err == nil {
				t.Errorf("%s: loaded", name)
			}
		})
	}
	safefiletest.Answers(t, "list", func() {
		list, _ := st.List()
		found := false
		for _, s := range list {
			found = found || s.ID == "good"
		}
		if !found {
			t.Errorf("list %+v", list)
		}
	})
	if s, err := st.Load("good"); err != nil || len(s.Messages()) != 1 {
		t.Errorf("good session: %v", err)
	}
}
