package confined

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

type tree struct {
	ws, outside string
}

func newTree(t *testing.T) tree {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr := tree{ws: filepath.Join(base, "ws"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{filepath.Join(tr.ws, "memory"), tr.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(tr.outside, "secret.txt"), "outside secret")
	write(t, filepath.Join(tr.ws, "memory", "MEMORY.md"), "facts")
	write(t, filepath.Join(tr.ws, "notes.txt"), "notes")
	return tr
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, dir string, o Options) *Root {
	t.Helper()
	r, err := Open(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestReadStaysInside(t *testing.T) {
	tr := newTree(t)
	symlink(t, tr.outside, filepath.Join(tr.ws, "out"))
	symlink(t, filepath.Join(tr.outside, "secret.txt"), filepath.Join(tr.ws, "abs-secret"))
	symlink(t, "../outside/secret.txt", filepath.Join(tr.ws, "rel-secret"))
	symlink(t, "memory/MEMORY.md", filepath.Join(tr.ws, "inner"))
	if err := os.Link(filepath.Join(tr.outside, "secret.txt"), filepath.Join(tr.ws, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(tr.ws, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := open(t, tr.ws, Options{})
	for name, want := range map[string]error{
		"../outside/secret.txt":   ErrOutside,
		"memory/../../outside/x":  ErrOutside,
		"out/secret.txt":          ErrOutside,
		"abs-secret":              ErrOutside,
		"rel-secret":              ErrOutside,
		"hard.txt":                ErrHardLink,
		"fifo":                    ErrSpecial,
		"memory/./../notes.txt":   nil,
		"inner":                   nil,
		"/memory/MEMORY.md":       nil, // names are always beneath the root
		filepath.Join("memory/x"): os.ErrNotExist,
	} {
		done := make(chan error, 1)
		go func() { _, err := r.ReadFile(name, 0); done <- err }()
		select {
		case err := <-done:
			if want == nil && err != nil || want != nil && !errors.Is(err, want) {
				t.Errorf("ReadFile(%q) = %v, want %v", name, err, want)
			}
			if err != nil && strings.Contains(err.Error(), "outside secret") {
				t.Errorf("%q: error shows the content", name)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%q) hangs", name)
		}
	}
	// Allowed hard links read; the unrestricted root still refuses /proc.
	if b, err := open(t, tr.ws, Options{HardLinks: true}).ReadFile("hard.txt", 0); err != nil || string(b) != "outside secret" {
		t.Errorf("hard link with HardLinks: %q %v", b, err)
	}
	slash := open(t, "/", Options{HardLinks: true})
	for _, p := range []string{"proc/self/environ", "sys/kernel/mm/transparent_hugepage/enabled", "dev/null"} {
		if _, err := slash.ReadFile(p, 0); !errors.Is(err, ErrSpecial) && !errors.Is(err, os.ErrNotExist) {
			t.Errorf("ReadFile(/%s) = %v, want ErrSpecial", p, err)
		}
	}
	symlink(t, "/proc/self/environ", filepath.Join(tr.outside, "env"))
	// os.Root refuses absolute symlinks outright; a relative one reaches
	// /proc and is refused on the open file.
	rel := strings.Repeat("../", strings.Count(tr.outside, "/")) + "proc/self/environ"
	symlink(t, rel, filepath.Join(tr.outside, "env-rel"))
	for _, l := range []string{"env", "env-rel"} {
		if _, err := slash.ReadFile(strings.TrimPrefix(filepath.Join(tr.outside, l), "/"), 0); !errors.Is(err, ErrSpecial) && !errors.Is(err, ErrOutside) {
			t.Errorf("/proc through a symlink %s: %v", l, err)
		}
	}
	if _, err := slash.ReadFile(strings.TrimPrefix(filepath.Join(tr.outside, "env-rel"), "/"), 0); !errors.Is(err, ErrSpecial) {
		t.Errorf("/proc through a relative symlink: %v", err)
	}
	if _, err := r.ReadFile("notes.txt", 3); !errors.Is(err, ErrTooBig) {
		t.Errorf("limit: %v", err)
	}
}

func TestWriteStaysInside(t *testing.T) {
	tr := newTree(t)
	symlink(t, tr.outside, filepath.Join(tr.ws, "out"))
	symlink(t, filepath.Join(tr.outside, "new.txt"), filepath.Join(tr.ws, "dangling-out"))
	symlink(t, "notes.txt", filepath.Join(tr.ws, "alias"))
	symlink(t, filepath.Join(tr.ws, "notes.txt"), filepath.Join(tr.ws, "abs-alias"))
	if err := os.Link(filepath.Join(tr.outside, "secret.txt"), filepath.Join(tr.ws, "hard.txt")); err != nil {
		t.Fatal(err)
	}
	r := open(t, tr.ws, Options{})
	for name, want := range map[string]error{
		"../outside/x.txt":  ErrOutside,
		"out/x.txt":         ErrOutside,
		"out/deep/x.txt":    ErrOutside,
		"dangling-out":      ErrOutside,
		"hard.txt":          ErrHardLink,
		"memory":            nil, // a folder: refused, but not as outside
		"memory/new/x.md":   nil,
		"alias":             nil,
		"abs-alias":         nil,
		"memory/MEMORY.md":  nil,
		"fresh/and/deep.md": nil,
	} {
		w, err := r.WriteFile(name, []byte("new"), 0o600, WriteOptions{DirMode: 0o700})
		switch {
		case name == "memory":
			if err == nil || !strings.Contains(err.Error(), "directory") {
				t.Errorf("write a folder: %v", err)
			}
		case want == nil && err != nil, want != nil && !errors.Is(err, want):
			t.Errorf("WriteFile(%q) = %+v %v, want %v", name, w, err, want)
		}
	}
	entries, _ := os.ReadDir(tr.outside)
	if len(entries) != 1 {
		t.Errorf("outside folder now holds %v", entries)
	}
	if b, _ := os.ReadFile(filepath.Join(tr.outside, "secret.txt")); string(b) != "outside secret" {
		t.Errorf("outside file changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(tr.ws, "notes.txt")); string(b) != "new" {
		t.Errorf("a write through an inner symlink did not reach its target: %q", b)
	}
	if fi, _ := os.Lstat(filepath.Join(tr.ws, "alias")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced instead of followed")
	}
	// The existing mode is kept; Check sees the real path and can refuse.
	if err := os.Chmod(filepath.Join(tr.ws, "notes.txt"), 0o640); err != nil {
		t.Fatal(err)
	}
	w, err := r.WriteFile("alias", []byte("again"), 0o600, WriteOptions{})
	if fi, _ := os.Stat(filepath.Join(tr.ws, "notes.txt")); err != nil || !w.Existed || fi.Mode().Perm() != 0o640 || w.Real != filepath.Join(tr.ws, "notes.txt") {
		t.Errorf("rewrite: %+v %v mode %v", w, err, fi.Mode())
	}
	no := errors.New("protected")
	if _, err := r.WriteFile("abs-alias", []byte("x"), 0o600, WriteOptions{Check: func(real string) error {
		if real == filepath.Join(tr.ws, "notes.txt") {
			return no
		}
		return nil
	}}); !errors.Is(err, no) {
		t.Errorf("Check not applied to the real target: %v", err)
	}
	if ents, _ := os.ReadDir(tr.ws); len(ents) != 8 {
		t.Errorf("left behind in the workspace: %v", ents)
	}
}

func TestCreateExclusive(t *testing.T) {
	tr := newTree(t)
	symlink(t, tr.outside, filepath.Join(tr.ws, "out"))
	r := open(t, tr.ws, Options{})
	if ok, err := r.CreateExclusive("memory/MEMORY.md", []byte("template"), 0o600, 0o700); ok || err != nil {
		t.Errorf("existing file: %v %v", ok, err)
	}
	if ok, err := r.CreateExclusive("skills/x/SKILL.md", []byte("t"), 0o600, 0o700); !ok || err != nil {
		t.Errorf("new file: %v %v", ok, err)
	}
	if ok, err := r.CreateExclusive("out/SOUL.md", []byte("t"), 0o600, 0o700); ok || !errors.Is(err, ErrOutside) {
		t.Errorf("through a symlink out: %v %v", ok, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(tr.ws, "skills", "x")); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}

// A goroutine flips a folder between a symlink to a real folder inside and a
// symlink to outside while reads and writes go on: none of them may touch the
// outside file. The flipper takes one step per read (stepFlipper), so every
// read races a flip where the machine has a core to spare, and the reads of the
// settled steps meet both sides on any number of cores.
func TestFlipRace(t *testing.T) {
	tr := newTree(t)
	write(t, filepath.Join(tr.outside, "f.txt"), "OUTSIDE")
	real := filepath.Join(tr.ws, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(real, "f.txt"), "inside")
	flip := filepath.Join(tr.ws, "d")
	step := stepFlipper(t,
		func() { _ = os.Remove(flip); _ = os.Symlink("real", flip) },
		func() { _ = os.Remove(flip); _ = os.Symlink(tr.outside, flip) })
	r := open(t, tr.ws, Options{})
	leaks, inside, refused, wrote := 0, 0, 0, 0
	for i := range 1000 {
		step(i)
		switch b, err := r.ReadFile("d/f.txt", 0); {
		case err == nil && string(b) == "OUTSIDE":
			leaks++
		case err == nil:
			inside++
		case errors.Is(err, ErrOutside):
			refused++
		}
		if _, err := r.WriteFile("d/f.txt", []byte("written"), 0o644, WriteOptions{}); err == nil {
			wrote++
		}
	}
	t.Logf("reads: %d inside, %d refused as outside; %d writes landed inside", inside, refused, wrote)
	if refused < 250 || inside < 250 {
		t.Errorf("the settled steps were not read both ways: %d inside, %d refused", inside, refused)
	}
	if b, _ := os.ReadFile(filepath.Join(tr.outside, "f.txt")); leaks != 0 || string(b) != "OUTSIDE" {
		t.Fatalf("%d reads saw outside content; outside file now %q", leaks, b)
	}
	if ents, _ := os.ReadDir(tr.outside); len(ents) != 2 { // f.txt, secret.txt
		t.Fatalf("outside folder holds %v", ents)
	}
}

// stepFlipper runs a flipper goroutine that takes one step per call of the
// returned function: step i is toInside, nothing, toOutside, nothing, by turns.
// The call hands the step over and returns at once, so the step runs while the
// caller reads (on one core, when the caller next blocks); it waits only for the
// step before, so the reads after a "nothing" step see a settled side whatever the
// scheduler does: i%4 == 1 inside, i%4 == 3 outside.
func stepFlipper(t *testing.T, toInside, toOutside func()) func(i int) {
	steps := make(chan int)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range steps {
			switch i % 4 {
			case 0:
				toInside()
			case 2:
				toOutside()
			}
		}
	}()
	t.Cleanup(func() { close(steps); <-done })
	return func(i int) { steps <- i }
}
