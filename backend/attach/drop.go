package attach

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Dropped is a file dropped on the window from the desktop, as the window's
// chip shows it before the message is sent: the path goes with the message
// (SendMessage's files, as a picked file's does), or Error says why it will not.
type Dropped struct {
	Path  string `json:"path"`
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
	// Picture is set for a picture: the window takes its bytes from the page's
	// own drop, for a vision model, and leaves the path alone.
	Picture bool `json:"picture,omitempty"`
	// Error is the coded problem of a file that will not be attached ("attach.link",
	// "attach.folder", …) and Detail its wording with what to do.
	Error  string `json:"error,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// MaxDropped bounds the paths one drop is checked for; the rest are refused
// unopened (a message takes 20 files).
const MaxDropped = 100

// maxPath is the longest path Linux opens (PATH_MAX).
const maxPath = 4096

// CodeTooMany refuses the paths of a drop past MaxDropped.
const CodeTooMany = "attach.tooMany"

// pictures are the extensions the window reads as pictures (a browser's image/*).
var pictures = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".jfif": true, ".gif": true,
	".webp": true, ".bmp": true, ".svg": true, ".ico": true, ".tif": true, ".tiff": true, ".avif": true,
	".heic": true, ".heif": true, ".apng": true}

// Dropped checks the paths of a drop as the picker's files are checked when
// sent (the same limit per file; a link, a folder, a pipe or a device
// refused), without reading them: a file is opened without following a link
// and without blocking, and closed at once. Nothing is copied yet.
func (s *Store) Dropped(paths []string) []Dropped {
	max := s.limits().MaxBytes
	out := make([]Dropped, 0, len(paths))
	for i, p := range paths {
		d := Dropped{Path: p, Name: filepath.Base(p)}
		switch {
		case len(p) > maxPath:
			d.Path, d.Name = "", SafeName(filepath.Base(p))
			d.Error, d.Detail = CodeUnreadable, "the path is too long (hint: move the file to a shorter path)"
		case i >= MaxDropped:
			d.Error, d.Detail = CodeTooMany, "more than 100 files at once (hint: attach at most 20 in a message)"
		case p == "" || !filepath.IsAbs(p):
			d.Error, d.Detail = CodeUnreadable, "not a path to a file (hint: drop files from the file manager)"
		case pictures[strings.ToLower(filepath.Ext(p))]:
			d.Picture = true
		default:
			// Looked at first without opening: a device is never opened (some act
			// on open), a link or a folder is told as such.
			if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
				d.Error, d.Detail = notRegular(filepath.Base(p), fi.Mode())
				break
			}
			f, size, err := openSource(p, max)
			if err != nil {
				d.Error, d.Detail = code(err), err.Error()
				break
			}
			f.Close()
			d.Bytes = size
		}
		out = append(out, d)
	}
	return out
}

// notRegular is the coded problem of a path that is not a regular file, worded
// as openSource words it.
func notRegular(base string, m fs.FileMode) (string, string) {
	var err error
	switch {
	case m&fs.ModeSymlink != 0:
		err = fmt.Errorf("%s is a link: %w (hint: attach the file it points to)", base, errLink)
	case m.IsDir():
		err = fmt.Errorf("%s is a folder: %w (hint: attach the files in it, or add it in Settings › Knowledge to search all of it)", base, errFolder)
	default:
		err = fmt.Errorf("%s is not a regular file: %w (hint: attach a file, not a pipe or a device)", base, errNotFile)
	}
	return code(err), err.Error()
}
