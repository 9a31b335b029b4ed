package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"hearth/backend/internal/confined"
	"hearth/backend/session"
)

type srcStat struct {
	size int64
	mod  int64
}

// Limits of the workspace-notes walk: recall is for notes, not a code base.
const (
	maxNoteDepth = 4
	maxNotes     = 5000
	maxNoteBytes = 1 << 20
)

// sources lists what the index covers, with the stat the sync compares:
// MEMORY.md, HISTORY.md, the daily notes, USER.md, other Markdown notes of
// the workspace (not the other persona files, skills or hidden folders) and
// the chats.
func (x *Index) sources() (map[string]srcStat, error) {
	out := map[string]srcStat{}
	if ws := x.opts.Workspace; ws != "" {
		// memory/ is listed every time; the rest of the workspace is walked
		// every time too unless walking is slow (a workspace pointed at a big
		// folder): then the notes found last are only stat'ed, and the walk
		// that finds new ones runs every walkEvery.
		if err := x.memorySources(out); err != nil {
			return nil, err
		}
		now := x.opts.Now()
		if x.notes == nil || x.walkCost < slowWalk || now.Sub(x.lastWalk) >= walkEvery {
			start := time.Now()
			notes, err := x.walkNotes(out)
			if err != nil {
				return nil, err
			}
			x.notes, x.lastWalk, x.walkCost = notes, now, time.Since(start)
		} else {
			for _, rel := range x.notes {
				if fi, err := statIn(ws, rel); err == nil && fi.Mode().IsRegular() {
					out[rel] = srcStat{size: fi.Size(), mod: fi.ModTime().UnixNano()}
				}
			}
		}
	}
	if dir := x.opts.SessionsDir; dir != "" {
		ents, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("scan sessions: %w", err)
		}
		for _, e := range ents {
			id, ok := session.IDFromFileName(e.Name())
			if !ok || e.IsDir() {
				continue
			}
			if fi, err := e.Info(); err == nil {
				out["sessions/"+id] = srcStat{size: fi.Size(), mod: fi.ModTime().UnixNano()}
			}
		}
	}
	return out, nil
}

// Walk throttling for big workspaces (see sources).
const (
	slowWalk  = 20 * time.Millisecond
	walkEvery = 30 * time.Second
)

// memorySources adds HISTORY.md, the daily notes and other notes in memory/.
func (x *Index) memorySources(out map[string]srcStat) error {
	var ents []fs.DirEntry
	r, err := confined.Open(x.opts.Workspace, confined.Options{})
	if err == nil {
		ents, err = r.ReadDir("memory") // a memory/ swapped for a symlink out is refused
		r.Close()
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("scan memory folder: %w", err)
	}
	for _, e := range ents {
		rel := "memory/" + e.Name()
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(strings.ToLower(e.Name()), ".md") {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || (fi.Size() > maxNoteBytes && rel != HistoryFile) {
			continue
		}
		out[rel] = srcStat{size: fi.Size(), mod: fi.ModTime().UnixNano()}
	}
	return nil
}

// walkNotes adds the Markdown notes of the workspace outside memory/ and
// USER.md (not the other persona files, which say how to behave rather than
// what happened, nor skills or hidden folders) and returns their paths.
func (x *Index) walkNotes(out map[string]srcStat) ([]string, error) {
	ws := x.opts.Workspace
	skip := map[string]bool{}
	for _, p := range personaFiles() {
		skip[p] = p != userProfile
	}
	notes := []string{}
	err := filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == ws {
				return err
			}
			return nil // an unreadable folder is skipped
		}
		rel, _ := filepath.Rel(ws, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || rel == "memory" || rel == "skills" || d.Name() == "node_modules" || strings.Count(rel, "/") >= maxNoteDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(strings.ToLower(d.Name()), ".md") || skip[rel] || strings.HasPrefix(d.Name(), ".") || len(notes) >= maxNotes {
			return nil
		}
		fi, err := d.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxNoteBytes {
			return nil
		}
		notes = append(notes, rel)
		out[rel] = srcStat{size: fi.Size(), mod: fi.ModTime().UnixNano()}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("scan workspace: %w", err)
	}
	return notes, nil
}

// readSource reads and chunks one source; chats, live or archived, too (a
// search leaves out the part of the current chat still in its window).
func (x *Index) readSource(src string, _ srcStat) ([]Chunk, string, error) {
	if id, ok := strings.CutPrefix(src, "sessions/"); ok {
		s, err := session.NewStore(x.opts.SessionsDir, session.Options{}).Load(id)
		if err != nil {
			return nil, "", err
		}
		chunks := sessionChunks(s)
		var b strings.Builder
		for _, c := range chunks {
			b.WriteString(c.ID)
		}
		return chunks, Hash([]byte(b.String())), nil
	}
	b, err := readWorkspace(x.opts.Workspace, src)
	if err != nil {
		return nil, "", err
	}
	return fileChunks(src, string(b)), Hash(b), nil
}

// appendedHistory is the fast path of the commonest change: entries
// appended to a long HISTORY.md. When the file still starts with exactly
// what was indexed and the rest begins with a new entry, only that tail is
// chunked (ok false: read the whole file).
func (x *Index) appendedHistory(src string, old fileState, have map[string]bool) (tail []Chunk, hash string, ok bool) {
	if src != HistoryFile || old.Size <= 0 || old.Hash == "" {
		return nil, "", false
	}
	b, err := readWorkspace(x.opts.Workspace, src)
	if err != nil || int64(len(b)) <= old.Size || Hash(b[:old.Size]) != old.Hash {
		return nil, "", false
	}
	rest := string(b[old.Size:])
	if b[old.Size-1] != '\n' && rest[0] != '\n' {
		return nil, "", false
	}
	first, _, _ := strings.Cut(strings.TrimLeft(rest, "\n"), "\n")
	if _, isEntry := entryStamp(first); !isEntry {
		return nil, "", false
	}
	seen := map[string]int{}
	for id := range have {
		base := id
		if i := strings.LastIndexByte(id, '~'); i > strings.LastIndexByte(id, '#') {
			base = id[:i]
		}
		seen[base]++
	}
	return historyChunksFrom(src, rest, seen), Hash(b), true
}

// readWorkspace reads a note confined to the workspace: what the index holds
// reaches the model, so a note that is a symlink out (or a hard link) is an
// error, not the other file's content.
func readWorkspace(ws, rel string) ([]byte, error) {
	r, err := confined.Open(ws, confined.Options{})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadFile(rel, 0)
}

func statIn(ws, rel string) (fs.FileInfo, error) {
	r, err := confined.Open(ws, confined.Options{})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Lstat(rel)
}

// userProfile is the persona file about the user: what it says is searched
// like a note (the other persona files say how to behave).
const userProfile = "USER.md"
