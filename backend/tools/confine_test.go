package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileToolsFlipRace is issue 19's race: a folder flips between a real
// folder and a symlink to outside while read_file and write_file run 1 000
// times each. Check-then-open let 17 of 100 reads and 8 of 100 writes
// through; opening through the confined root lets none.
func TestFileToolsFlipRace(t *testing.T) {
	s := newSandbox(t)
	s.write(t, filepath.Join(s.outside, "f.txt"), "OUTSIDE\n")
	realDir, flip := filepath.Join(s.ws, "d-real"), filepath.Join(s.ws, "d")
	s.write(t, filepath.Join(realDir, "f.txt"), "inside\n")
	// d is by turns the real folder and a symlink out (and missing between them).
	isDir := func() bool { fi, err := os.Lstat(flip); return err == nil && fi.IsDir() }
	toInside := func() {
		_ = os.Remove(flip)
		_ = os.Rename(realDir, flip) // fails when write_file made d while it was missing: d is a folder then too
	}
	toOutside := func() {
		// A write racing this step may make d while it is missing: try again (it
		// writes once per step).
		for range 3 {
			if isDir() && os.Rename(flip, realDir) != nil {
				_ = os.RemoveAll(flip) // realDir is there already
			}
			if os.Symlink(s.outside, flip) == nil {
				return
			}
		}
		t.Error("d did not become a symlink")
	}
	step := stepFlipper(t, toInside, toOutside)
	r := NewRegistry(RegistryOptions{})
	if err := r.Register(Builtins(Options{Policy: *s.policy})...); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	leaks, inside, refused, wrote := 0, 0, 0, 0
	for i := range 1000 {
		step(i)
		res := r.Call(ctx, "read_file", json.RawMessage(`{"path":"d/f.txt"}`))
		switch {
		case strings.Contains(res.Content, "OUTSIDE"):
			leaks++
		case res.OK():
			inside++
		case strings.Contains(res.Content, "outside the workspace"):
			refused++
		}
		args, _ := json.Marshal(map[string]string{"path": "d/f.txt", "content": "written " + string(rune('a'+i%26)) + "\n"})
		if r.Call(ctx, "write_file", args).OK() {
			wrote++
		}
	}
	t.Logf("read_file: %d inside, %d refused, %d outside; write_file: %d written", inside, refused, leaks, wrote)
	if leaks != 0 {
		t.Errorf("%d reads returned the outside file", leaks)
	}
	if b, _ := os.ReadFile(filepath.Join(s.outside, "f.txt")); string(b) != "OUTSIDE\n" {
		t.Errorf("a write landed outside: %q", b)
	}
	if ents, _ := os.ReadDir(s.outside); len(ents) != 2 { // f.txt, secret.txt
		t.Errorf("outside folder holds %v", ents)
	}
	if refused < 250 || inside < 250 {
		t.Errorf("the settled steps were not read both ways: %d inside, %d refused", inside, refused)
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

// A file with a second name outside counts as outside while the tools are
// confined; unrestricted, it is an ordinary file.
func TestHardLinkRule(t *testing.T) {
	s := newSandbox(t)
	if err := os.Link(filepath.Join(s.outside, "secret.txt"), filepath.Join(s.ws, "linked.txt")); err != nil {
		t.Fatal(err)
	}
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "linked.txt"}), "hard links", "outside the workspace")
	wantErr(t, s.call(t, "write_file", map[string]any{"path": "linked.txt", "content": "x"}), "hard links")
	wantErr(t, s.call(t, "edit_file", map[string]any{"path": "linked.txt", "old_text": "outside", "new_text": "in"}), "hard links")
	res := s.call(t, "grep", map[string]any{"pattern": "secret"})
	if strings.Contains(res.Content, "linked.txt") {
		t.Errorf("grep read a hard-linked file: %s", res.Content)
	}
	if b, _ := os.ReadFile(filepath.Join(s.outside, "secret.txt")); string(b) != "outside secret\n" {
		t.Errorf("outside file changed: %q", b)
	}
	s.policy.Unrestricted = true
	wantOK(t, s.call(t, "read_file", map[string]any{"path": "linked.txt"}), "outside secret")
}

// Unrestricted still reads and writes anywhere, absolute symlinks included,
// and still refuses kernel files.
func TestUnrestrictedStillWorks(t *testing.T) {
	s := newSandbox(t)
	s.policy.Unrestricted = true
	if err := os.Symlink(filepath.Join(s.outside, "secret.txt"), filepath.Join(s.ws, "abs-link")); err != nil {
		t.Fatal(err)
	}
	wantOK(t, s.call(t, "read_file", map[string]any{"path": filepath.Join(s.outside, "secret.txt")}), "outside secret")
	wantOK(t, s.call(t, "read_file", map[string]any{"path": "abs-link"}), "outside secret")
	wantOK(t, s.call(t, "write_file", map[string]any{"path": filepath.Join(s.outside, "new.txt"), "content": "hi"}), "Created")
	wantOK(t, s.call(t, "list_dir", map[string]any{"path": s.outside}), "new.txt")
	if b, err := os.ReadFile(filepath.Join(s.outside, "new.txt")); err != nil || string(b) != "hi" {
		t.Errorf("unrestricted write: %q %v", b, err)
	}
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "/proc/self/environ"}), "device or kernel file")
}

// The folder of spilled results swapped for a symlink (exec can do that):
// the spill is refused with a clear error, nothing is written outside.
func TestSpillRefusesSwappedFolder(t *testing.T) {
	s := newSandbox(t)
	if err := os.MkdirAll(filepath.Join(s.ws, ".hearth"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(s.outside, filepath.Join(s.ws, ".hearth", "results")); err != nil {
		t.Fatal(err)
	}
	_, _, err := Spill(s.ws, "sess", "call-1", strings.Repeat("long line\n", 5000), 1000)
	if err == nil || !strings.Contains(err.Error(), "outside") || !strings.Contains(err.Error(), ".hearth/results") {
		t.Fatalf("spill through a symlink: %v", err)
	}
	if ents, _ := os.ReadDir(s.outside); len(ents) != 1 {
		t.Errorf("outside folder holds %v", ents)
	}
	if errors.Is(err, os.ErrNotExist) {
		t.Errorf("refusal reads as a missing file: %v", err)
	}
}

// An allowed folder that does not exist yet is created by the first write,
// as before; reading from it says the file is missing.
func TestWriteIntoMissingAllowedPath(t *testing.T) {
	s := newSandbox(t)
	s.policy.AllowedPaths = []string{"~/notes"}
	wantErr(t, s.call(t, "read_file", map[string]any{"path": "~/notes/today.md"}), "no such file")
	wantOK(t, s.call(t, "write_file", map[string]any{"path": "~/notes/today.md", "content": "x"}), "Created")
	if b, err := os.ReadFile(filepath.Join(s.home, "notes", "today.md")); err != nil || string(b) != "x" {
		t.Errorf("written %q %v", b, err)
	}
}
