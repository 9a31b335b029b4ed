package recall

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// noteDirs is what the index knows of the workspace's note folders (outside
// memory/): each folder's modification time when it was last listed. A folder's
// time moves when a file in it is created, removed or renamed — how editors and
// sync tools save — so a search stats the folders, not every note, and lists
// again only those that changed: a turn's cost does not grow with the number of
// notes. A note rewritten in place leaves its folder alone; the full walk that
// stats every note catches it, run when the last one is walkEvery old (the time
// is kept in the index, so short-lived `hearth` processes share it).
// Why: docs/design/memory.md#recall.
type noteDirs struct {
	mod    map[string]int64 // folder ("." is the workspace) → its mtime when listed; 0 lists it again
	walked time.Time        // the last full walk
	saved  bool             // mod and walked are what the index file holds
}

// walkEvery is how often the notes are walked in full (every note stat'ed).
const walkEvery = 30 * time.Second

// racyDir is how recent a folder's time may be and still be trusted: two
// changes within one tick of the file system's clock leave the same time, so
// a folder changed this recently is listed again next time.
const racyDir = 2 * time.Second

// noteSources adds the workspace's notes outside memory/ to out.
func (x *Index) noteSources(out map[string]srcStat) error {
	if x.dirs == nil {
		x.dirs = x.loadDirs()
	}
	now := x.opts.Now()
	if x.dirs.mod == nil || now.Sub(x.dirs.walked) >= walkEvery || x.dirs.walked.After(now) {
		if err := x.loadNotes(""); err != nil {
			return err
		}
		mod, err := x.walkNotes(out, ".")
		if err != nil {
			return err
		}
		x.dirs = &noteDirs{mod: mod, walked: now}
		return nil
	}
	// Known notes stand for themselves unless their folder changed. The
	// workspace's own folder is always listed: it is small, and USER.md there
	// is often edited in place.
	changed := map[string]bool{".": true}
	rootMoved := true
	for dir, mod := range x.dirs.mod {
		x.statCount++
		fi, err := os.Lstat(filepath.Join(x.opts.Workspace, filepath.FromSlash(dir)))
		switch {
		case err != nil || !fi.IsDir():
			if err := x.loadNotes(dir); err != nil {
				return err
			}
			delete(x.dirs.mod, dir) // gone: its notes drop out with it
			x.dirs.saved = false
		case mod == 0 || fi.ModTime().UnixNano() != mod:
			changed[dir] = true
		case dir == ".":
			rootMoved = false
		}
	}
	for dir := range changed {
		if dir == "." && !rootMoved {
			dir = "./" // nothing was added or removed there: only its notes' rows
		}
		if err := x.loadNotes(dir); err != nil {
			return err
		}
	}
	for src, st := range x.files {
		if dir := path.Dir(src); isNote(src) && !changed[dir] {
			if _, known := x.dirs.mod[dir]; known {
				out[src] = srcStat{size: st.Size, mod: st.ModNano}
			}
		}
	}
	for dir := range changed {
		mod, err := x.listNoteDir(out, dir)
		if err != nil {
			return err
		}
		for d, m := range mod {
			if old, ok := x.dirs.mod[d]; !ok || old != m {
				x.dirs.mod[d] = m
				x.dirs.saved = false // kept for the next process only when something moved
			}
		}
	}
	return nil
}

// loadNotes loads what the index knows of the notes in folder dir ("" for every
// note), so that the sync can compare them with what the folder holds now.
func (x *Index) loadNotes(dir string) error {
	if x.allFiles {
		return nil
	}
	var files map[string]fileState
	var err error
	switch dir {
	case "":
		files, err = loadFiles(x.db, `1`)
	case ".":
		// The workspace's own notes have no common prefix: every row is scanned.
		files, err = loadFiles(x.db, `instr(source, '/') = 0`)
	case "./":
		// Its folder did not move: look up the notes it holds, no scan.
		var names []any
		ents, _ := os.ReadDir(x.opts.Workspace)
		for _, e := range ents {
			if !e.IsDir() && noteFile(e.Name()) {
				names = append(names, e.Name())
			}
		}
		if len(names) == 0 {
			return nil
		}
		files, err = loadFiles(x.db, `source IN (?`+strings.Repeat(",?", len(names)-1)+`)`, names...)
	default:
		files, err = loadFiles(x.db, `source > ? AND source < ?`, dir+"/", dir+"0") // '0' follows '/'
	}
	if err != nil {
		return err
	}
	for src, st := range files {
		if dir == "" || dir == "./" || path.Dir(src) == dir {
			x.files[src] = st
		}
	}
	x.allFiles = dir == ""
	return nil
}

// isNote reports whether the source src is a workspace note (found by the walk).
func isNote(src string) bool {
	return !strings.HasPrefix(src, "memory/") && !strings.HasPrefix(src, "sessions/") && !isKnowledge(src)
}

