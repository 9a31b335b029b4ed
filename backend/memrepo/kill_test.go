package memrepo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A child process commits (and packs) as fast as it can; it is killed (SIGKILL)
// at an arbitrary moment, several times over. Each time the history must open,
// list, show every file of every commit and take a new commit: recovered, never
// a panic and never an error.
func TestSurvivesKill(t *testing.T) {
	if dir := os.Getenv("HEARTH_MEMREPO_CHILD"); dir != "" {
		r := New(dir, nil)
		for i := 0; ; i++ {
			big := strings.Repeat(fmt.Sprintf("[2026-11-25 10:%02d] entry %d\n", i%60, i), 2000)
			if _, err := r.Commit(Change{Author: "child", Message: fmt.Sprint("pass ", i),
				Files: map[string][]byte{"memory/MEMORY.md": []byte(fmt.Sprint("fact ", i)), "memory/HISTORY.md": []byte(big)}}); err != nil {
				fmt.Fprintln(os.Stderr, "child:", err)
				os.Exit(3)
			}
			if i%5 == 4 { // packs too, so that kills land inside packing
				if err := r.Pack(i%15 == 14); err != nil {
					fmt.Fprintln(os.Stderr, "child:", err)
					os.Exit(3)
				}
			}
		}
	}
	if testing.Short() {
		t.Skip("kills a child process several times")
	}
	dir := filepath.Join(t.TempDir(), "memory.git")
	for round, wait := range []time.Duration{30, 75, 120, 5, 200, 350, 160, 90} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSurvivesKill$")
		cmd.Env = append(os.Environ(), "HEARTH_MEMREPO_CHILD="+dir)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(wait * time.Millisecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if strings.Contains(stderr.String(), "child:") || strings.Contains(stderr.String(), "panic") {
			t.Fatalf("round %d: the child failed: %s", round, stderr.String())
		}
		r := New(dir, nil)
		n, _ := r.loose()
		t.Logf("round %d: killed after %v with %d packs and %d loose objects", round, wait*time.Millisecond, len(r.packs()), n)
		log, err := r.Log("", 0)
		if err != nil {
			t.Fatalf("round %d: log after kill: %v", round, err)
		}
		for _, rev := range log { // every version, packed or not, still reads
			for _, f := range rev.Files {
				if _, ok, err := r.Show(rev.Rev, f); err != nil || !ok {
					t.Fatalf("round %d: %s at %s: %v %v", round, f, rev.Rev, ok, err)
				}
			}
		}
		if _, err := r.Commit(Change{Author: "test", Message: "after kill", Files: map[string][]byte{"SOUL.md": []byte(fmt.Sprint(round))}}); err != nil {
			t.Fatalf("round %d: commit after kill: %v", round, err)
		}
	}
}
