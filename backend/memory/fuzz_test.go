package memory

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// oldLog27 is the crafted 27-byte chunks.log of the old hand-built format: a
// frame with a valid CRC-32 around a put record whose vector length (2^62)
// overflowed the bounds check, which made that loader panic. The format is
// gone; the file is removed on sight and the index still answers, also
// when the same bytes stand in for the database.
var oldLog27 = []byte{0x13, 0x00, 0x00, 0x00, 0xd4, 0xbc, 0x99, 0x7a, 0x02, 0x04, 0x61, 0x62, 0x63, 0x64, 0x00, 0x00,
	0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40}

func TestOldCrafted27ByteLog(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	writeFile(t, ws, HistoryFile, history("The heron fishes at dawn."))
	if len(oldLog27) != 27 {
		t.Fatalf("%d bytes", len(oldLog27))
	}
	os.WriteFile(filepath.Join(dir, legacyLog), oldLog27, 0o600)
	os.WriteFile(filepath.Join(dir, dbName), oldLog27, 0o600) // and as the database
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir})
	defer x.Close()
	r, err := x.Search(context.Background(), "heron", 1)
	if err != nil || len(r.Hits) != 1 {
		t.Fatalf("%+v %v", r, err)
	}
}

// FuzzIndexFile gives the index arbitrary bytes as its database file: it
// must open it or start over and search without a panic or an error. (A
// damaged page SQLite cannot tell from a good one may give wrong hits until
// `hearth memory reindex`; SQLite keeps no page checksums.)
func FuzzIndexFile(f *testing.F) {
	ws, dir := f.TempDir(), f.TempDir()
	writeFile(f, ws, HistoryFile, history("The heron fishes at dawn.", "Otters play in the river."))
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: (&fakeEmbed{}).embed, Model: "m"})
	if _, err := x.Sync(context.Background()); err != nil {
		f.Fatal(err)
	}
	x.Close()
	good, err := os.ReadFile(filepath.Join(dir, dbName))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(oldLog27)
	f.Add([]byte("SQLite format 3\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, dbName), b, 0o600); err != nil {
			t.Fatal(err)
		}
		x := NewIndex(IndexOptions{Workspace: ws, Dir: d, Embed: (&fakeEmbed{}).embed, Model: "m"})
		defer x.Close()
		if _, err := x.Search(context.Background(), "otters river", 2); err != nil {
			t.Fatalf("search over a damaged index: %v", err)
		}
	})
}

// FuzzInboxProposal gives the memory inbox arbitrary bytes as a waiting proposal
// (.hearth/inbox/<id>.json — a file the user or a sync tool may damage): listing,
// approving and rejecting its hunks must end in an answer or an error, never a
// panic, and a hunk that no longer fits the file touches nothing.
func FuzzInboxProposal(f *testing.F) {
	good, _ := json.Marshal(Proposal{ID: "p1", File: MemoryFile, Author: AuthorDream, Reason: "r",
		Hunks: []Hunk{{ID: 0, OldStart: 1, Old: []string{"- a\n"}, New: []string{"- b\n"}, Before: "# Memory\n", Status: "pending"}}})
	f.Add(good)
	f.Add([]byte(`{"id":"p1","file":"memory/MEMORY.md","hunks":[{"oldStart":-5,"new":["x"],"status":"pending"}]}`))
	f.Add([]byte(`{"id":"p1","file":"../../etc/passwd","hunks":[{"oldStart":99999999,"old":["- a\n"],"status":"pending"}]}`))
	f.Add([]byte(`{"id":"p1","file":"SOUL.md","hunks":[{"oldStart":0,"old":[],"new":[],"before":"","status":"pending"}]}`))
	f.Add([]byte(`{"id":"p1","hunks":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ws := t.TempDir()
		writeFile(t, ws, MemoryFile, "# Memory\n- a\n- c\n")
		st := NewStore(ws, nil)
		st.useState(t.TempDir(), nil)
		in := newInbox(st, nil, nil)
		if err := os.MkdirAll(in.dir(), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(in.dir(), "p1.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		ps, err := in.List()
		if err != nil {
			return
		}
		for _, p := range ps {
			for i := range p.Hunks {
				_, _ = in.Decide(p.ID, i, []string{"approve", "reject"}[i%2], nil)
			}
		}
	})
}
