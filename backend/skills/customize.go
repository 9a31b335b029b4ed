package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Customize gives the skill name a workspace file to edit and returns its location
// relative to the workspace (skills/<name>/SKILL.md). A workspace skill is its own
// file; a built-in is first copied there, and the copy then overrides the built-in
// (List shows it as a workspace skill). An existing file is never overwritten, so a
// customised skill is not lost to a second click.
func (l *Loader) Customize(name string) (string, error) {
	all, _ := l.List()
	var found *Skill
	for i := range all {
		if all[i].Name == name {
			found = &all[i]
		}
	}
	if found == nil {
		return "", fmt.Errorf("customize skill %q: no such skill (hint: the Skills view lists them)", name)
	}
	if found.Source == SourceWorkspace {
		return found.Location, nil
	}
	dir, err := builtinDir(name)
	if err != nil {
		return "", err
	}
	data, err := builtinFS.ReadFile("builtin/" + dir + "/SKILL.md")
	if err != nil {
		return "", fmt.Errorf("customize skill %q: %w", name, err)
	}
	rel := "skills/" + dir + "/SKILL.md"
	if _, err := os.Lstat(filepath.Join(l.opts.Workspace, filepath.FromSlash(rel))); err == nil {
		return rel, nil // a file is there (not a skill yet, or malformed): the person's, not ours to replace
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("customize skill %q: %w", name, err)
	}
	if err := writeWorkspace(l.opts.Workspace, rel, data); err != nil {
		return "", fmt.Errorf("customize skill %q: %w (hint: check that the workspace's skills folder is writable)", name, err)
	}
	return rel, nil
}

// builtinDir is the folder of the built-in skill called name.
func builtinDir(name string) (string, error) {
	entries, _ := fs.ReadDir(builtinFS, "builtin")
	for _, e := range entries {
		data, err := builtinFS.ReadFile("builtin/" + e.Name() + "/SKILL.md")
		if err != nil {
			continue
		}
		if s, err := parse(data, e.Name()); err == nil && s.Name == name {
			return e.Name(), nil
		}
	}
	return "", fmt.Errorf("customize skill %q: not a built-in skill", name)
}
