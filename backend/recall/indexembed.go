package recall

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
)

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
		x.forgetAbsent()
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
	x.missingScans++
	rows, err := x.db.QueryContext(ctx, `SELECT c.n, c.id, c.text FROM novec p JOIN chunks c ON c.n = p.n`)
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
			// Only if row n is still that chunk (another process may have replaced it).
			res, err := tx.Exec(`DELETE FROM novec WHERE n = ?1 AND EXISTS(SELECT 1 FROM chunks WHERE n = ?1 AND id = ?2)`, r.n, r.c.ID)
			if err != nil {
				return err
			}
			if k, err := res.RowsAffected(); err != nil || k == 0 {
				continue
			}
			if err := tx.setVec(r.n, r.c.Vec); err != nil {
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
// since they were. A damaged block is left out and its chunks queued to embed
// again.
func (x *Index) vectors() (*vectorSet, error) {
	gen, _ := strconv.ParseInt(getMeta(x.db, "gen"), 10, 64)
	if x.vecs != nil && gen == x.gen {
		return x.vecs, nil
	}
	// Sized first: growing a 150 MB slice by doubling cost more than reading it.
	var total, novec int
	if err := x.db.QueryRow(`SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'docs'), 0), (SELECT count(*) FROM novec)`).Scan(&total, &novec); err != nil {
		return nil, err
	}
	rows, err := x.db.Query(`SELECT b, v FROM vecblocks ORDER BY b`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	total = max(total-novec, 0)
	v := &vectorSet{rows: make([]int64, 0, total)} // in row order: no pos map (vectors.go)
	var damaged []int64
	var b sql.RawBytes // decoded in place: no copy of the blob
	for rows.Next() {
		var blk int64
		if err := rows.Scan(&blk, &b); err != nil {
			return nil, err
		}
		if v.data == nil {
			if dim, _, err := blockHead(b); err == nil {
				v.data = make([]float32, 0, total*dim)
			}
		}
		if !v.putBlock(blk, b) {
			damaged = append(damaged, blk)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	x.vecs, x.gen = v, gen
	if len(damaged) > 0 {
		x.log.Warn("memory index: damaged vectors dropped, to embed again", "blocks", len(damaged))
		// The set holds none of theirs: it stays valid across this write.
		err := x.write(context.Background(), func(tx *txn, _ *vectorSet) error {
			for _, blk := range damaged {
				if err := requeueBlock(tx, blk); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			x.log.Warn("memory index: queue damaged vectors", "err", err)
		}
	}
	return v, nil
}
