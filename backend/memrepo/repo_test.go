package memrepo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func newRepo(t *testing.T) *Repo {
	t.Helper()
	return New(filepath.Join(t.TempDir(), "memory.git"), nil)
}

func commit(t *testing.T, r *Repo, author, msg string, files map[string]string) string {
	t.Helper()
	return commitAt(t, r, time.Time{}, author, msg, files)
}

// commitAt commits with the time when (zero: now).
func commitAt(t *testing.T, r *Repo, when time.Time, author, msg string, files map[string]string) string {
	t.Helper()
	ch := Change{Files: map[string][]byte{}, Author: author, Message: msg, When: when}
	for p, c := range files {
		ch.Files[p] = []byte(c)
	}
	rev, err := r.Commit(ch)
	if err != nil {
		t.Fatalf("commit %q: %v", msg, err)
	}
	return rev
}

func TestCommitLogShowDiff(t *testing.T) {
	r := newRepo(t)
	if log, err := r.Log("", 0); err != nil || len(log) != 0 {
		t.Fatalf("empty history: %v %v", log, err)
	}
	r1 := commit(t, r, "Hearth", "onboarding", map[string]string{"memory/MEMORY.md": "# Memory\n", "SOUL.md": "calm\n"})
	r2 := commit(t, r, "agent", "remember: tea", map[string]string{"memory/MEMORY.md": "# Memory\n- likes tea\n"})
	if r1 == "" || r2 == "" || r1 == r2 {
		t.Fatalf("revs %q %q", r1, r2)
	}
	if rev := commit(t, r, "agent", "same again", map[string]string{"memory/MEMORY.md": "# Memory\n- likes tea\n"}); rev != "" {
		t.Errorf("a no-op change committed %s", rev)
	}
	log, err := r.Log("", 0)
	if err != nil || len(log) != 2 {
		t.Fatalf("log: %+v %v", log, err)
	}
	if log[0].Rev != r2 || log[0].Author != "agent" || log[0].Message != "remember: tea" || strings.Join(log[0].Files, ",") != "memory/MEMORY.md" {
		t.Errorf("newest: %+v", log[0])
	}
	if strings.Join(log[1].Files, ",") != "SOUL.md,memory/MEMORY.md" {
		t.Errorf("first commit files: %v", log[1].Files)
	}
	if soul, _ := r.Log("SOUL.md", 0); len(soul) != 1 || soul[0].Rev != r1 {
		t.Errorf("SOUL.md log: %+v", soul)
	}
	got, ok, err := r.Show(r1[:7], "memory/MEMORY.md")
	if err != nil || !ok || string(got) != "# Memory\n" {
		t.Errorf("show old: %q %v %v", got, ok, err)
	}
	got, _, _ = r.Show("HEAD^", "memory/MEMORY.md")
	if string(got) != "# Memory\n" {
		t.Errorf("show HEAD^: %q", got)
	}
	if _, ok, _ := r.Show(r1, "USER.md"); ok {
		t.Error("a file never committed exists")
	}
	d, err := r.Diff(r2, "memory/MEMORY.md")
	if err != nil || !strings.Contains(d, "+- likes tea") || !strings.Contains(d, "memory/MEMORY.md") {
		t.Errorf("diff: %v\n%s", err, d)
	}
	if d, _ := r.Diff(r2, "SOUL.md"); d != "" {
		t.Errorf("diff of an unchanged file: %q", d)
	}
	for _, bad := range []string{"zz", "12", "ffffffff", r1 + "^"} {
		if _, err := r.Resolve(bad); !errors.Is(err, ErrUnknownRev) {
			t.Errorf("resolve %q: %v", bad, err)
		}
	}
}

func TestSyncRecordsOutsideEditsAndDeletions(t *testing.T) {
	r := newRepo(t)
	rev, err := r.Sync(map[string][]byte{"memory/MEMORY.md": []byte("a\n"), "USER.md": []byte("u\n")}, "Hearth", "first")
	if err != nil || rev == "" {
		t.Fatalf("first sync: %q %v", rev, err)
	}
	if rev, _ := r.Sync(map[string][]byte{"memory/MEMORY.md": []byte("a\n"), "USER.md": []byte("u\n")}, "x", "y"); rev != "" {
		t.Errorf("an unchanged sync committed")
	}
	if _, err := r.Sync(map[string][]byte{"memory/MEMORY.md": []byte("b\n")}, "outside Hearth", "edited outside Hearth"); err != nil {
		t.Fatal(err)
	}
	log, _ := r.Log("", 0)
	if len(log) != 2 || strings.Join(log[0].Files, ",") != "USER.md,memory/MEMORY.md" || !strings.HasPrefix(log[0].Message, "edited outside Hearth") {
		t.Fatalf("log: %+v", log)
	}
	if _, ok, _ := r.Show("HEAD", "USER.md"); ok {
		t.Error("the deleted file is still in HEAD")
	}
}

// A branch file damaged (a crash of another writer, a bad disk) or naming a
// missing commit falls back to the newest whole commit; with none, a new history.
func TestRepairDamagedBranch(t *testing.T) {
	r := newRepo(t)
	commit(t, r, "a", "one", map[string]string{"memory/MEMORY.md": "1"})
	// Commit times have second resolution: the second commit is a second later.
	r2 := commitAt(t, r, time.Now().Add(time.Second), "a", "two", map[string]string{"memory/MEMORY.md": "2"})
	ref := filepath.Join(r.Dir(), branchFile)
	for _, junk := range []string{"", "garbage", strings.Repeat("ab", 20)} {
		if err := os.WriteFile(ref, []byte(junk), 0o600); err != nil {
			t.Fatal(err)
		}
		log, err := r.Log("", 0)
		if err != nil || len(log) != 2 || log[0].Rev != r2 {
			t.Fatalf("after %q: %+v %v", junk, log, err)
		}
	}
	// Every object gone: the history starts again and takes new commits.
	if err := os.RemoveAll(filepath.Join(r.Dir(), "objects")); err != nil {
		t.Fatal(err)
	}
	if log, err := r.Log("", 0); err != nil || len(log) != 0 {
		t.Fatalf("objects gone: %+v %v", log, err)
	}
	if commit(t, r, "a", "three", map[string]string{"memory/MEMORY.md": "3"}) == "" {
		t.Error("no commit after the reset")
	}
}
