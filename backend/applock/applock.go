// Package applock holds hearth.lock: the advisory lock that marks the one desktop process
// allowed to run background work (scheduler, heartbeat). It also backs up Wails' D-Bus
// single-instance check on desktops without a session bus.
package applock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrHeld means another live process holds the lock.
var ErrHeld = errors.New("hearth is already running")

// Lock is a held hearth.lock. The kernel drops it when the process exits, even on a crash,
// so a stale file never blocks the next start.
type Lock struct {
	f    *os.File
	path string
}

// Acquire takes the lock at path without waiting. When another process holds it the
// error wraps ErrHeld and names that process's pid when known.
func Acquire(path string) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w (pid %s holds %s)", ErrHeld, Holder(path), path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// The pid is informational only (for messages); the flock is the truth.
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return &Lock{f: f, path: path}, nil
}

// Holder returns the pid written in the lock file, or "unknown".
func Holder(path string) string {
	data, err := os.ReadFile(path)
	if err != nil || len(strings.TrimSpace(string(data))) == 0 {
		return "unknown"
	}
	return strings.TrimSpace(string(data))
}

// Release drops the lock. Safe to call on nil and more than once.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the descriptor releases the flock
	l.f = nil
	return err
}
