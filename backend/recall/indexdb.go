package recall

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	_ "modernc.org/sqlite" // pure-Go SQLite with FTS5: no cgo in the build
)

// The recall index is kept in one SQLite file (index.db in the index folder):
// chunks, their vectors packed many to a row (vecblocks.go), the files they came
// from, and an FTS5 table of their terms for BM25. SQLite's journal makes every file's update one
// transaction, so a kill at any point leaves either the old or the new state
// of that file; the sync that follows compares the files again. The database
// stays a cache: deleted or unreadable, it is rebuilt from the Markdown files.

const (
	dbName = "index.db"
	// schemaVersion is PRAGMA user_version: 10 marks likings said with a
	// hyphenated phrase ("my go-to") and "dote", 9 marks the chunks holding a
	// liking of the user's (liked.go), 8 stems with Porter2 (stem.go), 7
	// packs the vectors many to a row, 6 kept them in a table of their own, a
	// row each; 4 stemmed the terms, 5 folded Traditional Chinese to
	// Simplified. An index of version 3 to 9 is migrated in place
	// (indexmigrate.go), another number starts over.
	schemaVersion = 10
	// legacyLog is the hand-built log of older versions, removed on sight.
	legacyLog = "chunks.log"
)

var schema = []string{
	`CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS files(source TEXT PRIMARY KEY, size INTEGER NOT NULL, mod INTEGER NOT NULL, hash TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS chunks(n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, source TEXT NOT NULL,
		title TEXT NOT NULL, date TEXT NOT NULL, text TEXT NOT NULL, pos INTEGER NOT NULL DEFAULT 0,
		nterms INTEGER NOT NULL DEFAULT 0)`,
	`CREATE INDEX IF NOT EXISTS chunks_source ON chunks(source)`,
	vecBlocksTable,
	novecTable,
	// Contentless: the terms are only searched, the text lives in chunks.
	`CREATE VIRTUAL TABLE IF NOT EXISTS terms USING fts5(t, content='', contentless_delete=1)`,
	// Each term's document count, for the BM25 the index ranks with.
	`CREATE VIRTUAL TABLE IF NOT EXISTS vocab USING fts5vocab(terms, 'row')`,
	dirsTable,
	marksTable,
	likedTable,
	likedTermsTable,
	// Chunk and term totals, kept by insertChunk and deleteChunk.
	`INSERT OR IGNORE INTO meta(key, value) VALUES('docs', '0'), ('tokens', '0')`,
}

// The vectors are kept packed, many to a row (vecblocks.go); vectorsTable and
// vectorsPending are the layout of version 6, kept for its migration.
const (
	vectorsTable   = `CREATE TABLE IF NOT EXISTS vectors(n INTEGER PRIMARY KEY, v BLOB)`
	vectorsPending = `CREATE INDEX IF NOT EXISTS vectors_pending ON vectors(n) WHERE v IS NULL`
)

// dirsTable holds the note folders' mtimes (notedirs.go); an index made before
// it existed gets it when opened.
const dirsTable = `CREATE TABLE IF NOT EXISTS dirs(dir TEXT PRIMARY KEY, mod INTEGER NOT NULL)`

// openDB opens (creating) the index database at p, or an in-memory one when p
// is "". It checks the schema version; a file that is not a database, or of
// another version, is an error the caller answers by starting over.
func openDB(p string) (*sql.DB, error) {
	dsn := "file::memory:"
	if p != "" {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return nil, err
		}
		// WAL lets the desktop app read while a CLI command writes; NORMAL sync
		// can lose the last transactions on power loss, never consistency, and
		// a lost update is redone by the next sync.
		// A URI, escaped: a '#' or '?' in a folder name is part of the path.
		u := url.URL{Scheme: "file", Path: p,
			RawQuery: "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"}
		dsn = u.String()
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	// One connection: the Index serialises its use anyway, and an in-memory
	// database lives only as long as its connection.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	var v int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		db.Close()
		return nil, err
	}
	if v >= oldestMigrated && v < schemaVersion {
		if err := migrate(db); err != nil {
			db.Close()
			return nil, fmt.Errorf("migrate index of version %d: %w", v, err)
		}
		v = schemaVersion
	}
	if v != 0 && v != schemaVersion {
		db.Close()
		return nil, fmt.Errorf("index of another version (%d)", v)
	}
	if v == 0 {
		// A new file, or one made by an interrupted create: (re)make the schema.
		tx, err := db.Begin()
		if err != nil {
			db.Close()
			return nil, err
		}
		for _, s := range schema {
			if _, err := tx.Exec(s); err != nil {
				tx.Rollback()
				db.Close()
				return nil, fmt.Errorf("create index schema: %w", err)
			}
		}
		if _, err := tx.Exec(`PRAGMA user_version = ` + strconv.Itoa(schemaVersion)); err != nil {
			tx.Rollback()
			db.Close()
			return nil, err
		}
		if err := tx.Commit(); err != nil {
			db.Close()
			return nil, err
		}
	} else {
		for _, t := range []string{dirsTable, marksTable} {
			if _, err := db.Exec(t); err != nil {
				db.Close()
				return nil, err
			}
		}
	}
	return db, nil
}

// removeDB deletes the index database of folder dir and its journal files.
func removeDB(dir string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(filepath.Join(dir, dbName+suffix))
	}
}

