package nofollow

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"golang.org/x/sys/unix"
)

// Copied is what CopyTree did: the files it copied and, by relative path, what
// it left behind (links, pipes, devices, sockets — never followed nor read).
type Copied struct {
	Files   int
	Bytes   int64
	Skipped []string
}

// CopyTree copies the folder src (opened by OpenDir) into dst, which must not
// exist yet: folders and regular files only, each reached without following a
// link; anything else is listed in Skipped. A file over maxFile bytes or a
// total over maxTotal fails the copy (the caller removes dst).
func CopyTree(src *os.File, dst string, maxFile, maxTotal int64) (Copied, error) {
	var c Copied
	if err := os.Mkdir(dst, 0o700); err != nil {
		return c, err
	}
	err := copyDir(src, dst, "", maxFile, maxTotal, &c)
	sort.Strings(c.Skipped)
	return c, err
}

func copyDir(src *os.File, dst, rel string, maxFile, maxTotal int64, c *Copied) error {
	ents, err := src.ReadDir(-1)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		r := path.Join(rel, name)
		m, _, err := Lstat(src, name)
		if err != nil {
			return err
		}
		switch {
		case m.IsDir():
			fd, err := unix.Openat(int(src.Fd()), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
			if err != nil {
				if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
					c.Skipped = append(c.Skipped, r) // swapped for a link meanwhile
					continue
				}
				return pathErr(filepath.Join(src.Name(), name), err)
			}
			sub := os.NewFile(uintptr(fd), filepath.Join(src.Name(), name))
			d := filepath.Join(dst, name)
			err = os.Mkdir(d, 0o700)
			if err == nil {
				err = copyDir(sub, d, r, maxFile, maxTotal, c)
			}
			_ = sub.Close()
			if err != nil {
				return err
			}
		case m.IsRegular():
			if err := copyFile(src, name, filepath.Join(dst, name), r, maxFile, maxTotal, c); err != nil {
				return err
			}
		default:
			c.Skipped = append(c.Skipped, r)
		}
	}
	return nil
}

func copyFile(src *os.File, name, to, rel string, maxFile, maxTotal int64, c *Copied) error {
	f, fi, err := OpenFileIn(src, name, maxFile)
	if errors.Is(err, ErrLink) || errors.Is(err, ErrSpecial) {
		c.Skipped = append(c.Skipped, rel) // swapped meanwhile
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if maxTotal > 0 && c.Bytes+fi.Size() > maxTotal {
		return fmt.Errorf("%s: %w: more than %d bytes in all", rel, ErrTooBig, maxTotal)
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	r := io.Reader(f)
	if maxFile > 0 {
		r = io.LimitReader(f, maxFile+1)
	}
	n, err := io.Copy(out, r)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && maxFile > 0 && n > maxFile {
		err = fmt.Errorf("%s: %w: grew past %d bytes while copied", rel, ErrTooBig, maxFile)
	}
	c.Files++
	c.Bytes += n
	return err
}

// Exists reports whether dir has an element name (of any kind, not followed).
func Exists(dir *os.File, name string) (fs.FileMode, bool) {
	m, _, err := Lstat(dir, name)
	return m, err == nil
}
