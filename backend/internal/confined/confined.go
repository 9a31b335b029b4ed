// Package confined opens files beneath a directory without ever leaving it:
// every path goes through os.Root (openat, one element at a time, no escape
// through "..", symlinks or a folder swapped for a symlink mid-way), so there
// is no window between checking a path and opening it.
//
// On top of os.Root it refuses what os.Root lets through: devices, pipes and
// sockets (opened non-blocking, so a FIFO cannot hang the caller), files on
// kernel file systems (/proc, /sys), and regular files with more than one
// hard link, whose other names may lie outside the root — unless
// Options.HardLinks allows them. Writes replace a file whole through a
// temporary file and a rename inside the pinned parent folder
// (atomicfile.WriteIn), so a write never modifies an inode another link
// shares and never lands outside. docs/safety.md describes the rules.
package confined

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"hearth/backend/internal/safefile"
)

// Errors a caller can test with errors.Is.
var (
	// ErrOutside: the path leads out of the root (through "..", a symlink,
	// or an absolute symlink to elsewhere).
	ErrOutside = errors.New("leads outside its folder")
	// ErrHardLink: a regular file with more than one hard link.
	ErrHardLink = errors.New("has other hard links")
	// ErrSpecial: a device, pipe, socket or a file on a kernel file system.
	ErrSpecial = errors.New("not a regular file")
	// ErrTooBig: a file over the caller's size limit.
	ErrTooBig = errors.New("too big")
)

// maxLinks bounds how many symlinks a write follows to its target.
const maxLinks = 40

// Options tune what a Root lets through.
type Options struct {
	// HardLinks allows regular files with several links. Off, such a file
	// counts as outside: Hearth cannot tell where its other names are.
	HardLinks bool
}

// Root is an open directory that file access stays beneath. It is safe for
// concurrent use. Names are slash- or OS-separated paths relative to the
// root; "." is the root itself.
type Root struct {
	r    *os.Root
	dir  string // as opened
	real string // dir with symlinks resolved at open time
	opts Options
}

// Open opens dir as a Root.
func Open(dir string, opts Options) (*Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	return &Root{r: r, dir: filepath.Clean(dir), real: real, opts: opts}, nil
}

// Close releases the directory.
func (r *Root) Close() error { return r.r.Close() }

// Dir is the directory as it was opened.
func (r *Root) Dir() string { return r.dir }

// FS is the root as an fs.FS (for fs.WalkDir); it is confined the same way.
func (r *Root) FS() fs.FS { return r.r.FS() }

// Rel turns an absolute path into a name beneath the root, when it lies
// there (lexically, against the root as given or as resolved).
func (r *Root) Rel(abs string) (string, bool) {
	for _, base := range []string{r.dir, r.real} {
		if rel, ok := below(base, filepath.Clean(abs)); ok {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}

// Within reports whether path is root or lies below it, lexically; an empty
// root holds nothing.
func Within(path, root string) bool {
	_, ok := below(root, path)
	return root != "" && ok
}

func below(root, path string) (rel string, ok bool) {
	rel, err := filepath.Rel(root, path)
	return rel, err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// wrap gives os.Root's escape error its meaning and a hint.
func (r *Root) wrap(name string, err error) error {
	if err == nil {
		return nil
	}
	if escapes(err) {
		return fmt.Errorf("%s %w %s (through \"..\" or a symlink); refused", name, ErrOutside, r.dir)
	}
	return err
}

// escapes recognises os.Root's refusal; the os package does not export it.
func escapes(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

func clean(name string) string {
	n := path.Clean(filepath.ToSlash(name))
	if n == "/" || n == "" {
		return "."
	}
	return strings.TrimPrefix(n, "/")
}

// Open opens name for reading: a regular file or a folder beneath the root.
// Devices, pipes, sockets, kernel files and (unless allowed) hard-linked
// files are refused after the open, on the open file itself.
func (r *Root) Open(name string) (*os.File, fs.FileInfo, error) {
	name = clean(name)
	f, err := r.r.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, r.wrap(name, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = r.allowed(name, fi, f)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

func (r *Root) allowed(name string, fi fs.FileInfo, f *os.File) error {
	switch {
	case fi.IsDir():
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is %s: %w", name, safefile.Kind(fi.Mode()), ErrSpecial)
	case !r.opts.HardLinks && links(fi) > 1:
		return fmt.Errorf("%s %w (%d names); a hard-linked file counts as outside, since its other names may be anywhere — copy it instead of linking it: %w",
			name, ErrHardLink, links(fi), ErrOutside)
	}
	if kernelFile(f) {
		return fmt.Errorf("%s is a kernel file (/proc, /sys): %w", name, ErrSpecial)
	}
	return nil
}

// ReadFile reads a whole file of at most limit bytes (0: no limit).
func (r *Root) ReadFile(name string, limit int64) ([]byte, error) {
	f, fi, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a folder, not a file", clean(name))
	}
	if limit > 0 && fi.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes: %w (limit %d)", clean(name), fi.Size(), ErrTooBig, limit)
	}
	var rd io.Reader = f
	if limit > 0 {
		rd = io.LimitReader(f, limit+1)
	}
	b, err := io.ReadAll(rd)
	if err == nil && limit > 0 && int64(len(b)) > limit {
		return nil, fmt.Errorf("%s grew past %d bytes: %w", clean(name), limit, ErrTooBig)
	}
	return b, err
}

// Stat describes name, following symlinks that stay beneath the root.
func (r *Root) Stat(name string) (fs.FileInfo, error) {
	name = clean(name)
	fi, err := r.r.Stat(name)
	return fi, r.wrap(name, err)
}

// Lstat describes name without following a final symlink.
func (r *Root) Lstat(name string) (fs.FileInfo, error) {
	name = clean(name)
	fi, err := r.r.Lstat(name)
	return fi, r.wrap(name, err)
}

// ReadDir lists a folder, sorted by name.
func (r *Root) ReadDir(name string) ([]fs.DirEntry, error) {
	name = clean(name)
	f, fi, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", name)
	}
	return fs.ReadDir(r.r.FS(), name)
}

// MkdirAll creates a folder and its missing parents beneath the root.
func (r *Root) MkdirAll(name string, perm fs.FileMode) error {
	name = clean(name)
	return r.wrap(name, r.r.MkdirAll(name, perm))
}

// RemoveAll deletes a folder tree beneath the root; symlinks in it are
// removed, never followed.
func (r *Root) RemoveAll(name string) error {
	name = clean(name)
	return r.wrap(name, r.r.RemoveAll(name))
}
