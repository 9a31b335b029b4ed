package recall

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"
)

// vecBlob is one vector as version 6 stored it (the migration tests write that layout).
func vecBlob(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// A block decoded into the set in place holds what put would store, row by row; a
// block of another width, or damaged, adds nothing.
func TestPutBlockIsPut(t *testing.T) {
	blk := &vecBlock{dim: 3}
	blk.vecs[0], blk.vecs[5], blk.vecs[63] = []float32{1, 2, 3}, []float32{0.5, -1, 2}, []float32{4, 5, 6}
	raw := blk.encode()
	a, b := newVectorSet(), newVectorSet()
	for _, i := range []int{0, 5, 63} {
		a.put(2*blockRows+int64(i), blk.vecs[i])
	}
	if !b.putBlock(2, raw) {
		t.Fatal("good block refused")
	}
	if !slices.Equal(a.rows, b.rows) || !slices.Equal(a.data, b.data) || a.dim != b.dim || len(b.pos) != 3 {
		t.Fatalf("put: %v %v, putBlock: %v %v", a.rows, a.data, b.rows, b.data)
	}
	wide := &vecBlock{dim: 4}
	wide.vecs[1] = []float32{1, 1, 1, 1}
	for name, bad := range map[string][]byte{
		"other width": wide.encode(),
		"truncated":   raw[:len(raw)-1],
		"inflated":    append(slices.Clone(raw), 0, 0, 0, 0),
		"huge width":  binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint32(nil, math.MaxUint32), 1),
		"no rows":     make([]byte, blockHeader),
		"short":       {1, 2, 3},
	} {
		if b.putBlock(3, bad) || b.len() != 3 {
			t.Errorf("%s: added, set now %d", name, b.len())
		}
	}
	if d, err := decodeBlock(raw); err != nil || !bytes.Equal(d.encode(), raw) {
		t.Errorf("decode then encode: %v", err)
	}
}

// corruptBlock replaces block b's stored bytes.
func corruptBlock(t *testing.T, x *Index, b int64, raw []byte) {
	t.Helper()
	if _, err := x.db.Exec(`UPDATE vecblocks SET v = ? WHERE b = ?`, raw, b); err != nil {
		t.Fatal(err)
	}
}

// A damaged block (truncated, inflated, another width) costs its vectors only: the
// others load, its chunks are queued and embedded again by the next sync, and search
// stays hybrid.
func TestDamagedBlockEmbeddedAgain(t *testing.T) {
	for name, spoil := range map[string]func([]byte) []byte{
		"truncated":   func(b []byte) []byte { return b[:len(b)-3] },
		"inflated":    func(b []byte) []byte { return append(b, make([]byte, 1<<16)...) },
		"other width": func(b []byte) []byte { return (&vecBlock{dim: 2, vecs: [blockRows][]float32{{1, 0}}}).encode() },
	} {
		t.Run(name, func(t *testing.T) {
			ws, dir := t.TempDir(), t.TempDir()
			var entries []string
			for i := range 3 * blockRows {
				entries = append(entries, "Entry "+strings.Repeat("x", i%7)+" about the walrus number "+itoa(i))
			}
			writeFile(t, ws, HistoryFile, history(entries...))
			fe := &fakeEmbed{}
			x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
			rep, err := x.Sync(context.Background())
			if err != nil || rep.Vectors != rep.Chunks || rep.Chunks < 2*blockRows {
				t.Fatalf("%+v %v", rep, err)
			}
			var blk int64
			var raw []byte
			if err := x.db.QueryRow(`SELECT b, v FROM vecblocks ORDER BY b LIMIT 1 OFFSET 1`).Scan(&blk, &raw); err != nil {
				t.Fatal(err)
			}
			_, mask, _ := blockHead(raw)
			corruptBlock(t, x, blk, spoil(raw))
			x.Close()

			texts := fe.texts.Load()
			y := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
			defer y.Close()
			if err := y.open(); err != nil {
				t.Fatal(err)
			}
			vs, err := y.vectors()
			if lost := popcount(mask); err != nil || vs.len() != rep.Vectors-lost {
				t.Fatalf("loaded %d of %d (%d damaged): %v", vs.len(), rep.Vectors, lost, err)
			}
			rep2, err := y.Sync(context.Background())
			if err != nil || rep2.Vectors != rep.Chunks {
				t.Fatalf("after the repair: %+v %v", rep2, err)
			}
			if got := fe.texts.Load() - texts; got != int64(popcount(mask)) {
				t.Errorf("embedded %d again, want the damaged block's %d", got, popcount(mask))
			}
			if vs, err := y.vectors(); err != nil || vs.len() != rep.Chunks {
				t.Errorf("vectors after the repair: %d %v", vs.len(), err)
			}
			r, err := y.Search(context.Background(), "walrus number 70", 1)
			if err != nil || len(r.Hits) == 0 || r.Hits[0].Mode != ModeHybrid {
				t.Errorf("search: %+v %v", r, err)
			}
		})
	}
}

