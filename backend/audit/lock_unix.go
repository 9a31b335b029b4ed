//go:build unix

package audit

import (
	"os"
	"syscall"
)

// lock takes an advisory exclusive lock on f (another process may append to
// the same day's file); it returns the unlock.
func lock(f *os.File) func() {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return func() {}
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
}
