package atomicfile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// The leftovers of killed writes (each writer's naming) are removed once stale;
// fresh ones (a write in progress elsewhere), the targets themselves, ordinary
// dotfiles and folders stay.
func TestSweepRemovesStaleLeftovers(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	mk := func(name string, mod time.Time) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{".config.json4711081512", ".jobs.json.tmp-3kf9z1", ".MEMORY.md.new", ".MEMORY.md.new.tmp-a1"} {
		mk(n, old)
	}
	mk(".sessions.jsonl1234567", time.Now()) // being written right now
	for _, n := range []string{"config.json", ".gitignore", ".hidden2", "notes.new"} {
		mk(n, old)
	}
	if err := os.Mkdir(filepath.Join(dir, ".trash"), 0o700); err != nil {
		t.Fatal(err)
	}
	got := Sweep(time.Now(), dir, filepath.Join(dir, "missing"))
	for i := range got {
		got[i] = filepath.Base(got[i])
	}
	slices.Sort(got)
	want := []string{".MEMORY.md.new", ".MEMORY.md.new.tmp-a1", ".config.json4711081512", ".jobs.json.tmp-3kf9z1"}
	if !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v", got, want)
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 6 {
		t.Errorf("left %d entries", len(left))
	}
	// A real write killed between create and rename leaves exactly such a file.
	f, err := Pending(filepath.Join(dir, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.Write([]byte("half"))
	name := filepath.Base(f.Name())
	_ = f.File.Close() // the process "dies" here: no rename, no cleanup
	if !leftover.MatchString(name) {
		t.Errorf("renameio's temporary %q is not recognised", name)
	}
	got = Sweep(time.Now().Add(StaleAfter+time.Minute), dir) // the next start, later
	if len(got) != 2 || !slices.Contains(got, filepath.Join(dir, name)) {
		t.Errorf("swept %v", got)
	}
}
