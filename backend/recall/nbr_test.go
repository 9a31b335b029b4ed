package recall

import (
	"encoding/binary"
	"slices"
	"strings"
	"testing"
)

// encodeNbr writes a table as scripts/glovenbr does: words (each ended by
// ';'), a count a word, the entries (place, cosine in 255ths).
func encodeNbr(words string, counts []byte, entries []byte) string {
	var body []byte
	for _, s := range [][]byte{[]byte(words), counts, entries} {
		body = binary.LittleEndian.AppendUint32(body, uint32(len(s)))
		body = append(body, s...)
	}
	return nbrMagic + "\x02\x00\x00\x00" + string(body)
}

// The embedded table decodes and holds what it was made for: words people
// say of the same thing that WordNet does not link.
func TestNbrTableShape(t *testing.T) {
	nt, err := decodeNbr(nbrFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(nt.wordAt) - 1; n < 30000 || len(nt.entries)/3 < 100000 {
		t.Fatalf("%d words, %d neighbours: the table lost most of itself", n, len(nt.entries)/3)
	}
	near := func(w string) []string {
		var out []string
		nt.each(w, func(n string, sim float64) bool {
			if sim <= 0 || sim > 1 {
				t.Fatalf("%s: cosine %v", w, sim)
			}
			out = append(out, n)
			return true
		})
		return out
	}
	for w, want := range map[string]string{"flu": "influenza", "jigsaw": "puzzle", "cardigan": "sweater", "dinner": "lunch"} {
		if got := near(w); !slices.Contains(got, want) {
			t.Errorf("%s's neighbours are %v, want %q among them", w, got, want)
		}
	}
	// Days and months are not in it (each is nearest the others), nor
	// stopwords, nor a word's own inflections.
	for _, w := range []string{"monday", "january", "the", "would"} {
		if got := near(w); len(got) != 0 {
			t.Errorf("%s has neighbours %v", w, got)
		}
	}
	if got := near("dinner"); slices.Contains(got, "dinners") || slices.Contains(got, "tuesday") {
		t.Errorf("dinner's neighbours are %v", got)
	}
}

// A damaged file (cut short, a length past its end, an entry naming no
// word, words out of order, trailing bytes, another version, too big)
// decodes to an error, never a panic or a huge allocation;
// the empty table the process then uses finds nothing.
func TestNbrDamaged(t *testing.T) {
	ok := encodeNbr("flu;influenza;", []byte{1, 1}, []byte{1, 0, 230, 0, 0, 230})
	nt, err := decodeNbr(ok)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	nt.each("flu", func(w string, _ float64) bool { got = append(got, w); return true })
	if !slices.Equal(got, []string{"influenza"}) {
		t.Fatalf("flu brings %v", got)
	}
	for name, file := range map[string]string{
		"empty":     "",
		"cut":       ok[:len(ok)/2],
		"version":   nbrMagic + "\x01\x00\x00\x00" + ok[8:],
		"counts":    encodeNbr("flu;influenza;", []byte{1}, []byte{1, 0, 230}),
		"entries":   encodeNbr("flu;influenza;", []byte{1, 1}, []byte{1, 0, 230}),
		"no word":   encodeNbr("flu;influenza;", []byte{1, 0}, []byte{2, 0, 230}),
		"order":     encodeNbr("influenza;flu;", []byte{0, 1}, []byte{0, 0, 230}),
		"length":    ok[:8] + "\xff\xff\xff\x7fflu;",
		"trailing":  ok + "x",
		"huge":      ok[:8] + strings.Repeat("\x00", nbrMaxSize),
		"utf-8":     encodeNbr("flu;influenza;", []byte("\u00e9"), []byte{1, 0, 230}),
		"too short": nbrMagic,
	} {
		if _, err := decodeNbr(file); err == nil {
			t.Errorf("%s: decoded without an error", name)
		}
	}
	empty := &nbrTable{wordAt: []uint32{0}, at: []uint32{0}}
	empty.each("flu", func(string, float64) bool { t.Fatal("the empty table found a neighbour"); return false })
}

// FuzzDecodeNbr: any file decodes to a table the lookups cannot index out
// of, or to an error.
func FuzzDecodeNbr(f *testing.F) {
	f.Add(encodeNbr("flu;influenza;", []byte{1, 1}, []byte{1, 0, 230, 0, 0, 230}))
	f.Add(encodeNbr("a;b", []byte{0, 1}, []byte{0, 0, 1}))
	f.Add(encodeNbr("", nil, nil))
	f.Fuzz(func(t *testing.T, file string) {
		nt, err := decodeNbr(file)
		if err != nil {
			return
		}
		for _, q := range []string{"flu", "influenza", "a", "b", "", "zzz"} {
			nt.each(q, func(w string, sim float64) bool {
				if sim < 0 || sim > 1 {
					t.Fatalf("cosine %v", sim)
				}
				return true
			})
		}
	})
}

// A question's words bring their neighbours below WordNet's weight, a few
// a word, marked so that no passage is cut around them; a name brings none
// (its neighbours are other names).
func TestExpandNbr(t *testing.T) {
	nbrs := func(q string) map[string]float64 {
		m := map[string]float64{}
		for _, r := range expand(q, uniq(tokenize(q))) {
			if r.nbr {
				m[r.term] = r.weight
			}
		}
		return m
	}
	got := nbrs("Which jigsaw did I do?")
	if w, ok := got["puzzl"]; !ok || w <= 0 || w > nbrWeight || w >= wnWeight {
		t.Fatalf("jigsaw brings %v, want puzzl below %v", got, wnWeight)
	}
	if got := nbrs("my flu jab"); len(got) == 0 || len(got) > 2*nbrPer {
		t.Fatalf("flu jab brings %v", got)
	}
	if got := nbrs("When did Sam and I meet Leeds?"); got["lee"] > 0 || got["manchest"] > 0 {
		t.Fatalf("names brought %v", got)
	}
	w := wordsOf("Which jigsaw did I do?")
	if slices.Contains(w.cut, "puzzl") {
		t.Fatalf("a passage is cut around a neighbour: %v", w.cut)
	}
	long := strings.Repeat("jigsaw cardigan podcast knitting scented ", 200)
	if n := len(nbrs(long)); n > maxNbr {
		t.Fatalf("%d neighbours, want at most %d", n, maxNbr)
	}
}

// A question sharing no word, nor a WordNet synonym, with the passage that
// answers it finds it through a neighbour, above a passage about something
// else.
func TestSearchFindsNeighbour(t *testing.T) {
	for _, r := range expand("Which jigsaw did I do?", uniq(tokenize("Which jigsaw did I do?"))) {
		if r.term == "puzzl" && !r.nbr {
			t.Skip("WordNet links jigsaw and puzzle now: pick another pair")
		}
	}
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, history(
		"Finished the thousand-piece puzzle of Venice at last, took all winter.",
		"Walked the dog along the canal before work.",
		"Booked the car in for its service on the high street."))
	x := NewIndex(IndexOptions{Workspace: ws, Dir: t.TempDir()})
	defer x.Close()
	r, err := x.Search(t.Context(), "Which jigsaw did I do?", 3)
	if err != nil || len(r.Hits) == 0 || !strings.Contains(r.Hits[0].Snippet, "Venice") {
		t.Fatalf("%+v %v", r, err)
	}
}

// BenchmarkDecodeNbr is what the first query of a process pays.
func BenchmarkDecodeNbr(b *testing.B) {
	for b.Loop() {
		if _, err := decodeNbr(nbrFile); err != nil {
			b.Fatal(err)
		}
	}
}
