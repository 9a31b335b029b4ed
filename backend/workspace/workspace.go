// Package workspace creates and describes Hearth's workspace folder: the persona and
// memory files the agent reads (nanobot-compatible layout, SPEC §2).
package workspace

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
)

//go:embed templates
var templates embed.FS

// Dirs lists the folders a workspace always has (slash-separated, relative).
func Dirs() []string { return []string{"memory", "skills"} }

// Files lists the template files Onboard writes, slash-separated and relative to the
// workspace, in a stable order.
func Files() []string {
	var out []string
	_ = fs.WalkDir(templates, "templates", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepathRel("templates", p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// Template returns the shipped text of a template file (e.g. "memory/MEMORY.md").
func Template(name string) ([]byte, error) {
	b, err := templates.ReadFile(path.Join("templates", name))
	if err != nil {
		return nil, fmt.Errorf("workspace template %s: %w", name, err)
	}
	return b, nil
}

// Onboard makes dir a workspace: it creates dir, memory/ and skills/ (0700) and writes
// each template file (0600) that does not exist yet. An existing file is never touched,
// whatever its content, so an edited file stays byte-identical. Each write is atomic and
// cannot replace a file created meanwhile (link, not rename). It returns the files and
// sub-folders it created (slash-separated, relative to dir; folders end in "/"). On error it
// still returns what it created before the error.
func Onboard(dir string) (created []string, err error) {
	if dir == "" {
		return nil, errors.New("onboard workspace: empty path")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("onboard workspace %s: %w (hint: choose a folder you can write to with --workspace)", dir, err)
	}
	for _, d := range Dirs() {
		p := filepath.Join(dir, filepath.FromSlash(d))
		if _, statErr := os.Lstat(p); errors.Is(statErr, os.ErrNotExist) {
			if err := os.Mkdir(p, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
				return created, fmt.Errorf("onboard workspace %s: create %s: %w", dir, d, err)
			}
			created = append(created, d+"/")
		}
	}
	for _, name := range Files() {
		data, err := Template(name)
		if err != nil {
			return created, err
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		ok, err := createExclusive(target, data)
		if err != nil {
			return created, fmt.Errorf("onboard workspace %s: %w", dir, err)
		}
		if ok {
			created = append(created, name)
		}
	}
	return created, nil
}

// createExclusive writes data to path only if nothing exists there, atomically: the
// content goes to a synced temp file that is then hard-linked into place, and the link
// fails if the path appeared meanwhile. Filesystems without hard links fall back to a
// checked rename. It reports whether it created the file.
func createExclusive(target string, data []byte) (bool, error) {
	if _, err := os.Lstat(target); err == nil {
		return false, nil
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return false, fmt.Errorf("create temp file for %s: %w", target, err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return false, fmt.Errorf("write %s: %w", target, werr)
	}
	if err := os.Link(tmp.Name(), target); err != nil {
		if errors.Is(err, os.ErrExist) {
			return false, nil
		}
		if _, serr := os.Lstat(target); serr == nil {
			return false, nil
		}
		if err := os.Rename(tmp.Name(), target); err != nil {
			return false, fmt.Errorf("write %s: %w", target, err)
		}
	}
	return true, nil
}

func filepathRel(base, p string) (string, error) {
	rel, err := filepath.Rel(base, p)
	return filepath.ToSlash(rel), err
}
