package knowledge

import (
	"io/fs"
	"path/filepath"
	"strings"

	"hearth/backend/extract"
	"hearth/backend/recall"
)

// Skip reasons, counted per folder in its status (the window words them).
const (
	SkipHidden  = "hidden"     // a hidden file or folder, node_modules, .git
	SkipType    = "type"       // a kind extract does not read
	SkipLink    = "link"       // a symbolic link: never followed
	SkipSpecial = "special"    // a FIFO, socket or device
	SkipTooBig  = "tooBig"     // over the size limit
	SkipCap     = "cap"        // past the folder's file cap
	SkipUnread  = "unreadable" // could not be read or extracted
	SkipDeep    = "deep"       // deeper than maxDepth
)

// maxDepth bounds how deep a walk goes: a link loop cannot happen (links are
// not followed), but a generated tree can be absurdly deep.
const maxDepth = 32

// listing is what a walk found: the files to index with their stat, the
// folders (for the watcher) and what was skipped.
type listing struct {
	files   map[string]recall.KnowledgeFile
	dirs    []string // absolute, the root first
	skipped map[string]int
}

// walk stats the folder's tree without reading a file: supported regular files
// up to maxFiles and maxBytes each. Links are reported, never followed (a link
// out of the folder would hand the model a file the person did not add).
func walk(root string, maxFiles int, maxBytes int64) (listing, error) {
	l := listing{files: map[string]recall.KnowledgeFile{}, skipped: map[string]int{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			l.skipped[SkipUnread]++
			return nil
		}
		if p == root {
			l.dirs = append(l.dirs, p)
			return nil
		}
		name := d.Name()
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			switch {
			case strings.HasPrefix(name, ".") || name == "node_modules":
				l.skipped[SkipHidden]++
				return filepath.SkipDir
			case strings.Count(rel, string(filepath.Separator)) >= maxDepth:
				l.skipped[SkipDeep]++
				return filepath.SkipDir
			}
			l.dirs = append(l.dirs, p)
			return nil
		}
		switch t := d.Type(); {
		case strings.HasPrefix(name, "."):
			l.skipped[SkipHidden]++
		case t&fs.ModeSymlink != 0:
			l.skipped[SkipLink]++
		case !t.IsRegular():
			l.skipped[SkipSpecial]++
		case !extract.Supported(name):
			l.skipped[SkipType]++
		default:
			fi, err := d.Info()
			switch {
			case err != nil:
				l.skipped[SkipUnread]++
			case fi.Size() > maxBytes:
				l.skipped[SkipTooBig]++
			case len(l.files) >= maxFiles:
				l.skipped[SkipCap]++
			default:
				l.files[filepath.ToSlash(rel)] = recall.KnowledgeFile{Size: fi.Size(), ModNano: fi.ModTime().UnixNano()}
			}
		}
		return nil
	})
	return l, err
}
