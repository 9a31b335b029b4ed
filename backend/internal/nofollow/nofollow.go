// Package nofollow opens paths below a trusted folder without following a
// symlink at any level: each element is opened with openat(2) and O_NOFOLLOW
// from the folder opened before it, so a folder swapped for a link (by a
// command, between a check and the open, or long before) is refused, not
// entered. Files are opened non-blocking and must be regular and within a size
// bound, so a named pipe cannot hang the reader and /dev/zero cannot fill its
// memory. Hearth uses it for what it reads in folders a command could have
// written: the old .hearth folder of a workspace it migrates, and its own state.
package nofollow

import (
	"hearth/backend/internal/safefile"

	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Errors a caller can test with errors.Is.
var (
	// ErrLink: a symlink where a folder or file was expected.
	ErrLink = errors.New("is a symlink, which Hearth does not follow")
	// ErrSpecial: a pipe, device, socket, or a folder where a file was expected.
	ErrSpecial = errors.New("is not a regular file")
	// ErrTooBig: a file over the caller's bound.
	ErrTooBig = errors.New("is too big")
)

// splitRel cleans rel (slash-separated, relative) into its elements; "" and "."
// are none.
func splitRel(rel string) ([]string, error) {
	rel = filepath.ToSlash(rel)
	if rel == "" || rel == "." {
		return nil, nil
	}
	if strings.HasPrefix(rel, "/") {
		return nil, fmt.Errorf("%s: not a relative path", rel)
	}
	parts := strings.Split(rel, "/")
	out := parts[:0]
	for _, p := range parts {
		switch p {
		case "", ".":
			continue
		case "..":
			return nil, fmt.Errorf("%s: leads out of its folder", rel)
		}
		out = append(out, p)
	}
	return out, nil
}

// OpenDir opens the folder rel below base. base itself is trusted and may be
// reached through links (a home folder on another disk); no element of rel may
// be a link. The caller closes the folder.
func OpenDir(base, rel string) (*os.File, error) {
	parts, err := splitRel(rel)
	if err != nil {
		return nil, err
	}
	fd, err := unix.Open(base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: base, Err: err}
	}
	at := base
	for _, p := range parts {
		at = filepath.Join(at, p)
		next, err := unix.Openat(fd, p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		_ = unix.Close(fd)
		if err != nil {
			return nil, pathErr(at, err)
		}
		fd = next
	}
	return os.NewFile(uintptr(fd), at), nil
}

// pathErr names what openat with O_NOFOLLOW refused: ELOOP (a link at the
// last element) and ENOTDIR (a link or file where a folder was wanted) say it
// plainly.
func pathErr(path string, err error) error {
	switch {
	case errors.Is(err, unix.ELOOP):
		return &os.PathError{Op: "open", Path: path, Err: ErrLink}
	case errors.Is(err, unix.ENOTDIR):
		var st unix.Stat_t
		if unix.Lstat(path, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return &os.PathError{Op: "open", Path: path, Err: ErrLink}
		}
		return &os.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (a folder was expected)", ErrSpecial)}
	}
	return &os.PathError{Op: "open", Path: path, Err: err}
}

// OpenFileIn opens the regular file name (one element) in dir for reading,
// non-blocking and without following a link, and checks its size against max
// (max <= 0: no bound).
func OpenFileIn(dir *os.File, name string, max int64) (*os.File, fs.FileInfo, error) {
	path := filepath.Join(dir.Name(), name)
	fd, err := unix.Openat(int(dir.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, pathErr(path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	fi, err := f.Stat()
	if err == nil {
		err = Check(path, fi, max)
	}
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// Check says why fi may not be read: not a regular file, or over max bytes.
func Check(path string, fi fs.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrSpecial, kind(fi.Mode()))}
	}
	if max > 0 && fi.Size() > max {
		return &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: %d bytes, at most %d are read", ErrTooBig, fi.Size(), max)}
	}
	return nil
}

// ReadFile reads the regular file rel below base under OpenDir's and
// OpenFileIn's rules; a file that grows past max while read is refused too.
func ReadFile(base, rel string, max int64) ([]byte, error) {
	dir, name := filepath.Split(filepath.Clean(filepath.FromSlash(rel)))
	d, err := OpenDir(base, dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, _, err := OpenFileIn(d, name, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAllFrom(f, max)
}

// ReadAllFrom reads f (opened by OpenFileIn) whole, refusing it past max bytes.
func ReadAllFrom(f *os.File, max int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	r := io.Reader(f)
	if max > 0 {
		r = io.LimitReader(f, max+1)
	}
	var b bytes.Buffer
	b.Grow(int(fi.Size()) + bytes.MinRead)
	if _, err := b.ReadFrom(r); err != nil {
		return nil, &os.PathError{Op: "read", Path: f.Name(), Err: err}
	}
	if max > 0 && int64(b.Len()) > max {
		return nil, &os.PathError{Op: "read", Path: f.Name(), Err: fmt.Errorf("%w: grew past %d bytes while read", ErrTooBig, max)}
	}
	return b.Bytes(), nil
}

// Lstat describes the element name of dir without following it.
func Lstat(dir *os.File, name string) (fs.FileMode, int64, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(int(dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, 0, &os.PathError{Op: "lstat", Path: filepath.Join(dir.Name(), name), Err: err}
	}
	return mode(st.Mode), st.Size, nil
}

func mode(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	}
	return fs.ModeDevice
}

// kind names a mode that is not a regular file ("a named pipe"), as safefile's
// refusals do.
func kind(m fs.FileMode) string { return safefile.Kind(m) }

// Rename renames old to new inside dir: a link named old is renamed itself,
// never what it points at.
func Rename(dir *os.File, old, new string) error {
	if err := unix.Renameat(int(dir.Fd()), old, int(dir.Fd()), new); err != nil {
		return &os.LinkError{Op: "rename", Old: filepath.Join(dir.Name(), old), New: filepath.Join(dir.Name(), new), Err: err}
	}
	return nil
}

// StatIn describes the element name of dir without following it.
func StatIn(dir *os.File, name string) (fs.FileInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(int(dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, &os.PathError{Op: "lstat", Path: filepath.Join(dir.Name(), name), Err: err}
	}
	return &info{name: name, st: st}, nil
}

type info struct {
	name string
	st   unix.Stat_t
}

func (i *info) Name() string       { return i.name }
func (i *info) Size() int64        { return i.st.Size }
func (i *info) Mode() fs.FileMode  { return mode(i.st.Mode) | fs.FileMode(i.st.Mode&0o777) }
func (i *info) ModTime() time.Time { return time.Unix(i.st.Mtim.Unix()) }
func (i *info) IsDir() bool        { return i.Mode().IsDir() }
func (i *info) Sys() any           { return &i.st }

// OpenDirIn opens the folder name (one element) of dir without following a link.
func OpenDirIn(dir *os.File, name string) (*os.File, error) {
	path := filepath.Join(dir.Name(), name)
	fd, err := unix.Openat(int(dir.Fd()), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, pathErr(path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}
