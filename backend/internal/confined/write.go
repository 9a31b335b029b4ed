package confined

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/safefile"
)

// WriteOptions tune WriteFile.
type WriteOptions struct {
	// DirMode creates missing parent folders with this mode; 0 creates none.
	DirMode fs.FileMode
	// Check, if set, sees the real path about to be written (taken from the
	// pinned parent folder, not from the name) and may refuse it: a path
	// policy's protected files.
	Check func(real string) error
}

// Written says what WriteFile did.
type Written struct {
	// Name is the file written, beneath the root (after following symlinks).
	Name string
	// Real is its absolute path as the kernel reports it ("" if unknown).
	Real string
	// Existed is set when a file was replaced.
	Existed bool
}

// WriteFile replaces name whole with data: a new file gets perm, an existing
// one keeps its mode. A symlink as the last element is followed while it
// stays beneath the root, as an editor would; a folder, device or (unless
// allowed) a hard-linked file is refused. The parent folder is pinned
// before anything is written and the temporary file and the rename happen
// inside it (atomicfile.WriteIn).
func (r *Root) WriteFile(name string, data []byte, perm fs.FileMode, o WriteOptions) (Written, error) {
	target, err := r.followLinks(clean(name))
	if err != nil {
		return Written{}, err
	}
	dir, base := path.Dir(target), path.Base(target)
	if base == "." || base == ".." {
		return Written{}, fmt.Errorf("%s is a folder, not a file", name)
	}
	if o.DirMode != 0 {
		if err := r.MkdirAll(dir, o.DirMode); err != nil {
			return Written{}, fmt.Errorf("create parent folders: %w", err)
		}
	}
	pd, err := r.r.OpenRoot(dir)
	if err != nil {
		return Written{}, r.wrap(dir, err)
	}
	defer pd.Close()
	w := Written{Name: target}
	d, err := pd.Open(".")
	if err != nil {
		return Written{}, err
	}
	kernel, real := kernelFile(d), realPath(d)
	d.Close()
	if kernel {
		return Written{}, fmt.Errorf("%s is in a kernel file system: %w", dir, ErrSpecial)
	}
	if real != "" {
		w.Real = filepath.Join(real, base)
	}
	fi, err := pd.Lstat(base)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Written{}, err
	case fi.IsDir():
		return Written{}, fmt.Errorf("%s is a directory; give a file path", target)
	case !fi.Mode().IsRegular():
		// A symlink here appeared after followLinks looked: the write
		// would replace it, but the caller judged a different file.
		return Written{}, fmt.Errorf("%s is %s (it changed while being written; try again): %w", target, safefile.Kind(fi.Mode()), ErrSpecial)
	case !r.opts.HardLinks && links(fi) > 1:
		return Written{}, fmt.Errorf("%s %w (%d names); replacing it would split it from its other names, which may be outside — refused: %w",
			target, ErrHardLink, links(fi), ErrOutside)
	default:
		w.Existed, perm = true, fi.Mode().Perm()
	}
	if o.Check != nil && w.Real != "" {
		if err := o.Check(w.Real); err != nil {
			return Written{}, err
		}
	}
	if err := atomicfile.WriteIn(pd, base, data, perm); err != nil {
		return Written{}, err
	}
	return w, nil
}

// CreateExclusive writes a new file only if nothing exists at name: the
// data goes to a synced temporary file in the pinned parent folder, which
// is then hard-linked into place; the link fails if name appeared
// meanwhile. It reports whether it created the file.
func (r *Root) CreateExclusive(name string, data []byte, perm, dirMode fs.FileMode) (bool, error) {
	name = clean(name)
	if _, err := r.r.Lstat(name); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, r.wrap(name, err)
	}
	dir, base := path.Dir(name), path.Base(name)
	if err := r.MkdirAll(dir, dirMode); err != nil {
		return false, err
	}
	pd, err := r.r.OpenRoot(dir)
	if err != nil {
		return false, r.wrap(dir, err)
	}
	defer pd.Close()
	tmp := "." + base + ".new"
	_ = pd.Remove(tmp) // one left by a killed start
	if err := atomicfile.WriteIn(pd, tmp, data, perm); err != nil {
		return false, err
	}
	defer pd.Remove(tmp)
	if err := pd.Link(tmp, base); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		// No hard links on this file system: a checked rename.
		if _, serr := pd.Lstat(base); serr == nil {
			return false, nil
		}
		if err := pd.Rename(tmp, base); err != nil {
			return false, err
		}
	}
	return true, nil
}

// followLinks resolves symlinks at the end of name while they stay beneath
// the root; the folders on the way are resolved by os.Root itself.
func (r *Root) followLinks(name string) (string, error) {
	for range maxLinks {
		fi, err := r.r.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) {
			return name, nil
		}
		if err != nil {
			return "", r.wrap(name, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return name, nil
		}
		t, err := r.r.Readlink(name)
		if err != nil {
			return "", r.wrap(name, err)
		}
		var ok bool
		if filepath.IsAbs(t) {
			if t, ok = r.Rel(t); !ok {
				return "", fmt.Errorf("%s is a symlink that %w %s; refused", name, ErrOutside, r.dir)
			}
		} else {
			t = path.Join(path.Dir(name), filepath.ToSlash(t))
			if t == ".." || len(t) > 2 && t[:3] == "../" {
				return "", fmt.Errorf("%s is a symlink that %w %s; refused", name, ErrOutside, r.dir)
			}
		}
		name = t
	}
	return "", fmt.Errorf("%s: too many levels of symlinks", name)
}
