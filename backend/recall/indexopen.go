package recall

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

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
				if _, err := tx.Exec(`INSERT OR IGNORE INTO novec(n) SELECT n FROM chunks`); err != nil {
					return err
				}
				if _, err := tx.Exec(`DELETE FROM vecblocks`); err != nil {
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
	x.loadAbsent()
	return nil
}

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
		tx := &txn{Tx: stx, stems: newStemMemo()}
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
		if err := tx.finish(); err != nil {
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
