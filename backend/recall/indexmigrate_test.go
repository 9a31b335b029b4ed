package recall

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// toVersion turns the index in dir back into the layout of version v: 8 had
// no liked table (its terms are today's, left as they are), 7 packed
// the vectors as today, 6 kept a vector per row of the vectors table, 3 to 5 each
// chunk's vector in a column of the chunks table. The chunk of row pending is left
// without a vector, as an index of an earlier build would be. Its terms are
// spoiled (the words of an older tokenizer stand in for them), so only a migration
// that makes them again from the chunks' text finds anything.
func toVersion(t *testing.T, dir string, pending int64, v int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, dbName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(stmts ...string) {
		t.Helper()
		for _, s := range stmts {
			if _, err := db.Exec(s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	if v == likedMarks {
		// Marked by the older cues, which missed every mark here.
		unpackVector(t, db, pending)
		exec(`DELETE FROM liked`, `INSERT INTO likedterms(likedterms) VALUES('delete-all')`, `PRAGMA user_version = 9`)
		return
	}
	exec(`DROP TABLE liked`, `DROP TABLE likedterms`)
	if v == porter2Terms {
		unpackVector(t, db, pending)
		exec(`PRAGMA user_version = 8`)
		return
	}
	exec(`INSERT INTO terms(terms) VALUES('delete-all')`, `INSERT INTO terms(rowid, t) SELECT n, 'oldtokenizer' FROM chunks`)
	if v == 7 {
		unpackVector(t, db, pending)
		exec(`PRAGMA user_version = 7`)
		return
	}
	exec(vectorsTable, `INSERT INTO vectors(n, v) SELECT n, NULL FROM novec`)
	rows, err := db.Query(`SELECT b, v FROM vecblocks`)
	if err != nil {
		t.Fatal(err)
	}
	type vec struct {
		n int64
		v []byte
	}
	var vecs []vec
	for rows.Next() {
		var b int64
		var raw []byte
		if err := rows.Scan(&b, &raw); err != nil {
			t.Fatal(err)
		}
		blk, err := decodeBlock(raw)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range blk.vecs {
			if len(v) > 0 {
				vecs = append(vecs, vec{b*blockRows + int64(i), vecBlob(v)})
			}
		}
	}
	rows.Close()
	for _, r := range vecs {
		if _, err := db.Exec(`INSERT INTO vectors(n, v) VALUES(?, ?)`, r.n, r.v); err != nil {
			t.Fatal(err)
		}
	}
	exec(`UPDATE vectors SET v = NULL WHERE n = `+strconv.FormatInt(pending, 10), vectorsPending,
		`DROP TABLE vecblocks`, `DROP TABLE novec`, `PRAGMA user_version = 6`)
	if v == 6 {
		return
	}
	exec(
		`ALTER TABLE chunks ADD COLUMN vec BLOB`,
		`UPDATE chunks SET vec = (SELECT v FROM vectors WHERE vectors.n = chunks.n)`,
		`DROP TABLE vectors`,
		`CREATE INDEX chunks_novec ON chunks(n) WHERE vec IS NULL`,
		`PRAGMA user_version = `+strconv.Itoa(v),
	)
}

// unpackVector drops row pending's vector from its block and queues the row, as
// a version 7 index that had not embedded it yet would hold it.
func unpackVector(t *testing.T, db *sql.DB, pending int64) {
	t.Helper()
	if pending < 0 {
		return
	}
	var raw []byte
	if err := db.QueryRow(`SELECT v FROM vecblocks WHERE b = ?`, pending/blockRows).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	blk, err := decodeBlock(raw)
	if err != nil {
		t.Fatal(err)
	}
	blk.vecs[pending%blockRows] = nil
	if _, err := db.Exec(`UPDATE vecblocks SET v = ? WHERE b = ?`, blk.encode(), pending/blockRows); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT OR IGNORE INTO novec(n) VALUES(?)`, pending); err != nil {
		t.Fatal(err)
	}
}

// storedVectors counts the vectors the index file holds.
func storedVectors(t *testing.T, q querier) int {
	t.Helper()
	rows, err := q.Query(`SELECT v FROM vecblocks`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			t.Fatal(err)
		}
		_, mask, err := blockHead(raw)
		if err != nil {
			t.Fatal(err)
		}
		n += popcount(mask)
	}
	return n
}

// An index of an earlier version (3, the previous release, to 6) keeps its vectors
// when opened: it is migrated in place (nothing embedded again but the one chunk
// that had no vector), its terms made again by today's tokenizer, its
// vectors packed, ends with the schema a new index gets, and answers hybrid and
// keyword searches.
func TestMigrateKeepsVectors(t *testing.T) {
	for v := oldestMigrated; v < schemaVersion; v++ {
		t.Run(strconv.Itoa(v), func(t *testing.T) { migrateKeepsVectors(t, v) })
	}
}

func migrateKeepsVectors(t *testing.T, version int) {
	ws, dir := t.TempDir(), t.TempDir()
	writeFile(t, ws, HistoryFile, history("The walrus sleeps on the ice.", "Cooked lentil soup with cumin.", "Paid the electricity bill."))
	fe := &fakeEmbed{}
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
	if rep, err := x.Sync(context.Background()); err != nil || rep.Vectors != 3 {
		t.Fatalf("%+v %v", rep, err)
	}
	var pending int64
	if err := x.db.QueryRow(`SELECT n FROM chunks WHERE text LIKE '%lentil%'`).Scan(&pending); err != nil {
		t.Fatal(err)
	}
	x.Close()
	toVersion(t, dir, pending, version)

	texts := fe.texts.Load()
	y := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
	defer y.Close()
	rep, err := y.Sync(context.Background())
	if err != nil || rep.Rebuilt || rep.Chunks != 3 || rep.Vectors != 3 || rep.Embedded != 1 {
		t.Fatalf("after migration: %+v %v", rep, err)
	}
	if got := fe.texts.Load() - texts; got != 1 {
		t.Errorf("embedded %d texts again, want the one without a vector", got)
	}
	var v int
	if err := y.db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil || v != schemaVersion {
		t.Errorf("version %d %v", v, err)
	}
	var cols int
	if err := y.db.QueryRow(`SELECT count(*) FROM pragma_table_info('chunks') WHERE name = 'vec'`).Scan(&cols); err != nil || cols != 0 {
		t.Errorf("chunks.vec left: %d %v", cols, err)
	}
	var tables int
	if err := y.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name IN ('vectors', 'vectors_pending')`).Scan(&tables); err != nil || tables != 0 {
		t.Errorf("version 6's vectors table left: %d %v", tables, err)
	}
	if n := storedVectors(t, y.db); n != 3 {
		t.Errorf("%d vectors stored, want 3", n)
	}
	vs, err := y.vectors()
	if err != nil || vs.len() != 3 {
		t.Fatalf("vectors: %v %v", vs, err)
	}
	r, err := y.Search(context.Background(), "walrus ice", 1)
	if err != nil || len(r.Hits) == 0 || r.Hits[0].Mode != ModeHybrid || !strings.Contains(r.Hits[0].Snippet, "walrus") {
		t.Errorf("search: %+v %v", r, err)
	}
	// The terms are today's: a keyword search by a stemmed form finds the chunk.
	kw := NewIndex(IndexOptions{Workspace: ws, Dir: dir})
	defer kw.Close()
	r, err = kw.Search(context.Background(), "cooking lentils", 1)
	if err != nil || len(r.Hits) == 0 || !strings.Contains(r.Hits[0].Snippet, "lentil") {
		t.Errorf("keyword search after the terms were remade: %+v %v", r, err)
	}
	var tokens, nterms int
	if err := y.db.QueryRow(`SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'tokens'`).Scan(&tokens); err != nil {
		t.Fatal(err)
	}
	if err := y.db.QueryRow(`SELECT sum(nterms) FROM chunks`).Scan(&nterms); err != nil || tokens != nterms || tokens == 0 {
		t.Errorf("term totals %d, chunks %d: %v", tokens, nterms, err)
	}
}

// Two processes opening one old index at once migrate it once; both end up
// with the new schema.
func TestMigrateTwoOpenersAtOnce(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	writeFile(t, ws, HistoryFile, history("The narwhal has one long tooth.", "Visited grandma in the hospital."))
	fe := &fakeEmbed{}
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	x.Close()
	toVersion(t, dir, -1, oldestMigrated)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := openDB(filepath.Join(dir, dbName))
			if err == nil {
				if n := storedVectors(t, db); n != 2 {
					t.Errorf("opener %d: %d vectors", i, n)
				}
				db.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("opener %d: %v", i, err)
		}
	}
}
