package nofollow

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"math/rand/v2"

	"golang.org/x/sys/unix"
)

// MkdirAll creates the folder rel below base (mode perm) and returns it open;
// an element that exists as a link or a file is refused, not followed.
func MkdirAll(base, rel string, perm fs.FileMode) (*os.File, error) {
	parts, err := splitRel(rel)
	if err != nil {
		return nil, err
	}
	d, err := OpenDir(base, "")
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		if err := unix.Mkdirat(int(d.Fd()), p, uint32(perm.Perm())); err != nil && !errors.Is(err, unix.EEXIST) {
			_ = d.Close()
			return nil, &os.PathError{Op: "mkdir", Path: filepath.Join(d.Name(), p), Err: err}
		}
		next, err := unix.Openat(int(d.Fd()), p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		name := filepath.Join(d.Name(), p)
		_ = d.Close()
		if err != nil {
			return nil, pathErr(name, err)
		}
		d = os.NewFile(uintptr(next), name)
	}
	return d, nil
}

// OpenIn opens name (one element) in dir with flag, never following a link and
// never blocking on a pipe; what it opens must be a regular file.
func OpenIn(dir *os.File, name string, flag int, perm fs.FileMode) (*os.File, error) {
	path := filepath.Join(dir.Name(), name)
	fd, err := unix.Openat(int(dir.Fd()), name, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, uint32(perm.Perm()))
	if err != nil {
		return nil, pathErr(path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	fi, err := f.Stat()
	if err == nil {
		err = Check(path, fi, 0)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// WriteFileIn replaces name in dir with data (mode perm) through a temporary
// file renamed into place: a link named name is replaced, never followed.
func WriteFileIn(dir *os.File, name string, data []byte, perm fs.FileMode) (err error) {
	var f *os.File
	var tmp string
	for range 100 {
		tmp = "." + name + ".tmp-" + strconv.FormatUint(rand.Uint64(), 36)
		f, err = OpenIn(dir, tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = unix.Unlinkat(int(dir.Fd()), tmp, 0)
		}
	}()
	if _, err = f.Write(data); err == nil {
		err = f.Chmod(perm)
	}
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err = Rename(dir, tmp, name); err != nil {
		return err
	}
	_ = dir.Sync()
	return nil
}

// Remove removes the element name of dir — a file, a link (itself, not its
// target) or an empty folder.
func Remove(dir *os.File, name string) error {
	err := unix.Unlinkat(int(dir.Fd()), name, 0)
	if errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EPERM) {
		err = unix.Unlinkat(int(dir.Fd()), name, unix.AT_REMOVEDIR)
	}
	if err != nil {
		return &os.PathError{Op: "remove", Path: filepath.Join(dir.Name(), name), Err: err}
	}
	return nil
}

// RemoveRegular removes name from dir only when it is a regular file: the
// clean-ups of Hearth's own temporary files never remove anything else.
func RemoveRegular(dir *os.File, name string) error {
	m, _, err := Lstat(dir, name)
	if err != nil {
		return err
	}
	if !m.IsRegular() {
		return &os.PathError{Op: "remove", Path: filepath.Join(dir.Name(), name), Err: ErrSpecial}
	}
	return Remove(dir, name)
}

// RenameAcross renames from in fromDir to to in toDir; links are renamed
// themselves, never followed.
func RenameAcross(fromDir *os.File, from string, toDir *os.File, to string) error {
	if err := unix.Renameat(int(fromDir.Fd()), from, int(toDir.Fd()), to); err != nil {
		return &os.LinkError{Op: "rename", Old: filepath.Join(fromDir.Name(), from), New: filepath.Join(toDir.Name(), to), Err: err}
	}
	return nil
}
