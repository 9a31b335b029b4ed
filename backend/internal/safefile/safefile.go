// Package safefile reads the files Hearth parses (config.json, session files,
// SKILL.md, jobs.json, memory files) so that bad input answers at once: a file is
// opened non-blocking (a named pipe put in its place cannot hang the open), must be
// a regular file (not a pipe, device or socket: /dev/zero behind a symlink is
// refused, not read forever) and may not be larger than the caller's bound (a
// 10 GB file is refused before it is read). The errors say what the file is and
// what to do.
package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Errors the callers may test for.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("file too large")
)

// Open opens path for reading, non-blocking, and checks that it is a regular file
// of at most max bytes (max <= 0: no bound). The caller closes the file.
func Open(path string, max int64) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	if err := Check(path, fi, max); err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// Check says why fi (the file at path) may not be read: not a regular file, or
// larger than max bytes (max <= 0: no bound).
func Check(path string, fi fs.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return &os.PathError{Op: "read", Path: path,
			Err: fmt.Errorf("%w (%s) (hint: put a plain file there or remove it)", ErrNotRegular, Kind(fi.Mode()))}
	}
	if max > 0 && fi.Size() > max {
		return &os.PathError{Op: "read", Path: path,
			Err: fmt.Errorf("%w: %d bytes, at most %d are read (hint: shorten it or move it away)", ErrTooLarge, fi.Size(), max)}
	}
	return nil
}

// ReadFile reads the whole of path under Open's rules. A file that grows past max
// while it is read is refused too.
func ReadFile(path string, max int64) ([]byte, error) {
	f, fi, err := Open(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := io.Reader(f)
	if max > 0 {
		r = io.LimitReader(f, max+1)
	}
	var b bytes.Buffer
	b.Grow(int(fi.Size()) + bytes.MinRead) // one allocation unless the file grows
	if _, err := b.ReadFrom(r); err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	buf := b.Bytes()
	if max > 0 && int64(len(buf)) > max {
		return nil, &os.PathError{Op: "read", Path: path,
			Err: fmt.Errorf("%w: grew past %d bytes while read (hint: shorten it or move it away)", ErrTooLarge, max)}
	}
	return buf, nil
}

// Kind names what a file that is not a regular file is, with its article ("a named
// pipe"), for the errors that refuse it.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return "a special file"
}
