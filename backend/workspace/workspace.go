// Package workspace creates and describes Hearth's workspace folder: the persona and
// memory files the agent reads (nanobot-compatible layout,
// docs/design/files-and-config.md#workspace-layout).
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

	"hearth/backend/internal/confined"
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
	// Confined to the workspace: a memory/ or skills/ swapped for a symlink
	// out is refused, never filled with templates.
	r, err := confined.Open(dir, confined.Options{})
	if err != nil {
		return nil, fmt.Errorf("onboard workspace %s: %w", dir, err)
	}
	defer r.Close()
	for _, d := range Dirs() {
		if _, statErr := r.Lstat(d); errors.Is(statErr, os.ErrNotExist) {
			if err := r.MkdirAll(d, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
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
		// Written whole and only where nothing exists yet: a temporary file
		// hard-linked into place, which fails if the file appeared meanwhile.
		ok, err := r.CreateExclusive(name, data, 0o600, 0o700)
		if err != nil {
			return created, fmt.Errorf("onboard workspace %s: %s: %w", dir, name, err)
		}
		if ok {
			created = append(created, name)
		}
	}
	return created, nil
}

func filepathRel(base, p string) (string, error) {
	rel, err := filepath.Rel(base, p)
	return filepath.ToSlash(rel), err
}
