package recall

import (
	"context"
	"fmt"
	"time"
)

// writeBatch is about how many rows one sync transaction writes: big enough
// that a first build of thousands of notes is a few commits, small enough
// that a kill loses little.
const writeBatch = 5000

// mergeAfter is how many chunks a sync adds or removes before it merges the
// term index into one segment.
const mergeAfter = 1000

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
		if _, ok := srcs[src]; !ok && !isKnowledge(src) { // knowledge folders: SyncFolder
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
					if err := removeChunk(tx, v, id, &rep); err != nil {
						return err
					}
				}
				if _, err := tx.Exec(`DELETE FROM files WHERE source = ?`, src); err != nil {
					return err
				}
				if _, err := tx.Exec(`DELETE FROM marks WHERE source = ?`, src); err != nil {
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
	if rep.Added+rep.Removed >= mergeAfter {
		// A big write leaves FTS5's term index in segments that every later
		// write goes on merging a little: a turn's one new chunk would pay for
		// the build for a long time. They are merged into one now instead.
		if _, err := x.db.ExecContext(context.WithoutCancel(ctx), `INSERT INTO terms(terms) VALUES('optimize')`); err != nil {
			return rep, err
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
	if err := x.db.QueryRow(`SELECT count(*) FROM novec`).Scan(&novec); err != nil {
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
