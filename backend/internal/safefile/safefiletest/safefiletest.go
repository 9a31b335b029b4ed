// Package safefiletest makes the bad files the readers of Hearth's files must
// refuse at once (tests only).
package safefiletest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Make makes, in dir, the files that once hung or exhausted Hearth: a named
// pipe nobody writes to, a symlink to /dev/zero, a file past the bound (sparse:
// it costs no disk) and a folder.
func Make(t testing.TB, dir string, bound int64) map[string]string {
	t.Helper()
	m := map[string]string{}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	m["fifo"] = fifo
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	m["zero"] = zero
	huge := filepath.Join(dir, "huge")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(bound + 1); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	m["huge"] = huge
	m["folder"] = dir
	return m
}

// Answers fails the test when fn has not returned within 30 s: a reader that
// opens a pipe blocking, or reads /dev/zero, would never return. The bound tells a
// hang from slowness on a loaded machine; how fast bad input is answered (target:
// well under 2 s) is measured by make bench (BenchmarkHugePath).
func Answers(t testing.TB, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: no answer within 30 s: it hangs", what)
	}
}
