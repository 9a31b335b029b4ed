package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"hearth/backend/internal/confined"
)

// access opens the paths of one tool call. Policy.resolve judges a path and
// gives the clear message; the open itself goes through a confined root (the
// workspace, each allowed path, or "/" when unrestricted), so a folder
// swapped for a symlink between the judgement and the open cannot carry the
// call outside: there is no window to race. docs/safety.md has the rules.
type access struct {
	p     *Policy
	roots map[string]*confined.Root
}

func (p *Policy) access() *access {
	return &access{p: p, roots: map[string]*confined.Root{}}
}

func (a *access) close() {
	for _, r := range a.roots {
		r.Close()
	}
}

// rootOf is the root a resolved path lies in: the innermost of the
// workspace and the allowed paths, or "/" when unrestricted.
func (p *Policy) rootOf(abs string) string {
	best := ""
	for _, r := range p.roots() {
		if confined.Within(abs, r) && len(r) > len(best) {
			best = r
		}
	}
	if best == "" && p.Unrestricted {
		best = string(filepath.Separator)
	}
	return best
}

// at judges path and returns its root and its name beneath it.
func (a *access) at(path string, write bool) (*confined.Root, string, string, error) {
	abs, err := a.p.resolve(path, write)
	if err != nil {
		return nil, "", "", err
	}
	dir := a.p.rootOf(abs)
	if dir == "" {
		return nil, "", "", fmt.Errorf("%q resolves to %s, %w; use a path inside the workspace", path, abs, ErrOutsideWorkspace)
	}
	r := a.roots[dir]
	if r == nil && write {
		// A configured folder that does not exist yet is created by the
		// first write into it, as any missing parent folder is.
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, "", "", fmt.Errorf("create %s: %w", dir, err)
			}
		}
	}
	if r == nil {
		// Hard links are Hearth's business only while it confines the
		// tools; unrestricted, any file may be read anyway.
		if r, err = confined.Open(dir, confined.Options{HardLinks: a.p.Unrestricted}); err != nil {
			return nil, "", "", fmt.Errorf("open %s: %w", dir, err)
		}
		a.roots[dir] = r
	}
	rel, ok := r.Rel(abs)
	if !ok {
		return nil, "", "", fmt.Errorf("%q resolves to %s, %w", path, abs, ErrOutsideWorkspace)
	}
	return r, rel, abs, nil
}

// why gives a confined error the policy's meaning.
func (a *access) why(path string, err error) error {
	switch {
	case errors.Is(err, confined.ErrOutside):
		return fmt.Errorf("%q: %w (%v)", path, ErrOutsideWorkspace, err)
	case errors.Is(err, confined.ErrSpecial):
		return fmt.Errorf("%q: %w (%v)", path, ErrDevice, err)
	}
	return err
}

// open opens a file or folder for reading.
func (a *access) open(path string) (*os.File, fs.FileInfo, string, error) {
	r, rel, abs, err := a.at(path, false)
	if err != nil {
		return nil, nil, "", err
	}
	f, fi, err := r.Open(rel)
	if err != nil {
		return nil, nil, abs, a.why(path, err)
	}
	return f, fi, abs, nil
}

// readFile reads a whole file of at most limit bytes.
func (a *access) readFile(path string, limit int64) ([]byte, string, error) {
	r, rel, abs, err := a.at(path, false)
	if err != nil {
		return nil, "", err
	}
	b, err := r.ReadFile(rel, limit)
	return b, abs, a.why(path, err)
}

// stat describes path, following symlinks that stay inside its root.
func (a *access) stat(path string) (fs.FileInfo, string, error) {
	r, rel, abs, err := a.at(path, false)
	if err != nil {
		return nil, "", err
	}
	fi, err := r.Stat(rel)
	return fi, abs, a.why(path, err)
}

// writeFile replaces path whole (parent folders created); protected paths
// are refused by the real path of the pinned folder, not by the name.
func (a *access) writeFile(path string, data []byte, perm fs.FileMode) (confined.Written, error) {
	r, rel, _, err := a.at(path, true)
	if err != nil {
		return confined.Written{}, err
	}
	w, err := r.WriteFile(rel, data, perm, confined.WriteOptions{DirMode: 0o755, Check: func(real string) error {
		return a.p.writeRefused(path, real)
	}})
	if err != nil {
		return w, a.why(path, err)
	}
	if w.Real == "" {
		w.Real = filepath.Join(r.Dir(), filepath.FromSlash(w.Name))
	}
	return w, nil
}
