package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// likedCount counts the marks and their indexed terms.
func likedCount(t *testing.T, x *Index) (marks, terms int) {
	t.Helper()
	if err := x.db.QueryRow(`SELECT count(*) FROM liked`).Scan(&marks); err != nil {
		t.Fatal(err)
	}
	if err := x.db.QueryRow(`SELECT count(*) FROM likedterms`).Scan(&terms); err != nil {
		t.Fatal(err)
	}
	return marks, terms
}

func likingSnippets(t *testing.T, x *Index, q Query) string {
	t.Helper()
	res, err := x.Find(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.Source+": "+h.Snippet)
	}
	return strings.Join(got, "\n")
}

// A chunk is marked when indexed and unmarked when it goes; a liking older
// than many passages holding a cue word in passing is still given (the
// marks are read, not the newest passages holding a cue).
func TestLikedMarksFollowTheChunks(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "notes/old.md", "A pot of jasmine pearls in the afternoon is my idea of bliss.")
	x := NewIndex(IndexOptions{Workspace: ws, Dir: t.TempDir()})
	defer x.Close()
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := range 150 {
		writeFile(t, ws, fmt.Sprintf("notes/n%03d.md", i), fmt.Sprintf("It looks like rain on day %d, the roof would love a fix.", i))
	}
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if m, n := likedCount(t, x); m != 1 || n != 1 {
		t.Fatalf("%d marks, %d indexed, want the one liking", m, n)
	}
	q := Query{Text: "What should a host brew for me when I visit?", K: 10, Likings: 4}
	if all := likingSnippets(t, x, q); !strings.Contains(all, "notes/old.md: A pot of jasmine pearls") {
		t.Errorf("the older liking is missing:\n%s", all)
	}
	writeFile(t, ws, "notes/old.md", "The kettle broke twice this week.")
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if m, n := likedCount(t, x); m != 0 || n != 0 {
		t.Errorf("%d marks, %d indexed after the liking went", m, n)
	}
}

// An index of version 8 gets its marks when migrated.
func TestMigrateMarksLikings(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	writeFile(t, ws, "notes/a.md", "A pot of jasmine pearls in the afternoon is my idea of bliss. The kettle broke twice this week.")
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir})
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	x.Close()
	toVersion(t, dir, -1, porter2Terms)
	y := NewIndex(IndexOptions{Workspace: ws, Dir: dir})
	defer y.Close()
	all := likingSnippets(t, y, Query{Text: "What should a host brew for me when I visit?", K: 10, Likings: 2})
	if !strings.Contains(all, "jasmine") || strings.Contains(all, "kettle") {
		t.Errorf("after migration:\n%s", all)
	}
	var v int
	if err := y.db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil || v != schemaVersion {
		t.Errorf("version %d %v", v, err)
	}
	if m, n := likedCount(t, y); m != 1 || n != 1 {
		t.Errorf("%d marks, %d indexed", m, n)
	}
}

// An index of version 9 has its marks made again: the older cues missed a
// liking said with a hyphenated phrase ("my go-to").
func TestMigrateRemarksLikings(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	writeFile(t, ws, "notes/a.md", "My go-to from the deli is a Reuben, every single time. The kettle broke twice this week.")
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir})
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	x.Close()
	toVersion(t, dir, -1, likedMarks)
	y := NewIndex(IndexOptions{Workspace: ws, Dir: dir})
	defer y.Close()
	all := likingSnippets(t, y, Query{Text: "What should I grab for my midday meal?", K: 10, Likings: 2})
	if !strings.Contains(all, "Reuben") || strings.Contains(all, "kettle") {
		t.Errorf("after migration:\n%s", all)
	}
	if m, n := likedCount(t, y); m != 1 || n != 1 {
		t.Errorf("%d marks, %d indexed", m, n)
	}
}

// Damaged marks (a row of no chunk, a huge statement, terms with line
// breaks, indexed terms of no mark) give no error and nothing unbounded.
func TestLikedDamagedRows(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "notes/a.md", "I could eat aged Comté by the slab, honestly.")
	x := NewIndex(IndexOptions{Workspace: ws, Dir: t.TempDir()})
	defer x.Close()
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("I love cheese. ", 1<<16)
	for _, s := range []string{
		`UPDATE liked SET said = ?1, terms = ?1 || char(10) || '7 cheese' || char(10) || 'x y'`,
		`INSERT INTO liked(n, said, terms) VALUES(99999, ?1, 'cheese')`,
		`INSERT INTO likedterms(rowid, t) VALUES(88888, 'cheese')`,
	} {
		if _, err := x.db.Exec(s, huge); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	res, err := x.Find(context.Background(), Query{Text: "Which cheese would I enjoy?", K: 10, Likings: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 {
		t.Fatal("no hits")
	}
	for _, h := range res.Hits {
		if len(h.Snippet) > maxLikingBytes+len("…") || h.Source != "notes/a.md" {
			t.Errorf("%s: %d bytes", h.Source, len(h.Snippet))
		}
	}
}

// A passage no chunker made, with thousands of liking sentences, is marked
// with a bounded statement.
func TestLikedHugePassageBounded(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "I love tea number %d. ", i)
	}
	if said := likingStatements(b.String()); len(said) > maxLikedBytes || !strings.HasPrefix(said, "I love tea number 0.") {
		t.Errorf("%d bytes: %.60q", len(said), said)
	}
	if said := likingStatements("I love " + strings.Repeat("tea", maxLikedBytes)); len(said) > maxLikedBytes+len("…") || said == "" {
		t.Errorf("one long sentence: %d bytes", len(said))
	}
	x := NewIndex(IndexOptions{})
	if err := x.open(); err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	err := x.write(context.Background(), func(tx *txn, _ *vectorSet) error {
		_, err := insertChunk(tx, &Chunk{ID: "big", Source: HistoryFile, Text: b.String()})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := x.db.QueryRow(`SELECT length(said) FROM liked`).Scan(&n); err != nil || n > maxLikedBytes {
		t.Errorf("stored %d bytes, %v", n, err)
	}
}