// noteDirSkipped reports whether the walk leaves the folder rel out: hidden ones,
// memory/ (listed on its own), skills/, node_modules and folders too deep.
func noteDirSkipped(rel string) bool {
	name := path.Base(rel)
	return rel != "." && (strings.HasPrefix(name, ".") || rel == "memory" || rel == "skills" ||
		name == "node_modules" || strings.Count(rel, "/") >= maxNoteDepth)
}

// noteFile reports whether rel (a file of a note folder) is a note: Markdown,
// not hidden, not a persona file other than USER.md.
func noteFile(rel string) bool {
	name := path.Base(rel)
	if !strings.HasSuffix(strings.ToLower(name), ".md") || strings.HasPrefix(name, ".") {
		return false
	}
	for _, p := range personaFiles() {
		if rel == p && p != userProfile {
			return false
		}
	}
	return true
}

// walkNotes adds the notes under the folder top (workspace-relative) to out and
// returns the mtimes of the folders it went through.
func (x *Index) walkNotes(out map[string]srcStat, top string) (map[string]int64, error) {
	ws := x.opts.Workspace
	mod := map[string]int64{}
	count := 0
	for src := range out {
		if isNote(src) {
			count++
		}
	}
	now := x.opts.Now()
	err := filepath.WalkDir(filepath.Join(ws, filepath.FromSlash(top)), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == ws {
				return err
			}
			return nil // an unreadable folder is skipped
		}
		rel, _ := filepath.Rel(ws, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if noteDirSkipped(rel) {
				return filepath.SkipDir
			}
			x.statCount++
			if fi, err := d.Info(); err == nil {
				mod[rel] = trusted(fi, now)
			}
			return nil
		}
		if !noteFile(rel) || count >= maxNotes {
			return nil
		}
		x.statCount++
		fi, err := d.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxNoteBytes {
			return nil
		}
		count++
		out[rel] = srcStat{size: fi.Size(), mod: fi.ModTime().UnixNano()}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return mod, nil
}

// listNoteDir adds the notes of one changed folder to out; a new folder in it is
// walked whole. It returns the mtimes of the folders it listed.
func (x *Index) listNoteDir(out map[string]srcStat, dir string) (map[string]int64, error) {
	ws := x.opts.Workspace
	p := filepath.Join(ws, filepath.FromSlash(dir))
	x.statCount++
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() {
		return nil, nil
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return nil, nil // unreadable: its notes drop out until it can be read
	}
	now := x.opts.Now()
	mod := map[string]int64{dir: trusted(fi, now)}
	for _, e := range ents {
		rel := path.Join(dir, e.Name())
		if e.IsDir() {
			if _, known := x.dirs.mod[rel]; !known && !noteDirSkipped(rel) {
				sub, err := x.walkNotes(out, rel)
				if err != nil {
					return nil, err
				}
				for d, m := range sub {
					mod[d] = m
				}
			}
			continue
		}
		if !noteFile(rel) {
			continue
		}
		x.statCount++
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxNoteBytes {
			continue
		}
		out[rel] = srcStat{size: fi.Size(), mod: fi.ModTime().UnixNano()}
	}
	return mod, nil
}

// trusted is a folder's mtime to keep, 0 when it is too recent to be trusted.
func trusted(fi fs.FileInfo, now time.Time) int64 {
	if now.Sub(fi.ModTime()) < racyDir {
		return 0
	}
	return fi.ModTime().UnixNano()
}

// loadDirs reads the note folders the index keeps (an empty noteDirs when it
// has none: the first search walks).
func (x *Index) loadDirs() *noteDirs {
	d := &noteDirs{}
	rows, err := x.db.Query(`SELECT dir, mod FROM dirs`)
	if err != nil {
		return d
	}
	defer rows.Close()
	mod := map[string]int64{}
	for rows.Next() {
		var dir string
		var m int64
		if rows.Scan(&dir, &m) != nil {
			return d
		}
		mod[dir] = m
	}
	if rows.Err() != nil || len(mod) == 0 {
		return d
	}
	ns, _ := strconv.ParseInt(getMeta(x.db, "walked"), 10, 64)
	d.mod, d.walked, d.saved = mod, time.Unix(0, ns), true
	return d
}

// saveDirs keeps the note folders in the index for the next process; a failure
// only makes the next process walk.
func (x *Index) saveDirs(ctx context.Context) {
	d := x.dirs
	if d == nil || d.saved || d.mod == nil || x.db == nil {
		return
	}
	err := withTx(ctx, x.db, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM dirs`); err != nil {
			return err
		}
		for dir, m := range d.mod {
			if _, err := tx.Exec(`INSERT INTO dirs(dir, mod) VALUES(?, ?)`, dir, m); err != nil {
				return err
			}
		}
		return setMeta(tx, "walked", strconv.FormatInt(d.walked.UnixNano(), 10))
	})
	if err != nil {
		x.log.Warn("note folders not kept in the memory index", "err", err)
		return
	}
	d.saved = true
}
