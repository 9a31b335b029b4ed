package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
)

// open opens the cached index once per Index. A database that cannot be
// opened or read is deleted and made again (the sync that follows fills it
// from the files); a folder that cannot hold one leaves the index in memory.
func (x *Index) open() error {
	if x.db != nil {
		return nil
	}
	p := ""
	if x.opts.Dir != "" {
		p = filepath.Join(x.opts.Dir, dbName)
		_ = os.Remove(filepath.Join(x.opts.Dir, legacyLog))
	}
	err := x.openAt(p)
	if err != nil && p != "" {
		x.startOver(fmt.Sprintf("unreadable index (%v)", err))
		if err = x.openAt(p); err != nil {
			x.log.Warn("memory index kept in memory only", "dir", x.opts.Dir, "err", err)
			err = x.openAt("")
		}
	}
	if err != nil {
		return fmt.Errorf("open memory index: %w", err)
	}
	return nil
}

// openAt opens the database at p ("" in memory), loads what it knows of the
// sources every search looks at (not the notes in folders: notedirs.go) and
// drops vectors of another embedding model.
func (x *Index) openAt(p string) error {
	db, err := openDB(p)
	if err != nil {
		return err
	}
	// Ranges of the primary key, not patterns: a pattern scans every note's row.
	files, err := loadFiles(db, `(source > 'memory/' AND source < 'memory0') OR (source > 'sessions/' AND source < 'sessions0')`)
	if err != nil {
		db.Close()
		return err
	}
	var model string
	hasModel := db.QueryRow(`SELECT value FROM meta WHERE key = 'model'`).Scan(&model) == nil
	if !hasModel || model != x.opts.Model {
		if hasModel {
			x.reason = fmt.Sprintf("embedding model changed from %q to %q", model, x.opts.Model)
			x.log.Warn("memory index vectors dropped", "reason", x.reason)
		}
		err := withTx(context.Background(), db, func(tx *sql.Tx) error {
			if hasModel {
				if _, err := tx.Exec(`UPDATE chunks SET vec = NULL WHERE vec IS NOT NULL`); err != nil {
					return err
				}
			}
			if _, err := bumpGen(tx); err != nil {
				return err
			}
			return setMeta(tx, "model", x.opts.Model)
		})
		if err != nil {
			db.Close()
			return err
		}
	}
	x.db, x.files, x.vecs, x.allFiles = db, files, nil, false
	return nil
}

// writeBatch is about how many rows one sync transaction writes: big enough
// that a first build of thousands of notes is a few commits, small enough
// that a kill loses little.
const writeBatch = 5000

// startOver deletes the cached index, saying why; the caller opens it again.
func (x *Index) startOver(reason string) {
	x.log.Warn("memory index rebuilt from the files", "reason", reason)
	if x.db != nil {
		x.db.Close()
	}
	x.db, x.files, x.vecs, x.dirs = nil, nil, nil, nil
	x.reason = reason
	if x.opts.Dir != "" {
		removeDB(x.opts.Dir)
	}
}

// isCorrupt reports whether err says the database file is damaged (not a
// passing lock or a full disk): then it is rebuilt.
func isCorrupt(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
			return true
		}
	}
	return err != nil && strings.Contains(err.Error(), "malformed")
}

// bumpGen moves the index generation on and returns the one before: the
// in-memory vectors know which generation they match, so a write by another
// process makes them reload.
func bumpGen(tx *sql.Tx) (int64, error) {
	prev, _ := strconv.ParseInt(getMeta(tx, "gen"), 10, 64)
	return prev, setMeta(tx, "gen", strconv.FormatInt(prev+1, 10))
}

// write runs fn in a transaction that moves the generation on, and keeps the
// loaded vectors (changed by fn through v, which is nil when none are
// loaded) valid when nobody else wrote in between.
func (x *Index) write(ctx context.Context, fn func(tx *txn, v *vectorSet) error) error {
	err := withTx(ctx, x.db, func(stx *sql.Tx) error {
		tx := &txn{Tx: stx}
		prev, err := bumpGen(stx)
		if err != nil {
			return err
		}
		if x.vecs != nil && prev != x.gen {
			x.vecs = nil // someone else wrote: reload on the next vector search
		}
		if err := fn(tx, x.vecs); err != nil {
			return err
		}
		if err := tx.count(); err != nil {
			return err
		}
		x.gen = prev + 1
		return nil
	})
	if err != nil {
		x.vecs = nil // rolled back: what fn changed in memory is not in the file
	}
	return err
}

