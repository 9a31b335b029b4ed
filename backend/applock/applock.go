// Package applock holds hearth.lock: the advisory lock that marks the one process allowed
// to run background work (scheduler, heartbeat, Dream, channels) on a data folder — the
// desktop app or `hearth serve`. The holder writes who it is into the file (holder.go),
// so a second start can say who runs. It also backs up Wails' D-Bus single-instance check
// on desktops without a session bus.
package applock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ErrHeld means another live process holds the lock.
var ErrHeld = errors.New("hearth is already running")

// HeldError is the lock refused: who holds it, as the holder wrote itself into the file
// (a zero Holder when it could not be read). It matches ErrHeld with errors.Is.
type HeldError struct {
	Path   string
	Holder Holder
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("%v (%s holds %s)", ErrHeld, e.Holder, e.Path)
}

// Is makes errors.Is(err, ErrHeld) true.
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// Lock is a held hearth.lock. The kernel drops it when the process exits, even on a crash,
// so a stale file never blocks the next start.
type Lock struct {
	f    *os.File
	path string
}

// Acquire takes the lock for the desktop app (see AcquireAs).
func Acquire(path string) (*Lock, error) { return AcquireAs(path, KindDesktop) }

// busyTries and busyPause cover `hearth status` probing the lock (Probe holds a shared
// lock for a moment): a start that meets only the probe waits it out instead of failing.
const (
	busyTries = 5
	busyPause = 20 * time.Millisecond
)

// AcquireAs takes the lock at path without waiting and records kind, this pid and the
// time in it. When another process holds it the error is a *HeldError naming the holder.
// A symlink, FIFO or anything but a regular file at path is refused, never followed.
func AcquireAs(path string, kind Kind) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f, err := openLockFile(path, os.O_RDWR|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	for try := 1; ; try++ {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) || try == busyTries {
			break
		}
		time.Sleep(busyPause)
	}
	if err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			h, _ := settledHolder(f)
			return nil, &HeldError{Path: path, Holder: h}
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// Who holds it is informational (messages, `hearth status`); the flock is the truth.
	_ = writeHolder(f, Holder{Kind: kind, PID: os.Getpid(), Since: time.Now().UTC().Truncate(time.Second)})
	return &Lock{f: f, path: path}, nil
}

// openLockFile opens path without following a symlink or blocking on a FIFO, and only
// when it is a regular file.
func openLockFile(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("lock %s is a symbolic link: remove it (Hearth makes its own lock file)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("lock %s is not a regular file (%s): remove it (Hearth makes its own lock file)", path, fi.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Probe reports whether a process holds the lock at path and who, without taking it
// (a shared lock for a moment; AcquireAs waits such a moment out). A missing file is
// nobody.
func Probe(path string) (Holder, bool, error) {
	f, err := openLockFile(path, os.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) {
		return Holder{}, false, nil
	}
	if err != nil {
		return Holder{}, false, err
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return Holder{}, false, nil
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return Holder{}, false, fmt.Errorf("lock %s: %w", path, err)
	}
	h, err := settledHolder(f)
	return h, true, err
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
