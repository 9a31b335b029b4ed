package memrepo

import (
	"bufio"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-git/go-billy/v5"

	"hearth/backend/internal/flock"
	"hearth/backend/internal/nofollow"
)

// The history's files are read and written only through guardFS: below the
// folder holding the repository, every path is walked element by element
// without following a link (the repository folder itself included), files are
// opened non-blocking and must be regular, small files (refs, config) are size
// checked, and a loose object is refused before go-git inflates it when it
// would inflate past maxObject. So a history that was tampered with — a link
// to ~/.ssh as objects, a named pipe as the branch, /dev/zero as config, an
// object that inflates to gigabytes — answers with an error, never by writing
// elsewhere, hanging or running out of memory.

// maxObject bounds an object's inflated size: memory files are text of a few
// megabytes at most (docs/memory.md).
const maxObject = 64 << 20

// maxSmall bounds what is read whole that is not an object: refs, HEAD, config.
const maxSmall = 1 << 20

// ErrObjectTooBig is an object of the history over maxObject.
var ErrObjectTooBig = errors.New("object of the memory history too big")

var looseRe = regexp.MustCompile(`^objects/[0-9a-f]{2}/[0-9a-f]{38}$`)

// guardFS is a billy.Filesystem over the folder prefix below base. base is
// trusted (Hearth's data folder); nothing from prefix on is followed.
type guardFS struct {
	base      string
	prefix    string
	maxObject int64 // maxObject, smaller in tests
}

func newGuardFS(dir string) *guardFS {
	return &guardFS{base: filepath.Dir(dir), prefix: filepath.Base(dir), maxObject: maxObject}
}

// rel is name below base, cleaned; names leading out are refused.
func (g *guardFS) rel(name string) (string, error) {
	name = filepath.ToSlash(name)
	if strings.HasPrefix(name, "/") {
		// go-git hands back paths it built with Join: absolute ones are ours.
		full := filepath.ToSlash(filepath.Join(g.base, g.prefix))
		r, ok := strings.CutPrefix(name, full)
		if !ok {
			return "", fmt.Errorf("%s: outside the memory history", name)
		}
		name = strings.TrimPrefix(r, "/")
	}
	c := path.Clean("/" + name)[1:]
	return path.Join(g.prefix, c), nil
}

// parent opens the folder holding name (creating it when create) and returns
// it with name's last element.
func (g *guardFS) parent(name string, create bool) (*os.File, string, error) {
	r, err := g.rel(name)
	if err != nil {
		return nil, "", err
	}
	dir, base := path.Split(r)
	if base == "" {
		return nil, "", fmt.Errorf("%s: not a file", name)
	}
	var d *os.File
	if create {
		d, err = nofollow.MkdirAll(g.base, dir, 0o700)
	} else {
		d, err = nofollow.OpenDir(g.base, dir)
	}
	return d, base, err
}

func (g *guardFS) Create(name string) (billy.File, error) {
	return g.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
}

func (g *guardFS) Open(name string) (billy.File, error) { return g.OpenFile(name, os.O_RDONLY, 0) }

func (g *guardFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	r, err := g.rel(name)
	if err != nil {
		return nil, err
	}
	inRepo := strings.TrimPrefix(strings.TrimPrefix(r, g.prefix), "/")
	if inRepo == "objects/info/alternates" || inRepo == "objects/info/http-alternates" {
		// Objects borrowed from another repository would be read from outside.
		return nil, &os.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	d, base, err := g.parent(name, flag&os.O_CREATE != 0)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, err := nofollow.OpenIn(d, base, flag, perm)
	if err != nil {
		return nil, err
	}
	gf := &guardFile{File: f, name: name}
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		if err := g.checkRead(gf, inRepo); err != nil {
			f.Close()
			return nil, err
		}
	}
	return gf, nil
}

// checkRead bounds what is read: a loose object by its inflated size (checked
// at the first read: go-git opens objects also only to see that they exist),
// packs by nothing here (go-git reads them piecewise), every other file by
// maxSmall.
func (g *guardFS) checkRead(gf *guardFile, inRepo string) error {
	f := gf.File
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	switch {
	case looseRe.MatchString(inRepo):
		if fi.Size() > g.maxObject {
			return fmt.Errorf("%s: %w (%d bytes compressed; hint: move the history folder aside, Hearth starts a new one)", inRepo, ErrObjectTooBig, fi.Size())
		}
		max := g.maxObject
		gf.check = func() error { return checkLoose(f, inRepo, max) }
		return nil
	case strings.HasPrefix(inRepo, "objects/pack/"):
		return nil
	case fi.Size() > maxSmall:
		return fmt.Errorf("%s: %w: %d bytes, at most %d are read (hint: move the history folder aside, Hearth starts a new one)", inRepo, nofollow.ErrTooBig, fi.Size(), maxSmall)
	}
	return nil
}

