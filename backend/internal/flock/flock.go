// Package flock takes the advisory locks (flock(2)) by which Hearth's processes — the
// desktop app and CLI commands — take turns at the files they share. Readers that only
// need a whole file take none: every file is replaced by rename.
package flock

import (
	"fmt"
	"os"
)

// File takes an exclusive lock on the lock file at path, creating it 0600, and returns
// the function that releases it. It waits while another process holds it.
func File(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock file: %w", err)
	}
	if err := Lock(f, true); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { _ = f.Close() }, nil // closing releases the lock
}
