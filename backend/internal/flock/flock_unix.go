//go:build unix

package flock

import (
	"errors"
	"os"
	"syscall"
)

// Lock takes an advisory lock on f: exclusive for writers, shared for readers. It
// blocks until the lock is free. The lock belongs to the open file description, so two
// opens in one process exclude each other as two processes do; closing f releases it.
func Lock(f *os.File, exclusive bool) error {
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

// Unlock releases f's lock and leaves f open.
func Unlock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
