package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/recall"
)

func newTestStore(t *testing.T) (*Store, string) {
	t.Helper()
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "memory"), 0o700); err != nil {
		t.Fatal(err)
	}
	return NewStore(ws, nil), ws
}

// storeNews gives s a news broker and returns a subscription to it.
func storeNews(t *testing.T, s *Store) <-chan event.MemoryChanged {
	t.Helper()
	s.news = event.NewBroker[event.MemoryChanged](0)
	t.Cleanup(s.news.Close)
	return s.news.Subscribe(t.Context())
}

func TestSaveConflictUserAfterAgent(t *testing.T) {
	s, _ := newTestStore(t)
	news := storeNews(t, s)
	res, err := s.Save("memory/MEMORY.md", "- likes tea\n", "")
	if err != nil || !res.Saved {
		t.Fatalf("first save: %+v %v", res, err)
	}
	opened, _ := s.Read("memory/MEMORY.md")                    // the user opens the editor
	if _, err := s.Remember("birthday is 3 May"); err != nil { // the agent writes meanwhile
		t.Fatal(err)
	}
	res, err = s.Save("memory/MEMORY.md", "- likes coffee\n", opened.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if res.Saved || res.Conflict == nil {
		t.Fatalf("user save over an agent write was not refused: %+v", res)
	}
	if res.Conflict.Mine != "- likes coffee\n" || !strings.Contains(res.Conflict.Theirs, "birthday is 3 May") {
		t.Errorf("conflict does not carry both versions: %+v", res.Conflict)
	}
	now, _ := s.Read("memory/MEMORY.md")
	if !strings.Contains(now.Content, "birthday") || now.Hash != res.Conflict.TheirsHash {
		t.Errorf("file changed by a refused save: %q", now.Content)
	}
	// Resolving: saving against the new hash works.
	res, err = s.Save("memory/MEMORY.md", res.Conflict.Theirs+"- likes coffee\n", res.Conflict.TheirsHash)
	if err != nil || !res.Saved {
		t.Fatalf("resolved save: %+v %v", res, err)
	}
	if n := len(news); n != 3 {
		t.Errorf("%d change notifications, want 3", n)
	}
}

func TestSaveChecks(t *testing.T) {
	s, ws := newTestStore(t)
	for _, bad := range []string{"../x.md", "memory/../../etc/passwd", "notes.md", "skills/../AGENTS.md/SKILL.md", "/etc/hosts"} {
		if _, err := s.Save(bad, "x", ""); err == nil {
			t.Errorf("Save(%q) allowed", bad)
		}
	}
	// Same content with a stale hash is not a conflict.
	if _, err := s.Save("SOUL.md", "calm", ""); err != nil {
		t.Fatal(err)
	}
	if res, err := s.Save("SOUL.md", "calm", "stale"); err != nil || !res.Saved {
		t.Errorf("identical save refused: %+v %v", res, err)
	}
	// Mode is kept by the atomic write.
	p := filepath.Join(ws, "SOUL.md")
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	f, _ := s.Read("SOUL.md")
	if res, err := s.Save("SOUL.md", "calmer", f.Hash); err != nil || !res.Saved {
		t.Fatal(res, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v after save", fi.Mode().Perm())
	}
	left, _ := filepath.Glob(filepath.Join(ws, ".SOUL.md.tmp*"))
	if len(left) > 0 {
		t.Errorf("temp files left: %v", left)
	}
}

func TestListAndHistory(t *testing.T) {
	s, ws := newTestStore(t)
	at := time.Date(2026, 3, 4, 9, 30, 0, 0, time.UTC)
	if err := s.AppendHistory("Planned the trip to Lisbon.", at); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendHistory("[2026-03-05 10:00] Booked flights.", at); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(ws, HistoryFile))
	want := "[2026-03-04 09:30] Planned the trip to Lisbon.\n\n[2026-03-05 10:00] Booked flights.\n"
	if string(b) != want {
		t.Errorf("HISTORY.md = %q, want %q", b, want)
	}
	os.WriteFile(filepath.Join(ws, "memory", "2026-03-04.md"), []byte("note"), 0o600)
	os.MkdirAll(filepath.Join(ws, "skills", "git"), 0o700)
	os.WriteFile(filepath.Join(ws, "skills", "git", "SKILL.md"), []byte("skill"), 0o600)
	os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("agents"), 0o600)
	files, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Kind+":"+f.Path)
		if f.Hash == "" || f.Size == 0 || f.ModTime.IsZero() {
			t.Errorf("incomplete info %+v", f)
		}
	}
	if strings.Join(got, " ") != "history:memory/HISTORY.md daily:memory/2026-03-04.md persona:AGENTS.md skill:skills/git/SKILL.md" {
		t.Errorf("List = %v", got)
	}
	// Names as List shows them open the same files.
	for _, f := range files {
		byName, err := s.Read(f.Name)
		if err != nil || byName.Path != f.Path || byName.Hash != f.Hash {
			t.Errorf("Read(%q) = %+v %v", f.Name, byName, err)
		}
	}
}

// TestNamesAgreeWithRecall: the index treats the notebook's files apart by
// name and reads HISTORY.md entries by their stamp; both packages must say the same.
func TestNamesAgreeWithRecall(t *testing.T) {
	if recall.MemoryFile != MemoryFile || recall.HistoryFile != HistoryFile {
		t.Errorf("recall names %q %q, memory %q %q", recall.MemoryFile, recall.HistoryFile, MemoryFile, HistoryFile)
	}
	for _, line := range []string{"[2026-01-02 03:04] x", "[2026-01-02 03:04]", "[YYYY-MM-DD HH:MM] x", "(2026-01-02 03:04) x", "[2026-01-02 3:04] x", ""} {
		if stampRe.MatchString(line) != recall.IsEntry(line) {
			t.Errorf("%q: the store and the index disagree on the entry stamp", line)
		}
	}
}

// AppendHistory appends one entry to HISTORY.md, stamped "[YYYY-MM-DD HH:MM]"
// with at (a stamp the text already starts with is kept).
func (s *Store) AppendHistory(entry string, at time.Time) error {
	return s.AppendHistoryAs(entry, at, OriginConsolidation(""))
}

func writeFile(t testing.TB, ws, rel, content string) {
	t.Helper()
	p := filepath.Join(ws, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
