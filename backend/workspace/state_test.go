package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"hearth/backend/memrepo"
)

func put(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// oldHearth makes <ws>/.hearth as older versions left it: a history without
// Hearth's mark, a proposal in the inbox, Dream's state, the lock.
func oldHearth(t *testing.T) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "ws")
	git := filepath.Join(ws, ".hearth", "memory.git")
	if _, err := memrepo.New(git, nil).Commit(memrepo.Change{Files: map[string][]byte{"memory/MEMORY.md": []byte("- tea\n")},
		Author: "agent", Message: "remember: tea"}); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(git, "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = true\n") // before the mark
	put(t, filepath.Join(ws, ".hearth", "inbox", "p1.json"), `{"id":"p1"}`)
	put(t, filepath.Join(ws, ".hearth", "dream.json"), `{"paused":true}`)
	put(t, filepath.Join(ws, ".hearth", "memory.lock"), "")
	return ws
}

func TestMoveStateOnce(t *testing.T) {
	ws := oldHearth(t)
	dir := StateDir(filepath.Join(t.TempDir(), "workspaces"), ws)
	m, err := MoveState(ws, dir)
	if err != nil || m == nil {
		t.Fatalf("move: %+v %v", m, err)
	}
	if !slices.Equal(m.Items, []string{"memory.git", "inbox", "dream.json"}) || len(m.Refused)+len(m.Skipped) != 0 {
		t.Errorf("moved %+v", m)
	}
	log, err := memrepo.New(filepath.Join(dir, "memory.git"), nil).Log("", 0)
	if err != nil || len(log) != 1 || log[0].Message != "remember: tea" {
		t.Fatalf("moved history: %+v %v", log, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "inbox", "p1.json")); string(b) != `{"id":"p1"}` {
		t.Errorf("inbox %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "dream.json")); string(b) != `{"paused":true}` {
		t.Errorf("dream.json %q", b)
	}
	for _, name := range []string{"memory.git", "inbox", "dream.json"} {
		if _, err := os.Lstat(filepath.Join(ws, ".hearth", name+MovedSuffix)); err != nil {
			t.Errorf("old %s not kept under its new name: %v", name, err)
		}
	}
	if r := ReadMoved(dir); r == nil || r.From != filepath.Join(ws, ".hearth") {
		t.Errorf("record %+v", r)
	}
	if again, err := MoveState(ws, dir); again != nil || err != nil {
		t.Errorf("second move %+v %v", again, err)
	}
}

// A command planted links in the old folder (or made it a pipe): nothing
// behind them is read, copied, renamed or deleted, and the record says so.
func TestMoveStateFollowsNoLink(t *testing.T) {
	ws := oldHearth(t)
	victim := filepath.Join(t.TempDir(), "victim")
	put(t, filepath.Join(victim, "id_ed25519"), "secret")
	old := filepath.Join(ws, ".hearth")
	objects := filepath.Join(old, "memory.git", "objects")
	if err := os.Rename(objects, objects+".real"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, objects); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(old, "inbox")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(old, "inbox")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(old, "dream.json")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(old, "dream.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(old, "memory.lock")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(victim, "id_ed25519"), filepath.Join(old, "memory.lock")); err != nil {
		t.Fatal(err)
	}
	dir := StateDir(t.TempDir(), ws)
	m, err := MoveState(ws, dir)
	if err != nil || m == nil {
		t.Fatalf("move: %+v %v", m, err)
	}
	if len(m.Items) != 0 || !slices.Equal(m.Refused, []string{"memory.git", "inbox", "dream.json"}) ||
		!slices.Contains(m.Skipped, filepath.Join("memory.git", "objects")) {
		t.Errorf("record %+v", m)
	}
	for _, name := range []string{"memory.git", "inbox", "dream.json"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s reached the state folder: %v", name, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(victim, "id_ed25519")); err != nil || string(b) != "secret" {
		t.Errorf("victim changed: %q %v", b, err)
	}
	if ents, _ := os.ReadDir(victim); len(ents) != 1 {
		t.Errorf("victim folder changed: %v", ents)
	}
	if _, err := os.Lstat(filepath.Join(old, "memory.lock")); err != nil {
		t.Errorf("a link among the old files was removed: %v", err)
	}
}

func TestMoveStateRefusesALinkedHearthFolder(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ws")
	victim := filepath.Join(t.TempDir(), "victim")
	put(t, filepath.Join(victim, "memory.git", "HEAD"), "ref: refs/heads/main\n")
	if err := os.MkdirAll(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(ws, ".hearth")); err != nil {
		t.Fatal(err)
	}
	dir := StateDir(t.TempDir(), ws)
	m, err := MoveState(ws, dir)
	if err != nil || m == nil || !slices.Equal(m.Refused, []string{".hearth"}) {
		t.Fatalf("move: %+v %v", m, err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "memory.git")); !os.IsNotExist(err) {
		t.Errorf("history copied through a link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(victim, "memory.git", "HEAD")); err != nil {
		t.Errorf("victim changed: %v", err)
	}
}

func TestNothingToMove(t *testing.T) {
	ws := t.TempDir()
	dir := StateDir(t.TempDir(), ws)
	if m, err := MoveState(ws, dir); m != nil || err != nil {
		t.Errorf("%+v %v", m, err)
	}
	if ReadMoved(dir) != nil {
		t.Error("a record of nothing")
	}
	if !strings.HasPrefix(dir, filepath.Dir(dir)) {
		t.Error(dir)
	}
}
