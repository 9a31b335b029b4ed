package memory

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A command planted links where older versions kept Hearth's state in the
// workspace — .hearth/memory.git to another project's repository, .hearth/inbox
// and the memory lock to a folder of the user's. Hearth's state lives in its
// own folder now: a remember, a held proposal and a sync write nothing there.
func TestPlantedWorkspaceStateIsNotUsed(t *testing.T) {
	f := newConsFixture(t, 3)
	victim := filepath.Join(t.TempDir(), "project.git")
	writeFile(t, victim, "HEAD", "ref: refs/heads/main\n")
	writeFile(t, victim, "config", "[core]\n\tbare = true\n")
	writeFile(t, victim, "refs/heads/main", "0123456789012345678901234567890123456789\n")
	home := t.TempDir()
	writeFile(t, home, "id_ed25519", "secret")
	hearth := filepath.Join(f.ws, ".hearth")
	if err := os.MkdirAll(hearth, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"memory.git": victim, "inbox": home, "memory.lock": filepath.Join(home, "id_ed25519"),
		"memory-synced": filepath.Join(home, "id_ed25519"), "dream.json": "/dev/zero"} {
		if err := os.Symlink(target, filepath.Join(hearth, name)); err != nil {
			t.Fatal(err)
		}
	}
	before := map[string]string{}
	for _, d := range []string{victim, home} {
		for k, v := range tree(t, d) {
			before[k] = v
		}
	}
	s := serviceOver(t, f, nil)
	if err := s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Remember("likes tea"); err != nil {
		t.Fatal(err)
	}
	if err := s.Inbox().SetSettings(ReviewSettings{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	f.fake.Enqueue(saveCall("[2026-11-23 14:05] Talked.", "- Lives in Lisbon.\n"))
	s.AfterRun(f.id, 6, 4)
	if err := s.Consolidations().Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ps, err := s.Inbox().List(); err != nil || len(ps) != 1 {
		t.Fatalf("proposals %+v %v", ps, err)
	}
	if revs, err := s.History("", 0); err != nil || len(revs) < 2 {
		t.Fatalf("history %+v %v", revs, err)
	}
	after := map[string]string{}
	for _, d := range []string{victim, home} {
		for k, v := range tree(t, d) {
			after[k] = v
		}
	}
	if len(after) != len(before) {
		t.Fatalf("files appeared behind the links: %v", after)
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed behind a link: %q -> %q", k, v, after[k])
		}
	}
	state := s.Store().StateDir()
	for _, name := range []string{"memory.git/HEAD", "inbox", "memory.lock"} {
		if _, err := os.Stat(filepath.Join(state, name)); err != nil {
			t.Errorf("%s not in the state folder: %v", name, err)
		}
	}
}

// tree maps each regular file below dir to its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}
