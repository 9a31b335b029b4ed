//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package memory

import (
	"errors"
	"os"
	"syscall"
)

// flock takes an exclusive advisory lock on f, so the desktop app and a CLI
// command never interleave their writes of the same memory file.
func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
