package memrepo

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dirSize is the bytes of every file under dir.
func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// entry is one generated HISTORY.md entry (words drawn at random, so the file
// compresses about as well as real notes do).
func entry(rng *rand.Rand, i int) string {
	words := strings.Fields("the garden plum tree sister birthday Porto bread sourdough train meeting call doctor lunch")
	var b strings.Builder
	fmt.Fprintf(&b, "[2026-%02d-%02d 10:00] ", 1+i/28%12, 1+i%28)
	for range 40 {
		b.WriteString(words[rng.IntN(len(words))] + " ")
	}
	fmt.Fprintf(&b, "(%d)\n\n", rng.Int())
	return b.String()
}

// compressed is the size of b compressed as git stores an object.
func compressed(b []byte) int64 {
	var buf bytes.Buffer
	z := zlib.NewWriter(&buf)
	z.Write(b)
	z.Close()
	return int64(buf.Len())
}

// A large HISTORY.md that grows by an entry per commit: without packing each
// commit stored it whole again (compressed), so the repository grew by the file's
// size with every commit. Packed, it stays within a few times the file's own
// compressed size, and every version still reads back.
func TestPackingKeepsTheSizeBounded(t *testing.T) {
	r := newRepo(t)
	r.limits.bytes = 1 << 20 // as the default 8 MB would be to a file eight times larger
	rng := rand.New(rand.NewPCG(7, 7))
	var h strings.Builder
	for i := range 1500 {
		h.WriteString(entry(rng, i)) // ~450 KB
	}
	const commits = 80
	var revs, versions []string
	var loose int64 // about what the same commits take unpacked
	for i := range commits {
		h.WriteString(entry(rng, 1500+i))
		versions = append(versions, h.String())
		revs = append(revs, commit(t, r, "consolidation", fmt.Sprint("entry ", i), map[string]string{
			"memory/HISTORY.md": h.String(), "memory/MEMORY.md": fmt.Sprint("- fact ", i, "\n")}))
	}
	file := compressed([]byte(h.String()))
	loose = commits * file
	size := dirSize(t, r.Dir())
	n, _ := r.loose()
	t.Logf("file %d KB (%d KB compressed), %d commits: repository %d KB (unpacked %d KB), %d loose objects, %d packs",
		h.Len()>>10, file>>10, commits, size>>10, loose>>10, n, len(r.packs()))
	if bound := r.limits.bytes + int64(r.limits.packs+1)*file; size > bound {
		t.Errorf("repository %d KB, over the bound %d KB: not bounded", size>>10, bound>>10)
	}
	if n >= r.limits.objects || len(r.packs()) > r.limits.packs {
		t.Errorf("%d loose objects, %d packs", n, len(r.packs()))
	}
	log, err := r.Log("", 0)
	if err != nil || len(log) != commits {
		t.Fatalf("log: %d %v", len(log), err)
	}
	for _, i := range []int{0, 1, commits / 2, commits - 1} {
		b, ok, err := r.Show(revs[i], "memory/HISTORY.md")
		if err != nil || !ok || string(b) != versions[i] {
			t.Errorf("version %d reads back wrong: %v %v (%d bytes)", i, ok, err, len(b))
		}
	}
}

// Another process that read the history before it was packed (its storage knows
// the old objects' places) still reads every version after the pack; and a
// damaged branch is repaired from the commits in the packs.
func TestPackedHistoryReadByOthersAndRepaired(t *testing.T) {
	a := newRepo(t)
	b := New(a.Dir(), nil)
	one := commit(t, a, "a", "one", map[string]string{"memory/MEMORY.md": "1"})
	if log, err := b.Log("", 0); err != nil || len(log) != 1 {
		t.Fatalf("b before: %+v %v", log, err)
	}
	// Commit times have second resolution: the second commit is a second later.
	two := commitAt(t, a, time.Now().Add(time.Second), "a", "two", map[string]string{"memory/MEMORY.md": "2"})
	if err := a.Pack(true); err != nil {
		t.Fatal(err)
	}
	if n, _ := a.loose(); n != 0 || len(a.packs()) != 1 {
		t.Fatalf("after a full pack: %d loose objects, packs %v", n, a.packs())
	}
	log, err := b.Log("", 0)
	if err != nil || len(log) != 2 || log[0].Rev != two || log[1].Rev != one {
		t.Fatalf("b after the pack: %+v %v", log, err)
	}
	if c, ok, err := b.Show(one, "memory/MEMORY.md"); err != nil || !ok || string(c) != "1" {
		t.Fatalf("b shows %q %v %v", c, ok, err)
	}
	if err := os.WriteFile(filepath.Join(a.Dir(), branchFile), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	if log, err := a.Log("", 0); err != nil || len(log) != 2 || log[0].Rev != two {
		t.Fatalf("repair from the pack: %+v %v", log, err)
	}
}

// Pack writes the loose objects into a pack now; with all, every object into one
// pack that replaces the others.
func (r *Repo) Pack(all bool) error {
	return r.locked(func() error { return r.pack(all) })
}

// Dir is the repository's folder (a bare git repository: `git --git-dir DIR log` reads it).
func (r *Repo) Dir() string { return r.dir }
