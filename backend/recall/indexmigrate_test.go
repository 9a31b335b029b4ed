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

// toVersion turns the index in dir back into the layout of version v (3 to 5:
// each chunk's vector a column of the chunks table), the chunk of row pending
// left without a vector, as an index of an earlier build would be. Its terms are
// spoiled (the words of an older tokenizer stand in for them), so only a
// migration that makes them again from the chunks' text finds anything.
func toVersion(t *testing.T, dir string, pending int64, v int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, dbName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{
		`ALTER TABLE chunks ADD COLUMN vec BLOB`,
		`UPDATE chunks SET vec = (SELECT v FROM vectors WHERE vectors.n = chunks.n)`,
		`UPDATE chunks SET vec = NULL WHERE n = ` + strconv.FormatInt(pending, 10),
		`DROP TABLE vectors`,
		`CREATE INDEX chunks_novec ON chunks(n) WHERE vec IS NULL`,
		`INSERT INTO terms(terms) VALUES('delete-all')`,
		`INSERT INTO terms(rowid, t) SELECT n, 'oldtokenizer' FROM chunks`,
		`PRAGMA user_version = ` + strconv.Itoa(v),
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// An index of an earlier version (3, the previous release, to 5) keeps its vectors
// when opened: it is migrated in place (nothing embedded again but the one chunk
// that had no vector), its terms made again by today's tokenizer, ends with the
// schema a new index gets, and answers hybrid and keyword searches.
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
				var n int
				err = db.QueryRow(`SELECT count(*) FROM vectors WHERE v IS NOT NULL`).Scan(&n)
				if err == nil && n != 2 {
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
