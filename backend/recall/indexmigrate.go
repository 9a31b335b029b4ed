package recall

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// oldestMigrated is the first version migrate takes: version 3, the index of
// the previous release, kept its vectors in a column of the chunks table and
// its terms unstemmed.
const oldestMigrated = 3

// rowVectors is the version that kept a vector per row of the vectors table,
// packedVectors the first that packed them into blocks.
const rowVectors, packedVectors = 6, 7

// porter2Terms is the first version whose terms are today's; likedMarks the
// first with the liked table (liked.go).
const porter2Terms, likedMarks = 8, 9

// likedCues2 is the first version whose marks know hyphenated liking
// phrases: an older index's marks are made again.
const likedCues2 = 10

// migrateLayout moves an index of versions 3 to 5, whose vectors were a column of
// the chunks table, to the vectors table of version 6, keeping every vector:
// embedding a user's notes again would cost minutes on a CPU. The column goes (the
// chunks table is rewritten once) so that the file's schema is the one a new index
// gets; packVectors then packs them as version 7 does.
var migrateLayout = []string{
	vectorsTable,
	`INSERT OR REPLACE INTO vectors(n, v) SELECT n, vec FROM chunks`,
	`DROP INDEX IF EXISTS chunks_novec`,
	`ALTER TABLE chunks DROP COLUMN vec`,
	vectorsPending,
	dirsTable,
	marksTable,
}

// retokenizeBatch is how many chunks' terms are remade per query: a 100 000-chunk
// index is never read whole into memory.
const retokenizeBatch = 1000

// migrate migrates an index of an older version in one transaction: a kill at
// any point leaves the old index or the new one, never a mix. The transaction
// takes the write lock first (BEGIN IMMEDIATE) and reads the version again under
// it, so two processes opening the same old index migrate it once. Besides the
// layout, the terms are made again from each chunk's text with today's tokenizer
// (versions 4, 5 and 8 changed it), the vectors are packed (version 7) and
// the chunks holding a liking marked (version 9): the chunks and their
// vectors stay.
func migrate(db *sql.DB) (err error) {
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_, _ = conn.ExecContext(ctx, `ROLLBACK`)
		}
	}()
	var v int
	if err := conn.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return err
	}
	switch {
	case v == schemaVersion: // another process migrated it while this one waited
		_, err = conn.ExecContext(ctx, `COMMIT`)
		return err
	case v < oldestMigrated || v > schemaVersion:
		return fmt.Errorf("index of another version (%d)", v)
	}
	if v < rowVectors {
		for _, s := range migrateLayout {
			if _, err := conn.ExecContext(ctx, s); err != nil {
				return err
			}
		}
	}
	if v < porter2Terms {
		if err := retokenize(ctx, conn); err != nil {
			return fmt.Errorf("remake the terms: %w", err)
		}
	}
	if v < packedVectors {
		if err := packVectors(ctx, conn); err != nil {
			return fmt.Errorf("pack the vectors: %w", err)
		}
	}
	if v < likedCues2 {
		if err := fillLiked(ctx, conn); err != nil {
			return fmt.Errorf("mark the likings: %w", err)
		}
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA user_version = `+strconv.Itoa(schemaVersion)); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, `COMMIT`)
	return err
}

// retokenize remakes the terms table, each chunk's term count and the total
// from the chunks' text, a batch at a time.
func retokenize(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, `INSERT INTO terms(terms) VALUES('delete-all')`); err != nil {
		return err
	}
	var total int64
	memo := newStemMemo()
	err := eachChunk(ctx, conn, func(n int64, text string) error {
		terms := memo.tokenize(text)
		if _, err := conn.ExecContext(ctx, `INSERT INTO terms(rowid, t) VALUES(?, ?)`, n, strings.Join(terms, " ")); err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, `UPDATE chunks SET nterms = ? WHERE n = ?`, len(terms), n); err != nil {
			return err
		}
		total += int64(len(terms))
		return nil
	})
	if err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, `UPDATE meta SET value = ? WHERE key = 'tokens'`, strconv.FormatInt(total, 10))
	return err
}

// eachChunk calls fn with every chunk's number and text, in order, reading a
// batch at a time (a migration's pass over an index of any size); fn may write.
func eachChunk(ctx context.Context, conn *sql.Conn, fn func(n int64, text string) error) error {
	type row struct {
		n    int64
		text string
	}
	last := int64(-1 << 62)
	for {
		rows, err := conn.QueryContext(ctx, `SELECT n, text FROM chunks WHERE n > ? ORDER BY n LIMIT ?`, last, retokenizeBatch)
		if err != nil {
			return err
		}
		var batch []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.n, &r.text); err != nil {
				rows.Close()
				return err
			}
			batch = append(batch, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(batch) == 0 {
			return nil
		}
		for _, r := range batch {
			if err := fn(r.n, r.text); err != nil {
				return err
			}
		}
		last = batch[len(batch)-1].n
	}
}

// packVectors moves the vectors of version 6's vectors table into blocks, a batch
// of rows at a time, and queues the chunks it held no vector for.
func packVectors(ctx context.Context, conn *sql.Conn) error {
	for _, s := range []string{vecBlocksTable, novecTable,
		`INSERT OR IGNORE INTO novec(n) SELECT n FROM vectors WHERE v IS NULL`} {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	blk, cur := &vecBlock{}, int64(-1)
	put := func() error {
		if raw := blk.encode(); raw != nil {
			if _, err := conn.ExecContext(ctx, `INSERT OR REPLACE INTO vecblocks(b, v) VALUES(?, ?)`, cur, raw); err != nil {
				return err
			}
		}
		return nil
	}
	last := int64(-1 << 62)
	for {
		rows, err := conn.QueryContext(ctx, `SELECT n, v FROM vectors WHERE n > ? AND v IS NOT NULL ORDER BY n LIMIT ?`, last, retokenizeBatch)
		if err != nil {
			return err
		}
		k := 0
		for rows.Next() {
			var n int64
			var b []byte
			if err := rows.Scan(&n, &b); err != nil {
				rows.Close()
				return err
			}
			k, last = k+1, n
			vec := blobVec(b)
			if n/blockRows != cur {
				if err := put(); err != nil {
					rows.Close()
					return err
				}
				blk, cur = &vecBlock{}, n/blockRows
			}
			if blk.dim == 0 {
				blk.dim = len(vec)
			}
			if len(vec) == 0 || len(vec) != blk.dim {
				// Damaged, or of another width than its block's: embedded again.
				if _, err := conn.ExecContext(ctx, `INSERT OR IGNORE INTO novec(n) VALUES(?)`, n); err != nil {
					rows.Close()
					return err
				}
				continue
			}
			blk.vecs[n%blockRows] = vec
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if k == 0 {
			break
		}
	}
	if err := put(); err != nil {
		return err
	}
	_, err := conn.ExecContext(ctx, `DROP TABLE vectors`)
	return err
}
