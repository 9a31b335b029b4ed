//go:build unix

package flock

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// tryExclusive reports whether an exclusive lock on a fresh open of path is free now.
func tryExclusive(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err != nil && !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Fatal(err)
	}
	return err == nil
}

// A lock file is created 0600 and held until released, also against other opens in
// the same process.
func TestFileHoldsUntilReleased(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.lock")
	release, err := File(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("lock file: %v %v", fi, err)
	}
	if tryExclusive(t, p) {
		t.Error("the lock is free while held")
	}
	release()
	if !tryExclusive(t, p) {
		t.Error("the lock is still held after release")
	}
	if _, err := File(filepath.Join(t.TempDir(), "no", "x.lock")); err == nil {
		t.Error("no error for a lock file in a missing folder")
	}
}

// Readers share; a reader keeps a writer out until it unlocks.
func TestSharedAndExclusive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r1, _ := os.Open(p)
	defer r1.Close()
	r2, _ := os.Open(p)
	defer r2.Close()
	if err := Lock(r1, false); err != nil {
		t.Fatal(err)
	}
	if err := Lock(r2, false); err != nil {
		t.Fatal(err)
	}
	if tryExclusive(t, p) {
		t.Error("a writer got in beside two readers")
	}
	if err := Unlock(r1); err != nil {
		t.Fatal(err)
	}
	if err := Unlock(r2); err != nil {
		t.Fatal(err)
	}
	if !tryExclusive(t, p) {
		t.Error("the lock is still held after both readers unlocked")
	}
}
