package memrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Hearth marks the histories it creates with a section of their config; a
// folder that holds some other repository (a project's .git, a folder a link
// once led to) has no such mark, and Hearth commits nothing onto it.

// markerSection is the mark, as Hearth writes it into config.
const markerSection = "[hearth]\n\tmemoryhistory = true\n"

// ErrNotOurs is a repository that is not Hearth's memory history.
var ErrNotOurs = errors.New("not Hearth's memory history")

// checkOwn creates the mark in a new (or never finished) history and refuses
// a folder that holds a repository without it.
func (r *Repo) checkOwn() error {
	b, err := r.fs.readSmall("config")
	switch {
	case err == nil:
		if strings.Contains(string(b), markerSection) {
			return nil
		}
		return fmt.Errorf("%w: its config lacks Hearth's mark (hint: this folder holds another repository; move it aside and Hearth starts a new history)", ErrNotOurs)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("config: %w", err)
	}
	for _, name := range []string{"HEAD", branchFile, "packed-refs"} {
		if _, err := r.fs.Lstat(name); !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: it has %s but no config with Hearth's mark (hint: move the folder aside and Hearth starts a new history)", ErrNotOurs, name)
		}
	}
	return r.fs.writeFile("config", []byte(skeleton["config"]))
}

// Adopt marks the history in dir as Hearth's: the migration of a history that
// older versions of Hearth made, before histories carried the mark, calls it
// on its own copy. A folder without a bare repository's HEAD is refused.
func Adopt(dir string) error {
	g := newGuardFS(dir)
	head, err := g.readSmall("HEAD")
	if err != nil {
		return fmt.Errorf("memory history at %s: %w", dir, err)
	}
	if !strings.HasPrefix(string(head), "ref: refs/heads/") {
		return fmt.Errorf("memory history at %s: %w: its HEAD is not a branch", dir, ErrNotOurs)
	}
	b, err := g.readSmall("config")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("memory history at %s: %w", dir, err)
	}
	if strings.Contains(string(b), markerSection) {
		return nil
	}
	if len(b) > 0 && !strings.HasSuffix(string(b), "\n") {
		b = append(b, '\n')
	}
	return g.writeFile("config", append(b, markerSection...))
}
