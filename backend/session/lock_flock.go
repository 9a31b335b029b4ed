//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package session

import (
	"errors"
	"os"
	"syscall"
)

// flock takes an advisory lock on f: exclusive for writers, shared for
// readers. It blocks until the lock is free. The lock belongs to the open file
// description, so two opens in one process exclude each other like two
// processes do.
func flock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

func funlock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
