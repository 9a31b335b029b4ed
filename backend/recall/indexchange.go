package recall

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// change is one source's update, prepared outside the write transaction.
type change struct {
	src      string
	st       fileState
	touched  bool // same content: only the stat moves
	appended bool // HISTORY.md grew: fresh holds the new tail only
	// session: src is a chat, whose bookmark (mark, nil for none) is written too.
	session bool
	mark    *sessionMark
	fresh   []*Chunk
	kept    []*Chunk
	stale   []string
}

// prepare re-reads one source and diffs its chunks by ID against the index
// (nil: another process indexed this version already).
func (x *Index) prepare(ctx context.Context, src string, fi srcStat, old fileState, known bool, rep *IndexReport) (*change, error) {
	// The desktop app and a CLI command share the index.
	var cur fileState
	err := x.db.QueryRow(`SELECT size, mod, hash FROM files WHERE source = ?`, src).Scan(&cur.Size, &cur.ModNano, &cur.Hash)
	if err == nil && cur.Size == fi.size && cur.ModNano == fi.mod {
		x.files[src] = cur
		x.vecs = nil // theirs are not loaded here
		return nil, nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if err == nil {
		old, known = cur, true
	}
	ch := &change{src: src}
	var chunks []Chunk
	var hash string
	id, isChat := strings.CutPrefix(src, "sessions/")
	ch.session = isChat
	grown := false // a chat read from its bookmark: have holds its last chunk's IDs
	have := map[string]bool{}
	if known && isChat {
		var t sessionTail
		if t, grown, err = x.appendedSession(src, old); err != nil {
			return nil, err
		}
		chunks, hash, have, ch.mark = t.chunks, t.hash, t.have, t.mark
	} else if known {
		if chunks, hash, ch.appended, err = x.appendedHistory(src, old); err != nil {
			return nil, err
		}
	}
	switch {
	case grown:
	case ch.appended:
		// Only the tail's IDs are looked up: not the 10 000 of a long file.
		for _, c := range chunks {
			if have[c.ID], err = hasChunk(x.db, c.ID); err != nil {
				return nil, err
			}
		}
	default:
		if have, err = chunkIDs(x.db, src); err != nil {
			return nil, err
		}
		if isChat {
			chunks, hash, ch.mark, err = x.readSession(src, id)
		} else {
			chunks, hash, err = x.readSource(src, fi)
		}
		if err != nil {
			return nil, err
		}
	}
	ch.st = fileState{Size: fi.size, ModNano: fi.mod, Hash: hash}
	if known && old.Hash == hash {
		ch.touched = true
		return ch, nil
	}
	rep.Changed++
	keep := map[string]bool{}
	for i := range chunks {
		c := &chunks[i]
		keep[c.ID] = true
		if have[c.ID] {
			ch.kept = append(ch.kept, c)
		} else {
			ch.fresh = append(ch.fresh, c)
		}
	}
	if !ch.appended {
		for id := range have {
			if !keep[id] {
				ch.stale = append(ch.stale, id)
			}
		}
	}
	x.embed(ctx, ch.fresh, rep)
	return ch, nil
}

// apply writes a prepared change: a kill leaves the file's old chunks or its
// new ones, and its state with them.
func apply(tx *txn, v *vectorSet, ch *change, rep *IndexReport) error {
	if ch.touched {
		_, err := tx.Exec(`UPDATE files SET size = ?, mod = ? WHERE source = ?`, ch.st.Size, ch.st.ModNano, ch.src)
		return err
	}
	if ch.session {
		if err := saveMark(tx, ch.src, ch.mark); err != nil {
			return err
		}
	}
	for _, id := range ch.stale {
		if err := removeChunk(tx, v, id, rep); err != nil {
			return err
		}
	}
	// The text is the same (the ID hashes it); a chat's title may not be.
	for _, c := range ch.kept {
		if _, err := tx.Exec(`UPDATE chunks SET title = ?, date = ?, pos = ? WHERE id = ? AND (title <> ? OR date <> ? OR pos <> ?)`,
			c.Title, c.Date, c.Pos, c.ID, c.Title, c.Date, c.Pos); err != nil {
			return err
		}
	}
	for _, c := range ch.fresh {
		n, err := insertChunk(tx, c)
		if err != nil {
			return err
		}
		if v != nil {
			v.put(n, c.Vec)
		}
		rep.Added++
	}
	_, err := tx.Exec(`INSERT INTO files(source, size, mod, hash) VALUES(?, ?, ?, ?)
		ON CONFLICT(source) DO UPDATE SET size = excluded.size, mod = excluded.mod, hash = excluded.hash`,
		ch.src, ch.st.Size, ch.st.ModNano, ch.st.Hash)
	return err
}

// applyAll writes prepared changes in one transaction. It runs to the end
// even when the caller's deadline passed: the work is done, and a turn that
// gave up waiting must not make the next one start over.
func (x *Index) applyAll(ctx context.Context, chs []*change, rep *IndexReport) error {
	if len(chs) == 0 {
		return nil
	}
	err := x.write(context.WithoutCancel(ctx), func(tx *txn, v *vectorSet) error {
		for _, ch := range chs {
			if err := apply(tx, v, ch, rep); err != nil {
				return fmt.Errorf("%s: %w", ch.src, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, ch := range chs {
		x.files[ch.src] = ch.st
	}
	return nil
}

// removeChunk deletes a chunk with its terms and its vector, and counts it.
func removeChunk(tx *txn, v *vectorSet, id string, rep *IndexReport) error {
	n, err := deleteChunk(tx, id)
	if err != nil {
		return err
	}
	if v != nil {
		v.del(n)
	}
	rep.Removed++
	return nil
}
