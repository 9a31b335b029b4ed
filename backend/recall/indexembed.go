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
	rows, err := x.db.QueryContext(ctx, `SELECT c.n, c.id, c.text FROM vectors v JOIN chunks c ON c.n = v.n WHERE v.v IS NULL`)
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
			if _, err := tx.Exec(`UPDATE vectors SET v = ?1 WHERE n = ?2 AND EXISTS(SELECT 1 FROM chunks WHERE n = ?2 AND id = ?3)`,
				vecBlob(r.c.Vec), r.n, r.c.ID); err != nil {
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
	if err := x.db.QueryRow(`SELECT (SELECT count(*) FROM chunks), (SELECT count(*) FROM vectors WHERE v IS NULL)`).Scan(&total, &novec); err != nil {
		return nil, err
	}
	// The narrow vectors table alone: the chunks' text is not read.
	rows, err := x.db.Query(`SELECT n, v FROM vectors WHERE v IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	v := newVectorSet()
	total = max(total-novec, 0)
	v.rows = make([]int64, 0, total)
	v.pos = make(map[int64]int, total)
	first := true
	var b sql.RawBytes // the blob is decoded in place: no copy, no vector per row
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n, &b); err != nil {
			return nil, err
		}
		if first && len(b)%4 == 0 && len(b) > 0 {
			v.data = make([]float32, 0, total*len(b)/4)
			first = false
		}
		v.putBlob(n, b)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	x.vecs, x.gen = v, gen
	return v, nil
}
