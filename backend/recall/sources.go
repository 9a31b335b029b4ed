package recall

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

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
	if x.opts.Workspace != "" {
		if err := x.memorySources(out); err != nil {
			return nil, err
		}
		if err := x.noteSources(out); err != nil {
			return nil, fmt.Errorf("scan workspace: %w", err)
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

// readSource reads and chunks one note or memory file (chats: readSession).
func (x *Index) readSource(src string, _ srcStat) ([]Chunk, string, error) {
	if isKnowledge(src) {
		return x.readKnowledge(src)
	}
	b, err := readWorkspace(x.opts.Workspace, src)
	if err != nil {
		return nil, "", err
	}
	return fileChunks(src, string(b)), contentHash(b), nil
}

// appendedHistory is the fast path of the commonest change: entries
// appended to a long HISTORY.md. When the file still starts with exactly
// what was indexed and the rest begins with a new entry, only that tail is
// chunked, and only its chunks' IDs are looked up (ok false: read the whole
// file).
func (x *Index) appendedHistory(src string, old fileState) (tail []Chunk, hash string, ok bool, err error) {
	if src != HistoryFile || old.Size <= 0 || old.Hash == "" {
		return nil, "", false, nil
	}
	b, err := readWorkspace(x.opts.Workspace, src)
	if err != nil || int64(len(b)) <= old.Size {
		return nil, "", false, nil
	}
	// One pass of the hash over the file: the indexed part's sum on the way.
	h := sha256.New()
	h.Write(b[:old.Size])
	if hex.EncodeToString(h.Sum(nil)) != old.Hash {
		return nil, "", false, nil
	}
	h.Write(b[old.Size:])
	rest := string(b[old.Size:])
	if b[old.Size-1] != '\n' && rest[0] != '\n' {
		return nil, "", false, nil
	}
	first, _, _ := strings.Cut(strings.TrimLeft(rest, "\n"), "\n")
	if _, isEntry := entryStamp(first); !isEntry {
		return nil, "", false, nil
	}
	// An entry saying what an earlier one said gets the next "~N" ID: how
	// many the index holds is counted for the tail's entries alone.
	seen := map[string]int{}
	for _, c := range historyChunks(src, rest) {
		base := c.ID
		if i := strings.LastIndexByte(base, '~'); i > strings.LastIndexByte(base, '#') {
			continue // a twin within the tail: its base is counted
		}
		if seen[base], err = twins(x.db, base); err != nil {
			return nil, "", false, err
		}
	}
	return historyChunksFrom(src, rest, seen), hex.EncodeToString(h.Sum(nil)), true, nil
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