func popcount(m uint64) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

func itoa(i int) string { return string(rune('a'+i/26%26)) + string(rune('a'+i%26)) }

// The vectors a new process loads are the ones the writer kept in memory, through
// inserts, deletes and reused row numbers, in several transactions.
func TestBlocksMatchMemory(t *testing.T) {
	dir := t.TempDir()
	x := NewIndex(IndexOptions{Dir: dir, Model: "m"})
	if err := x.open(); err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if _, err := x.vectors(); err != nil {
		t.Fatal(err)
	}
	vec := func(i int) []float32 { return normalize([]float32{float32(i), 1, float32(i % 3)}) }
	write := func(fn func(tx *txn, v *vectorSet) error) {
		t.Helper()
		if err := x.write(context.Background(), fn); err != nil {
			t.Fatal(err)
		}
	}
	write(func(tx *txn, v *vectorSet) error {
		for i := range 150 {
			c := &Chunk{ID: "c" + itoa(i), Source: HistoryFile, Text: "text " + itoa(i)}
			if i%10 != 3 {
				c.Vec = vec(i)
			}
			n, err := insertChunk(tx, c)
			if err != nil {
				return err
			}
			v.put(n, c.Vec)
		}
		return nil
	})
	write(func(tx *txn, v *vectorSet) error {
		for i := 100; i < 150; i += 2 {
			if err := removeChunk(tx, v, "c"+itoa(i), &IndexReport{}); err != nil {
				return err
			}
		}
		// The last row goes and its number comes back, without a vector.
		if err := removeChunk(tx, v, "c"+itoa(149), &IndexReport{}); err != nil {
			return err
		}
		_, err := insertChunk(tx, &Chunk{ID: "again", Source: HistoryFile, Text: "again"})
		return err
	})
	mem := x.vecs
	y := NewIndex(IndexOptions{Dir: dir, Model: "m"})
	defer y.Close()
	if err := y.open(); err != nil {
		t.Fatal(err)
	}
	got, err := y.vectors()
	if err != nil || got.len() != mem.len() {
		t.Fatalf("loaded %d, kept %d: %v", got.len(), mem.len(), err)
	}
	for _, n := range mem.rows {
		if !slices.Equal(got.getOrNil(n), mem.getOrNil(n)) {
			t.Errorf("row %d: %v, kept %v", n, got.getOrNil(n), mem.getOrNil(n))
		}
	}
	var pending, want int
	if err := y.db.QueryRow(`SELECT count(*) FROM novec`).Scan(&pending); err != nil {
		t.Fatal(err)
	}
	if err := y.db.QueryRow(`SELECT count(*) FROM chunks`).Scan(&want); err != nil || pending != want-got.len() {
		t.Errorf("%d queued to embed, %d chunks, %d vectors: %v", pending, want, got.len(), err)
	}
}

// FuzzVecBlock gives the block decoder arbitrary bytes: it refuses them or decodes
// a block that encodes back to the same bytes, and the set takes exactly the same.
func FuzzVecBlock(f *testing.F) {
	blk := &vecBlock{dim: 2}
	blk.vecs[0], blk.vecs[9] = []float32{1, 0}, []float32{0, 1}
	f.Add(blk.encode())
	f.Add([]byte{})
	f.Add(make([]byte, blockHeader))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := decodeBlock(b)
		v := newVectorSet()
		ok := v.putBlock(1, b)
		if (err == nil) != ok {
			t.Fatalf("decode %v, putBlock %v", err, ok)
		}
		if err != nil {
			return
		}
		if !bytes.Equal(d.encode(), b) {
			t.Fatal("decode then encode differs")
		}
		for i, vec := range d.vecs {
			if got := v.getOrNil(blockRows + int64(i)); !slices.Equal(got, vec) && !(len(got) == 0 && len(vec) == 0) {
				if !slices.EqualFunc(got, vec, func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }) {
					t.Fatalf("row %d: %v, decoded %v", i, got, vec)
				}
			}
		}
	})
}

func newVectorSet() *vectorSet { return &vectorSet{pos: map[int64]int{}} }
