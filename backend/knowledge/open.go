package knowledge

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"hearth/backend/internal/nofollow"
)

// place is the optional " line N" / " p. N" a citation ends with; the viewer
// opens the whole file, so it is only cut off.
var place = regexp.MustCompile(` (?:line|p\.) [0-9]+$`)

// Open shows the file a citation names ("<folder name>/<path in it>", as a
// passage's title says it, with or without its " line N" / " p. N") in the
// system's viewer. The folder must be listed (by its base name; listed folders
// sharing one are each tried) and the file a regular file inside it, reached
// without following a link and with no other hard link (as View): a citation
// is model output, and a click must not open what the person did not add.
func (s *Service) Open(cite string) error {
	return s.find(cite, func(root, rel string) error {
		p, err := regularIn(root, rel)
		if err != nil {
			return err
		}
		if s.opts.Open == nil {
			return refuse("knowledge.openNoViewer", "path", p)
		}
		return s.opts.Open(p)
	})
}

// find calls fn with the listed folder and the path in it that cite names, for
// each listed folder of that name until one is not refused by the file system
// (fn's other errors end the search and are returned as they are).
func (s *Service) find(cite string, fn func(root, rel string) error) error {
	name, rel, ok := strings.Cut(place.ReplaceAllString(strings.TrimSpace(cite), ""), "/")
	if !ok || name == "" || rel == "" || strings.Contains(rel, "\\") || strings.Contains(rel, "\x00") {
		return refuse("knowledge.openBad", "place", cite)
	}
	for _, part := range strings.Split(rel, "/") {
		// The walk leaves hidden files and node_modules out: no passage names them.
		if part == "" || part == "." || part == ".." || strings.HasPrefix(part, ".") || part == "node_modules" {
			return refuse("knowledge.openBad", "place", cite)
		}
	}
	found := false
	var last error
	for _, f := range s.opts.Settings.Config().Knowledge.Folders {
		root := filepath.Clean(f.Path)
		if filepath.Base(root) != name {
			continue
		}
		found = true
		err := fn(root, rel)
		var pe *os.PathError
		if err != nil && errors.As(err, &pe) {
			last = err
			continue
		}
		return err
	}
	if !found {
		return refuse("knowledge.openNoFolder", "name", name)
	}
	switch {
	case errors.Is(last, nofollow.ErrLink):
		return refuse("knowledge.openLink", "place", cite)
	case errors.Is(last, nofollow.ErrSpecial):
		return refuse("knowledge.openSpecial", "place", cite)
	case errors.Is(last, nofollow.ErrTooBig):
		return refuse("knowledge.openTooBig", "place", cite, "limit", strconv.FormatInt(s.opts.MaxBytes>>20, 10))
	case errors.Is(last, errHardLink):
		return refuse("knowledge.openHardLink", "place", cite)
	}
	return refuse("knowledge.openMissing", "place", cite)
}

// regularIn is the path of the regular file rel below root, every element
// opened without following a link; a file with other hard links is refused,
// as readIn refuses it (one of its names may lie outside the folder).
func regularIn(root, rel string) (string, error) {
	dir, file := filepath.Split(filepath.FromSlash(rel))
	d, err := nofollow.OpenDir(root, dir)
	if err != nil {
		return "", err
	}
	defer d.Close()
	f, fi, err := nofollow.OpenFileIn(d, file, 0)
	if err != nil {
		return "", err
	}
	_ = f.Close()
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return "", &os.PathError{Op: "open", Path: f.Name(), Err: errHardLink}
	}
	return filepath.Join(root, filepath.FromSlash(rel)), nil
}