// checkLoose inflates a loose object once, counting, before go-git reads it
// for real: neither its header's size nor what it really inflates to may pass
// maxObject.
func checkLoose(f *os.File, name string, max int64) error {
	z, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil // not zlib: go-git says so in its own words
	}
	defer z.Close()
	br := bufio.NewReaderSize(z, 64)
	hdr, err := br.ReadSlice(0)
	if err != nil {
		return nil
	}
	if _, s, ok := strings.Cut(strings.TrimSuffix(string(hdr), "\x00"), " "); ok {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > max {
			return fmt.Errorf("%s: %w: it says it holds %d bytes, at most %d are read (hint: move the history folder aside, Hearth starts a new one)", name, ErrObjectTooBig, n, max)
		}
	}
	n, _ := io.Copy(io.Discard, io.LimitReader(br, max+1))
	if n > max {
		return fmt.Errorf("%s: %w: it inflates past %d bytes (hint: move the history folder aside, Hearth starts a new one)", name, ErrObjectTooBig, max)
	}
	_, err = f.Seek(0, io.SeekStart)
	return err
}

func (g *guardFS) Stat(name string) (os.FileInfo, error) {
	fi, err := g.Lstat(name)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &os.PathError{Op: "stat", Path: name, Err: nofollow.ErrLink}
	}
	return fi, err
}

func (g *guardFS) Lstat(name string) (os.FileInfo, error) {
	r, err := g.rel(name)
	if err != nil {
		return nil, err
	}
	if r == g.prefix {
		d, err := nofollow.OpenDir(g.base, r)
		if err != nil {
			return nil, err
		}
		defer d.Close()
		return d.Stat()
	}
	d, base, err := g.parent(name, false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return nofollow.StatIn(d, base)
}

func (g *guardFS) Rename(from, to string) error {
	fd, fb, err := g.parent(from, false)
	if err != nil {
		return err
	}
	defer fd.Close()
	td, tb, err := g.parent(to, true)
	if err != nil {
		return err
	}
	defer td.Close()
	return nofollow.RenameAcross(fd, fb, td, tb)
}

func (g *guardFS) Remove(name string) error {
	d, base, err := g.parent(name, false)
	if err != nil {
		return err
	}
	defer d.Close()
	return nofollow.Remove(d, base)
}

func (g *guardFS) Join(elem ...string) string { return path.Join(elem...) }

func (g *guardFS) TempFile(dir, prefix string) (billy.File, error) {
	for range 100 {
		name := path.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := g.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("%s: no free temporary name", dir)
}

func (g *guardFS) ReadDir(name string) ([]os.FileInfo, error) {
	r, err := g.rel(name)
	if err != nil {
		return nil, err
	}
	d, err := nofollow.OpenDir(g.base, r)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdir(-1)
}

func (g *guardFS) MkdirAll(name string, perm os.FileMode) error {
	r, err := g.rel(name)
	if err != nil {
		return err
	}
	d, err := nofollow.MkdirAll(g.base, r, 0o700)
	if err == nil {
		d.Close()
	}
	return err
}

func (g *guardFS) Symlink(target, link string) error {
	return fmt.Errorf("%s: the memory history has no links", link)
}

func (g *guardFS) Readlink(link string) (string, error) {
	return "", fmt.Errorf("%s: the memory history has no links", link)
}

func (g *guardFS) Chroot(p string) (billy.Filesystem, error) {
	r, err := g.rel(p)
	if err != nil {
		return nil, err
	}
	d, err := nofollow.OpenDir(g.base, r)
	if err != nil {
		return nil, err
	}
	d.Close()
	return &guardFS{base: g.base, prefix: r, maxObject: g.maxObject}, nil
}

func (g *guardFS) Root() string { return filepath.Join(g.base, g.prefix) }

func (g *guardFS) Capabilities() billy.Capability { return billy.DefaultCapabilities }

// readSmall reads a small file of the history (refs, config) under guardFS's rules.
func (g *guardFS) readSmall(name string) ([]byte, error) {
	f, err := g.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxSmall+1))
}

// writeFile replaces name whole (a temporary file renamed into place).
func (g *guardFS) writeFile(name string, data []byte) error {
	d, base, err := g.parent(name, true)
	if err != nil {
		return err
	}
	defer d.Close()
	return nofollow.WriteFileIn(d, base, data, 0o600)
}

// lock takes the history's lock file, a regular file reached without a link.
func (g *guardFS) lock(name string) (func(), error) {
	d, base, err := g.parent(name, true)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, err := nofollow.OpenIn(d, base, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := flock.Lock(f, true); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// guardFile is an open file of the history; Lock and Unlock are flock's.
type guardFile struct {
	*os.File
	name  string
	check func() error // before the first read, when not nil
}

func (f *guardFile) checked() error {
	if f.check == nil {
		return nil
	}
	err := f.check()
	if err == nil {
		f.check = nil
	}
	return err
}

func (f *guardFile) Read(p []byte) (int, error) {
	if err := f.checked(); err != nil {
		return 0, err
	}
	return f.File.Read(p)
}

func (f *guardFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.checked(); err != nil {
		return 0, err
	}
	return f.File.ReadAt(p, off)
}

func (f *guardFile) Name() string  { return f.name }
func (f *guardFile) Lock() error   { return flock.Lock(f.File, true) }
func (f *guardFile) Unlock() error { return flock.Unlock(f.File) }
