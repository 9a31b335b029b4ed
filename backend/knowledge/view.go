package knowledge

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"hearth/backend/extract"
	"hearth/backend/internal/nofollow"
)

// citedLine is the line number a citation ends with (" line N").
var citedLine = regexp.MustCompile(` line ([0-9]+)$`)

// errHardLink: a file with other names, which may lie outside the folder (the
// walk leaves such files out, so no passage cites one).
var errHardLink = errors.New("has other hard links")

// View is the text around the line a citation names ("Manuals/kiln.md line
// 12"), for the window's file view: the file is found as Open finds it (a
// listed folder's regular file, no link followed at any level, no other hard
// link), read within the folder's size bound and extracted as the index
// extracted it, so line N is the line the cited passage starts on.
func (s *Service) View(cite string) (extract.View, error) {
	line := 1
	if m := citedLine.FindStringSubmatch(strings.TrimSpace(cite)); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			n = int(^uint(0) >> 1) // past any file's end: Window shows its last line
		}
		line = n
	}
	var v extract.View
	err := s.find(cite, func(root, rel string) error {
		data, err := readIn(root, rel, s.opts.MaxBytes)
		if err != nil {
			return err
		}
		doc, err := extract.Bytes(path.Base(rel), data, extract.Limits{MaxBytes: s.opts.MaxBytes})
		if err != nil {
			return err // coded by extract; not a reason to try another folder
		}
		v, err = extract.Window(doc, line)
		return err
	})
	return v, err
}

// readIn reads the regular file rel below root without following a link at
// any level, refusing a pipe or device (never waited on), a file with other
// hard links and one over max bytes, even if it grows while read.
func readIn(root, rel string, max int64) ([]byte, error) {
	dir, file := filepath.Split(filepath.FromSlash(rel))
	d, err := nofollow.OpenDir(root, dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	f, fi, err := nofollow.OpenFileIn(d, file, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return nil, &os.PathError{Op: "read", Path: f.Name(), Err: errHardLink}
	}
	return nofollow.ReadAllFrom(f, max)
}