// Sync brings the index up to date with the files: sources whose size or
// modification time changed are re-read, and only chunks whose text changed
// are added, removed or embedded.
func (x *Index) Sync(ctx context.Context) (IndexReport, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.sync(ctx, true)
}

// sync syncs; counts fills the report's totals (two index scans a search
// does not need). A damaged database is rebuilt once.
func (x *Index) sync(ctx context.Context, counts bool) (IndexReport, error) {
	rep, err := x.syncOnce(ctx, counts)
	if isCorrupt(err) {
		x.startOver(fmt.Sprintf("damaged index (%v)", err))
		rep, err = x.syncOnce(ctx, counts)
	}
	return rep, err
}

func (x *Index) syncOnce(ctx context.Context, counts bool) (IndexReport, error) {
	start := time.Now()
	var rep IndexReport
	if err := x.open(); err != nil {
		return rep, err
	}
	if x.reason != "" {
		rep.Rebuilt, rep.Reason, x.reason = true, x.reason, ""
	}
	srcs, err := x.sources()
	if err != nil {
		return rep, err
	}
	// Changed sources are written in batches, each one transaction; when the
	// caller's deadline passes the batch in hand is still written, so a big
	// first build makes progress across turns instead of starting over.
	var batch []*change
	size := 0
	for src, fi := range srcs {
		st, ok := x.files[src]
		if ok && st.Size == fi.size && st.ModNano == fi.mod {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		ch, err := x.prepare(ctx, src, fi, st, ok, &rep)
		if err != nil {
			if isCorrupt(err) {
				return rep, err
			}
			x.log.Warn("index memory source", "source", src, "err", err)
			continue
		}
		if ch == nil {
			continue
		}
		batch = append(batch, ch)
		size += 1 + len(ch.fresh) + len(ch.stale)
		if size >= writeBatch {
			if err := x.applyAll(ctx, batch, &rep); err != nil {
				return rep, err
			}
			batch, size = nil, 0
		}
	}
	if err := x.applyAll(ctx, batch, &rep); err != nil {
		return rep, err
	}
	if ctx.Err() != nil {
		// Some sources were not looked at: the folders they are in must be
		// listed again, so the note folders are read back from the index.
		x.dirs = nil
	} else {
		x.saveDirs(ctx)
	}
	var gone []string
	for src := range x.files {
		if _, ok := srcs[src]; !ok {
			gone = append(gone, src)
		}
	}
	if len(gone) > 0 {
		err := x.write(ctx, func(tx *txn, v *vectorSet) error {
			for _, src := range gone {
				ids, err := chunkIDs(tx, src)
				if err != nil {
					return err
				}
				for id := range ids {
					n, err := deleteChunk(tx, id)
					if err != nil {
						return err
					}
					if v != nil {
						v.del(n)
					}
					rep.Removed++
				}
				if _, err := tx.Exec(`DELETE FROM files WHERE source = ?`, src); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return rep, err
		}
		for _, src := range gone {
			delete(x.files, src)
		}
	}
	if err := x.embedMissing(ctx, &rep); err != nil {
		return rep, err
	}
	if counts {
		if err := x.fill(&rep); err != nil {
			return rep, err
		}
	}
	rep.Duration = time.Since(start)
	return rep, nil
}

// fill sets the report's totals and mode.
func (x *Index) fill(rep *IndexReport) error {
	var novec int
	if err := x.db.QueryRow(`SELECT count(*) FROM files`).Scan(&rep.Files); err != nil {
		return err
	}
	if err := x.db.QueryRow(`SELECT count(*) FROM chunks`).Scan(&rep.Chunks); err != nil {
		return err
	}
	if err := x.db.QueryRow(`SELECT count(*) FROM chunks WHERE vec IS NULL`).Scan(&novec); err != nil {
		return err
	}
	rep.Vectors = rep.Chunks - novec
	rep.Mode = ModeKeyword
	if x.opts.Embed != nil && x.embedErr == nil && (rep.Vectors > 0 || rep.Chunks == 0) {
		rep.Mode = ModeHybrid
	}
	if x.embedErr != nil {
		rep.EmbedError = x.embedErr.Error()
	}
	return nil
}

// change is one source's update, prepared outside the write transaction.
type change struct {
	src      string
	st       fileState
	touched  bool // same content: only the stat moves
	appended bool // HISTORY.md grew: fresh holds the new tail only
	fresh    []*Chunk
	kept     []*Chunk
	stale    []string
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
	if known {
		if chunks, hash, ch.appended, err = x.appendedHistory(src, old); err != nil {
			return nil, err
		}
	}
	have := map[string]bool{}
	if ch.appended {
		// Only the tail's IDs are looked up: not the 10 000 of a long file.
		for _, c := range chunks {
			if have[c.ID], err = hasChunk(x.db, c.ID); err != nil {
				return nil, err
			}
		}
	} else {
		if have, err = chunkIDs(x.db, src); err != nil {
			return nil, err
		}
		if chunks, hash, err = x.readSource(src, fi); err != nil {
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
	for _, id := range ch.stale {
		n, err := deleteChunk(tx, id)
		if err != nil {
			return err
		}
		if v != nil {
			v.del(n)
		}
		rep.Removed++
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

// embed sets the vectors of chunks, in batches; a failure leaves them
// keyword-only (embedMissing retries later) and is remembered.
func (x *Index) embed(ctx context.Context, chunks []*Chunk, rep *IndexReport) {
	if len(chunks) == 0 || !x.canEmbed() {
		return
	}
	for i := 0; i < len(chunks); i += x.opts.EmbedBatch {
		part := chunks[i:min(i+x.opts.EmbedBatch, len(chunks))]
		texts := make([]string, len(part))
		for j, c := range part {
			texts[j] = c.Text
		}
		vecs, err := x.opts.Embed(ctx, texts)
		if err == nil && len(vecs) != len(part) {
			err = fmt.Errorf("embedding model returned %d vectors for %d texts", len(vecs), len(part))
		}
		if err != nil {
			x.failed(ctx, err)
			if ctx.Err() == nil {
				x.log.Warn("embed memory chunks; keyword search only until it works", "err", err)
			}
			return
		}
		x.embedErr, x.absent = nil, nil
		for j, c := range part {
			c.Vec = normalize(vecs[j])
		}
		rep.Embedded += len(part)
	}
}

// embedMissing embeds chunks indexed while the embedding model was away.
func (x *Index) embedMissing(ctx context.Context, rep *IndexReport) error {
	if x.opts.Embed == nil || !x.canEmbed() {
		return nil
	}
	rows, err := x.db.QueryContext(ctx, `SELECT n, id, text FROM chunks WHERE vec IS NULL`)
	if err != nil {
		return err
	}
	type row struct {
		n int64
		c Chunk
	}
	var missing []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.n, &r.c.ID, &r.c.Text); err != nil {
			rows.Close()
			return err
		}
		missing = append(missing, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(missing) == 0 {
		return err
	}
	sort.Slice(missing, func(i, j int) bool { return missing[i].c.ID < missing[j].c.ID })
	ptrs := make([]*Chunk, len(missing))
	for i := range missing {
		ptrs[i] = &missing[i].c
	}
	x.embed(ctx, ptrs, rep)
	return x.write(ctx, func(tx *txn, v *vectorSet) error {
		for _, r := range missing {
			if len(r.c.Vec) == 0 {
				continue
			}
			if _, err := tx.Exec(`UPDATE chunks SET vec = ? WHERE n = ? AND id = ?`, vecBlob(r.c.Vec), r.n, r.c.ID); err != nil {
				return err
			}
			if v != nil {
				v.put(r.n, r.c.Vec)
			}
		}
		return nil
	})
}

// vectors returns the vectors, loaded (again) when another process wrote
// since they were.
func (x *Index) vectors() (*vectorSet, error) {
	gen, _ := strconv.ParseInt(getMeta(x.db, "gen"), 10, 64)
	if x.vecs != nil && gen == x.gen {
		return x.vecs, nil
	}
	// Sized first: growing a 150 MB slice by doubling cost more than reading it.
	var total, novec int
	if err := x.db.QueryRow(`SELECT (SELECT count(*) FROM chunks), (SELECT count(*) FROM chunks WHERE vec IS NULL)`).Scan(&total, &novec); err != nil {
		return nil, err
	}
	rows, err := x.db.Query(`SELECT n, vec FROM chunks WHERE vec IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	v := newVectorSet()
	v.rows = make([]int64, 0, total-novec)
	first := true
	for rows.Next() {
		var n int64
		var b []byte
		if err := rows.Scan(&n, &b); err != nil {
			return nil, err
		}
		if first && len(b)%4 == 0 {
			v.data = make([]float32, 0, (total-novec)*len(b)/4)
			first = false
		}
		v.put(n, blobVec(b))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	x.vecs, x.gen = v, gen
	return v, nil
}
