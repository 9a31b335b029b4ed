package memrepo

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// snapshot lists a folder's entries with their content (files) or kind.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			out[rel] = string(b)
		} else {
			out[rel] = fi.Mode().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// victim is a folder outside the history that looks like another project's
// .git, with leftovers a pack clean-up would delete.
func victim(t *testing.T) string {
	t.Helper()
	v := filepath.Join(t.TempDir(), "victim")
	for name, content := range map[string]string{
		"HEAD": "ref: refs/heads/main\n", "config": "[core]\n\tbare = true\n", "main": "0123\n",
		"tmp_pack_x": "keep", "pack-1.idx": "keep", "id_ed25519": "secret", "hearth.lock": "",
	} {
		if err := os.MkdirAll(v, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(v, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

// A command that could reach the history planted a link at each level; the
// next commit must write nothing through it, delete nothing behind it, and
// (for every level a commit needs) fail with an error.
func TestPlantedLinksAtEveryLevel(t *testing.T) {
	for _, level := range []string{".", "objects", "objects/pack", "refs", "refs/heads", "refs/heads/main", "hearth.lock", "config", "HEAD"} {
		t.Run(level, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "memory.git")
			r := New(dir, nil)
			r.limits = packLimits{objects: 1, bytes: 1, packs: 1} // every commit packs
			commit(t, r, "Hearth", "first", map[string]string{"memory/MEMORY.md": "one\n"})
			v := victim(t)
			target := v
			if level == "refs/heads/main" || level == "hearth.lock" || level == "config" || level == "HEAD" {
				target = filepath.Join(v, "main")
			}
			at := filepath.Join(dir, level)
			if err := os.Rename(at, at+".moved"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, at); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, v)
			_, err := New(dir, nil).Commit(Change{Files: map[string][]byte{"memory/MEMORY.md": []byte("two\n")}, Author: "agent", Message: "m"})
			if level != "objects/pack" && err == nil {
				t.Errorf("commit through a link at %s succeeded", level)
			}
			if after := snapshot(t, v); !mapsEqual(before, after) {
				t.Errorf("the folder behind the link at %s changed:\nbefore %v\nafter  %v", level, before, after)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A pack leftover that is a link is not deleted, nor what it points at.
func TestPackCleanupDeletesOnlyItsOwnFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory.git")
	r := New(dir, nil)
	commit(t, r, "Hearth", "first", map[string]string{"a.md": "a\n"})
	v := victim(t)
	pack := filepath.Join(dir, "objects", "pack")
	if err := os.MkdirAll(pack, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"tmp_link", "pack-2.idx"} {
		if err := os.Symlink(filepath.Join(v, "tmp_pack_x"), filepath.Join(pack, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(pack, "tmp_own"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, v)
	r.locked(func() error { r.cleanPackLeftovers(); return nil })
	if after := snapshot(t, v); !mapsEqual(before, after) {
		t.Errorf("victim changed: %v", after)
	}
	if _, err := os.Lstat(filepath.Join(pack, "tmp_link")); err != nil {
		t.Errorf("a link among the leftovers was removed: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(pack, "tmp_own")); !os.IsNotExist(err) {
		t.Errorf("Hearth's own temporary file stayed: %v", err)
	}
	// The pack folder itself a link to a folder with leftovers' names in it.
	if err := os.RemoveAll(pack); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(v, pack); err != nil {
		t.Fatal(err)
	}
	r.locked(func() error { r.cleanPackLeftovers(); return nil })
	if after := snapshot(t, v); !mapsEqual(before, after) {
		t.Errorf("clean-up through a linked pack folder changed the victim: %v", after)
	}
}

// Another repository (a project's .git) is not Hearth's: nothing is committed onto it.
func TestRefusesARepositoryNotItsOwn(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project.git")
	for name, content := range map[string]string{"HEAD": "ref: refs/heads/main\n", "config": "[core]\n\tbare = true\n"} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	before := snapshot(t, dir)
	_, err := New(dir, nil).Commit(Change{Files: map[string][]byte{"AGENTS.md": []byte("x\n")}, Author: "agent", Message: "m"})
	if !errors.Is(err, ErrNotOurs) || !strings.Contains(err.Error(), "move it aside") {
		t.Fatalf("err = %v, want ErrNotOurs with a hint", err)
	}
	if after := snapshot(t, dir); !mapsEqual(before, after) {
		t.Errorf("the other repository changed: %v", after)
	}
	if err := Adopt(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := New(dir, nil).Commit(Change{Files: map[string][]byte{"a.md": []byte("x\n")}, Author: "agent", Message: "m"}); err != nil {
		t.Errorf("after Adopt: %v", err)
	}
}

// A new history carries the mark.
func TestNewHistoryIsMarked(t *testing.T) {
	r := newRepo(t)
	commit(t, r, "Hearth", "first", map[string]string{"a.md": "a\n"})
	b, err := os.ReadFile(filepath.Join(r.dir, "config"))
	if err != nil || !bytes.Contains(b, []byte(markerSection)) {
		t.Fatalf("config %q %v", b, err)
	}
}

// noHang runs fn and fails the test if it has not returned within a minute:
// a named pipe opened blocking would wait forever.
func noHang(t *testing.T, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatal("hung on a named pipe")
		return nil
	}
}

func TestFIFOBranchRefusedNotWaitedOn(t *testing.T) {
	r := newRepo(t)
	commit(t, r, "Hearth", "first", map[string]string{"a.md": "a\n"})
	ref := filepath.Join(r.dir, branchFile)
	if err := os.Remove(ref); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(ref, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	err := noHang(t, func() error { _, err := New(r.dir, nil).Log("", 0); return err })
	if err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Fatalf("err = %v, want a refused named pipe", err)
	}
}

func TestConfigOnDevZeroRefused(t *testing.T) {
	r := newRepo(t)
	commit(t, r, "Hearth", "first", map[string]string{"a.md": "a\n"})
	cfg := filepath.Join(r.dir, "config")
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", cfg); err != nil {
		t.Fatal(err)
	}
	err := noHang(t, func() error { _, err := New(r.dir, nil).Log("", 0); return err })
	if err == nil {
		t.Fatal("a config linked to /dev/zero was read")
	}
}

// writeLoose replaces the loose object h with a zlib stream of header then n zero bytes.
func writeLoose(t *testing.T, dir string, h plumbing.Hash, header string, n int64) {
	t.Helper()
	var buf bytes.Buffer
	z := zlib.NewWriter(&buf)
	fmt.Fprint(z, header)
	z.Write([]byte{0})
	zero := make([]byte, 1<<16)
	for left := n; left > 0; left -= int64(len(zero)) {
		z.Write(zero[:min(left, int64(len(zero)))])
	}
	z.Close()
	p := filepath.Join(dir, "objects", h.String()[:2], h.String()[2:])
	_ = os.Chmod(p, 0o600)
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A small object that inflates to far more than a memory file is refused
// before it is inflated into memory, whether its header says so or lies.
func TestInflatingObjectRefused(t *testing.T) {
	for _, tc := range []struct {
		name, header string
	}{{"header says huge", "blob 2147483648"}, {"header lies", "blob 10"}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			commit(t, r, "Hearth", "first", map[string]string{"memory/MEMORY.md": "small\n"})
			h := plumbing.ComputeHash(plumbing.BlobObject, []byte("small\n"))
			r2 := New(r.dir, nil)
			r2.fs.maxObject = 1 << 20
			writeLoose(t, r.dir, h, tc.header, 4<<20) // 4 MB of zeros: a few KB on disk
			_, _, err := r2.Show("HEAD", "memory/MEMORY.md")
			if err == nil || !strings.Contains(err.Error(), ErrObjectTooBig.Error()) {
				t.Fatalf("err = %v, want an object too big", err)
			}
		})
	}
}

// A packed object over the bound is refused before it is read, by Show and by
// Diff: go-git inflates a packed object whole when it is read.
func TestPackedObjectOverTheBoundRefused(t *testing.T) {
	r := newRepo(t)
	big := strings.Repeat("a line of the history\n", 100)
	commit(t, r, "Hearth", "first", map[string]string{"memory/HISTORY.md": big})
	commit(t, r, "agent", "second", map[string]string{"memory/HISTORY.md": big + "one more\n"})
	if err := r.locked(func() error { return r.pack(true) }); err != nil {
		t.Fatal(err)
	}
	if len(r.packs()) != 1 {
		t.Fatalf("packs %v", r.packs())
	}
	r2 := New(r.dir, nil)
	r2.fs.maxObject = 1000
	if _, _, err := r2.Show("HEAD", "memory/HISTORY.md"); err == nil || !strings.Contains(err.Error(), ErrObjectTooBig.Error()) {
		t.Errorf("show: %v", err)
	}
	if _, err := r2.Diff("HEAD", ""); err == nil || !strings.Contains(err.Error(), ErrObjectTooBig.Error()) {
		t.Errorf("diff: %v", err)
	}
	if log, err := r2.Log("", 0); err != nil || len(log) != 2 {
		t.Errorf("the log, which reads no file's content, still works: %v %v", log, err)
	}
}
