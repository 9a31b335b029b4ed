//go:build unix

package config

import (
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock (flock) on path, creating it 0600, and
// returns the function that releases it. Other Hearth processes writing the same file
// wait for it; readers never take it (the rename makes every read see a whole file).
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}
