package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"hearth/backend/memrepo"
	"hearth/backend/workspace"
)

// A workspace an older Hearth used: at the first start its history moves into
// the state folder (and keeps its commits), and hearth status says so; a
// second workspace whose .hearth/memory.git is a link to another repository is
// not followed — a new history starts and status says what was left.
func TestOldHearthFolderMovedAtStart(t *testing.T) {
	setXDG(t)
	a := open(t, Options{})
	ws := a.Settings.Paths().Workspace
	git := filepath.Join(ws, ".hearth", "memory.git")
	if _, err := memrepo.New(git, nil).Commit(memrepo.Change{Files: map[string][]byte{"memory/MEMORY.md": []byte("- old\n")},
		Author: "agent", Message: "remember: old"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Start(t.Context(), StartOptions{}); err != nil {
		t.Fatal(err)
	}
	revs, err := a.Memory.History("", 0)
	if err != nil || len(revs) < 2 || revs[len(revs)-1].Message != "remember: old" {
		t.Fatalf("history after the move: %+v %v", revs, err)
	}
	st := a.Status(context.Background())
	if st.StateMoved == nil || !slices.Contains(st.StateMoved.Items, "memory.git") || st.MemoryStateDir != a.Memory.Store().StateDir() {
		t.Errorf("status: %+v %s", st.StateMoved, st.MemoryStateDir)
	}
	if _, err := os.Stat(git + workspace.MovedSuffix); err != nil {
		t.Errorf("the old history was not kept renamed: %v", err)
	}
}

func TestLinkedOldHistoryRefusedAtStart(t *testing.T) {
	setXDG(t)
	a := open(t, Options{})
	ws := a.Settings.Paths().Workspace
	project := filepath.Join(t.TempDir(), "project.git")
	if _, err := memrepo.New(project, nil).Commit(memrepo.Change{Files: map[string][]byte{"main.go": []byte("package main\n")},
		Author: "me", Message: "mine"}); err != nil {
		t.Fatal(err)
	}
	head, _ := os.ReadFile(filepath.Join(project, "refs", "heads", "main"))
	if err := os.MkdirAll(filepath.Join(ws, ".hearth"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(project, filepath.Join(ws, ".hearth", "memory.git")); err != nil {
		t.Fatal(err)
	}
	if err := a.Start(t.Context(), StartOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Memory.Remember("a fact"); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(filepath.Join(project, "refs", "heads", "main")); string(after) != string(head) {
		t.Errorf("the other repository's branch moved: %q -> %q", head, after)
	}
	st := a.Status(context.Background())
	if st.StateMoved == nil || !slices.Contains(st.StateMoved.Refused, "memory.git") {
		t.Errorf("status does not say the history was left: %+v", st.StateMoved)
	}
	if revs, err := a.Memory.History("", 0); err != nil || len(revs) == 0 {
		t.Errorf("no new history: %+v %v", revs, err)
	}
}

// An older version's review settings file replaced by a named pipe (a command
// could do that in the workspace): the start reads nothing and goes on.
func TestLegacyReviewSettingsPipeDoesNotHang(t *testing.T) {
	setXDG(t)
	a := open(t, Options{})
	legacy := filepath.Join(a.Settings.Paths().Workspace, ".hearth", "inbox", "settings.json")
	if err := os.MkdirAll(filepath.Dir(legacy), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(legacy, 0o600); err != nil {
		t.Skip("no named pipes:", err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Start(t.Context(), StartOptions{}) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the start hung on a named pipe")
	}
	if a.Memory.Inbox().Settings().Enabled {
		t.Error("settings read from a pipe")
	}
}
