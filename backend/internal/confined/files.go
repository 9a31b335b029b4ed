package confined

import (
	"fmt"
	"io/fs"
	"path/filepath"
)

// Files reads files beneath Dir for callers that name files by OS path (the
// system prompt's builder): each call opens Dir as a Root, so a persona or
// memory file that is a symlink to outside the workspace, or a hard link,
// reads as an error instead of as the other file's content.
type Files struct {
	Dir  string
	Opts Options
}

func (f Files) open(name string) (*Root, string, error) {
	r, err := Open(f.Dir, f.Opts)
	if err != nil {
		return nil, "", err
	}
	rel := name
	if filepath.IsAbs(name) {
		var ok bool
		if rel, ok = r.Rel(name); !ok {
			r.Close()
			return nil, "", fmt.Errorf("%s %w %s", name, ErrOutside, f.Dir)
		}
	}
	return r, rel, nil
}

// Stat describes name (absolute, or relative to Dir).
func (f Files) Stat(name string) (fs.FileInfo, error) {
	r, rel, err := f.open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Stat(rel)
}

// ReadFile reads name (absolute, or relative to Dir) whole.
func (f Files) ReadFile(name string) ([]byte, error) {
	r, rel, err := f.open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadFile(rel, 0)
}