func getMeta(q querier, key string) string {
	var v string
	_ = q.QueryRow(`SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	return v
}

func setMeta(q querier, key, value string) error {
	_, err := q.Exec(`INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	Exec(query string, args ...any) (sql.Result, error)
	Query(query string, args ...any) (*sql.Rows, error)
	QueryRow(query string, args ...any) *sql.Row
}

// loadFiles reads what the index knows of the sources that match where (an SQL
// condition on source, from this package only).
func loadFiles(q querier, where string, args ...any) (map[string]fileState, error) {
	rows, err := q.Query(`SELECT source, size, mod, hash FROM files WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]fileState{}
	for rows.Next() {
		var src string
		var st fileState
		if err := rows.Scan(&src, &st.Size, &st.ModNano, &st.Hash); err != nil {
			return nil, err
		}
		out[src] = st
	}
	return out, rows.Err()
}

// chunkIDs are the IDs of a source's chunks in the index.
func chunkIDs(q querier, src string) (map[string]bool, error) {
	return chunkIDsFrom(q, src, 0)
}

// hasChunk reports whether the index holds a chunk with ID id.
func hasChunk(q querier, id string) (bool, error) {
	var n int
	err := q.QueryRow(`SELECT count(*) FROM chunks WHERE id = ?`, id).Scan(&n)
	return n > 0, err
}

// twins counts the chunks with ID base or base~N (the same text again in
// the same file).
func twins(q querier, base string) (int, error) {
	var n int
	err := q.QueryRow(`SELECT count(*) FROM chunks WHERE id = ?1 OR (id > ?1 || '~' AND id < ?1 || '~~')`, base).Scan(&n)
	return n, err
}

// txn is a write transaction and the chunk and term totals it moves,
// written once at its end (an update per chunk cost more than the inserts).
type txn struct {
	*sql.Tx
	docs, tokens int
	stems        *stemMemo
	// blocks are the vector blocks read, dirty those changed (vecblocks.go).
	blocks map[int64]*vecBlock
	dirty  map[int64]bool
}

// insertChunk adds one chunk, its terms and its vector (or its place in the
// queue to embed); it returns the chunk's row.
func insertChunk(tx *txn, c *Chunk) (int64, error) {
	terms := tx.stems.tokenize(c.Text)
	r, err := tx.Exec(`INSERT INTO chunks(id, source, title, date, text, pos, nterms) VALUES(?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.Source, c.Title, c.Date, c.Text, c.Pos, len(terms))
	if err != nil {
		return 0, err
	}
	n, err := r.LastInsertId()
	if err != nil {
		return 0, err
	}
	// A row number is reused after its chunk is deleted: setVec replaces.
	if err = tx.setVec(n, c.Vec); err != nil {
		return 0, err
	}
	if len(c.Vec) == 0 {
		if _, err = tx.Exec(`INSERT OR IGNORE INTO novec(n) VALUES(?)`, n); err != nil {
			return 0, err
		}
	}
	if _, err = tx.Exec(`INSERT INTO terms(rowid, t) VALUES(?, ?)`, n, strings.Join(terms, " ")); err != nil {
		return 0, err
	}
	if err = markLiked(context.Background(), tx, tx.stems, n, c.Text, terms); err != nil {
		return 0, err
	}
	tx.docs++
	tx.tokens += len(terms)
	return n, nil
}

// finish writes the vector blocks and the totals a transaction changed.
func (tx *txn) finish() error {
	if err := tx.flush(); err != nil {
		return err
	}
	if tx.docs == 0 && tx.tokens == 0 {
		return nil
	}
	_, err := tx.Exec(`UPDATE meta SET value = CAST(value AS INTEGER) + CASE key WHEN 'docs' THEN ? ELSE ? END
		WHERE key IN ('docs', 'tokens')`, tx.docs, tx.tokens)
	tx.docs, tx.tokens = 0, 0
	return err
}

// deleteChunk removes one chunk, its terms and its vector; it returns its row (0: none).
func deleteChunk(tx *txn, id string) (int64, error) {
	var n int64
	var nterms int
	err := tx.QueryRow(`DELETE FROM chunks WHERE id = ? RETURNING n, nterms`, id).Scan(&n, &nterms)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if _, err = tx.Exec(`DELETE FROM terms WHERE rowid = ?`, n); err != nil {
		return 0, err
	}
	if _, err = tx.Exec(`DELETE FROM novec WHERE n = ?`, n); err != nil {
		return 0, err
	}
	if err = unmarkLiked(context.Background(), tx, n); err != nil {
		return 0, err
	}
	if err = tx.setVec(n, nil); err != nil {
		return 0, err
	}
	tx.docs--
	tx.tokens -= nterms
	return n, nil
}

// blobVec decodes a vector; a blob whose length is no multiple of 4 is
// damage and gives no vector.
func blobVec(b []byte) []float32 {
	if len(b) == 0 || len(b)%4 != 0 {
		return nil
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// ftsQuery is the FTS5 expression for terms: any of them (BM25 ranks the
// chunks with more and rarer ones first). The terms are letters and digits
// only, quoted so none is read as an FTS5 keyword.
func ftsQuery(terms []string) string {
	q := make([]string, len(terms))
	for i, t := range terms {
		q[i] = `"` + t + `"`
	}
	return strings.Join(q, " OR ")
}

// withTx runs fn in a write transaction.
func withTx(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
