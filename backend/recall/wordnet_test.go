package recall

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"io"
	"slices"
	"strings"
	"testing"
)

// The embedded table decodes (a damaged one would silently bring no
// related words) and is well formed.
func TestWordNetTableShape(t *testing.T) {
	wn, err := decodeWordNet(wordnetFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(wn.keyAt) - 1; n < 30000 || len(wn.groupAt) < 20000 || len(wn.refs) < 100000 || len(wn.excAt) < 1000 {
		t.Fatalf("%d keys, %d groups, %d references, %d irregular forms: the table lost most of itself", n, len(wn.groupAt), len(wn.refs), len(wn.excAt))
	}
	if wn.key("influenza") < 0 || wn.key("ice cream") < 0 || wn.key("zzz") >= 0 {
		t.Fatal("the keys are not found by bisection")
	}
}

// A damaged file — cut short, a length past its end, a reference to no
// group, keys out of order, trailing bytes, another version, a section that
// inflates without end — decodes to an error, never a panic or a huge
// allocation; the lookups on the empty table find nothing.
func TestWordNetDamaged(t *testing.T) {
	wn, _ := decodeWordNet(wordnetFile)
	ok := encodeWordNet(wn.keys, wn.groups, wn.exc, wn.refAt, wn.refs)
	if _, err := decodeWordNet(ok); err != nil {
		t.Fatalf("re-encoded: %v", err)
	}
	badRef := slices.Clone(wn.refs)
	badRef[7] = uint32(len(wn.groupAt)) << 1
	var bomb bytes.Buffer
	z := zlib.NewWriter(&bomb)
	z.Write(make([]byte, 4))
	for range 20 {
		z.Write(make([]byte, 1<<20))
	}
	z.Close()
	for name, file := range map[string]string{
		"empty":       "",
		"cut":         ok[:len(ok)/2],
		"version":     wnMagic + "\x02\x00\x00\x00" + ok[8:],
		"not zlib":    ok[:8] + "xxxxxxxxxxxx",
		"reference":   encodeWordNet(wn.keys, wn.groups, wn.exc, wn.refAt, badRef),
		"refAt":       encodeWordNet(wn.keys, wn.groups, wn.exc, wn.refAt[1:], wn.refs),
		"backwards":   encodeWordNet(wn.keys, wn.groups, wn.exc, []uint32{0, 2, 1, 3}, wn.refs[:3]),
		"order":       encodeWordNet("b;a;", "x;", "", []uint32{0, 0, 0}, nil),
		"length":      encodeWordNet(wn.keys, wn.groups, wn.exc, wn.refAt, wn.refs)[:8] + zlibOf("\xff\xff\xff\x7f;"),
		"trailing":    ok[:8] + zlibOf(inflated(t, ok)+"x"),
		"inflates":    ok[:8] + bomb.String(),
		"odd numbers": ok[:8] + zlibOf("\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00abc"),
	} {
		if _, err := decodeWordNet(file); err == nil {
			t.Errorf("%s: decoded without an error", name)
		}
	}
	empty := emptyWordNet()
	if empty.key("flu") >= 0 || empty.hasPrefix("flu") || len(empty.queryKeys("flu jab went")) != 0 {
		t.Fatal("the empty table finds something")
	}
}

// encodeWordNet writes a table as scripts/wordnet does.
func encodeWordNet(keys, groups, exc string, refAt, refs []uint32) string {
	var body []byte
	section := func(b []byte) {
		body = append(binary.LittleEndian.AppendUint32(body, uint32(len(b))), b...)
	}
	ints := func(vs []uint32) {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
		section(b)
	}
	section([]byte(keys))
	section([]byte(groups))
	ints(refAt)
	ints(refs)
	section([]byte(exc))
	return wnMagic + "\x01\x00\x00\x00" + zlibOf(string(body))
}

func zlibOf(s string) string {
	var b bytes.Buffer
	z := zlib.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.String()
}

func inflated(t *testing.T, file string) string {
	z, err := zlib.NewReader(strings.NewReader(file[8:]))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FuzzDecodeWordNet: any file decodes to a table the lookups cannot index
// out of, or to an error.
func FuzzDecodeWordNet(f *testing.F) {
	f.Add(encodeWordNet("flu;influenza;", "flu,influenza;disease;", "flus flu;", []uint32{0, 2, 3}, []uint32{0, 3, 0}))
	f.Add(encodeWordNet("a;b", "x", "", []uint32{0, 1, 1}, []uint32{0}))
	f.Add(encodeWordNet("", "", "", []uint32{0}, nil))
	f.Fuzz(func(t *testing.T, file string) {
		wn, err := decodeWordNet(file)
		if err != nil {
			return
		}
		for _, q := range []string{"flu", "flus", "influenza", "a", "b", "x", "went"} {
			wn.lookup(q, func(i int) {
				for rank := 0; wn.related(i, rank, perGroup, func(string, bool) {}); rank++ {
				}
			})
			wn.hasPrefix(q)
		}
	})
}

func related2(text string) []string {
	var out []string
	for _, r := range expand(text, uniq(tokenize(text))) {
		out = append(out, r.term)
	}
	return out
}

// A word brings its WordNet synonyms, found under its base form; a phrase
// is looked up as one; irregular forms find their base.
func TestExpandWordNet(t *testing.T) {
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"vaccinated against influenza", []string{"flu"}},
		{"my flu jab", []string{"influenza"}},
		{"the motion pictures we saw", []string{"movi", "film"}}, // a phrase, plural
		{"the children's party", []string{"child", "kid"}},       // an irregular form
		{"a new automobile", []string{"car"}},
	} {
		got := related2(c.query)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q brings %v, want %q among them", c.query, got, w)
			}
		}
	}
}

// Synonyms come before the words one step away and weigh more; the query's
// own words are never added; a long message is bounded.
func TestExpandWeights(t *testing.T) {
	got := expand("influenza", []string{"influenza"})
	if len(got) == 0 || got[0].term != "flu" || got[0].weight != expandWeight {
		t.Fatalf("influenza brings %v, want flu first at %v", got, expandWeight)
	}
	seenNear := false
	for _, r := range expand("holiday automobile", uniq(tokenize("holiday automobile"))) {
		if r.term == "holidai" || r.term == "automobil" {
			t.Fatalf("the query's own word %q added", r.term)
		}
		if r.nbr {
			continue // the neighbours come last (expandnbr.go)
		}
		if r.weight == nearWeight {
			seenNear = true
		} else if seenNear && r.weight != nearWeight {
			t.Fatalf("a synonym after a word one step away: %v", r)
		}
	}
	long := strings.Repeat("influenza holiday automobile film ", 5000)
	if n := len(expand(long, uniq(tokenize(long)))); n > maxExpand+maxNbr {
		t.Fatalf("%d words added, want at most %d", n, maxExpand+maxNbr)
	}
	if n := len(asciiWords(long, maxLookWords)); n != maxLookWords {
		t.Fatalf("%d words looked at, want %d", n, maxLookWords)
	}
}

// Words that are not plain ASCII letters break phrases and look nothing up.
func TestExpandOddWords(t *testing.T) {
	for _, q := range []string{"", "ice\u00a0cream", "flu2 jab", "流感 疫苗", "ICE CREAM", "a", "the of and", strings.Repeat("x", 1<<16)} {
		_ = expand(q, uniq(tokenize(q)))
	}
	if got := related2("ICE CREAMS"); !slices.Contains(got, "icecream") && len(got) == 0 {
		t.Errorf("upper case finds nothing: %v", got)
	}
}

// FuzzExpand: any text expands without a panic, within the bounds, never
// to one of its own terms.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"flu jab", "ice creams", "went running", "children", "a b c", "ﬂu", "motion picture show"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		own := uniq(tokenize(s))
		got := expand(s, own)
		if len(got) > maxExpand+maxNbr {
			t.Fatalf("%d words", len(got))
		}
		for _, r := range got {
			if slices.Contains(own, r.term) || r.weight <= 0 || r.weight > expandWeight {
				t.Fatalf("%q brings %v", s, r)
			}
		}
	})
}

// A question of more words than one statement asks about is counted whole:
// the words past the first batch still find their passages.
func TestKeywordManyTerms(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, history("The heron fishes at dawn."))
	x := NewIndex(IndexOptions{Workspace: ws, Dir: t.TempDir()})
	defer x.Close()
	var q strings.Builder
	for i := range 3 * termBatch {
		q.WriteString("zq" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + " ")
	}
	q.WriteString("heron")
	r, err := x.Search(t.Context(), q.String(), 1)
	if err != nil || len(r.Hits) != 1 {
		t.Fatalf("%+v %v", r, err)
	}
}

// BenchmarkDecodeWordNet is what the first query of a process pays.
func BenchmarkDecodeWordNet(b *testing.B) {
	for b.Loop() {
		if _, err := decodeWordNet(wordnetFile); err != nil {
			b.Fatal(err)
		}
	}
}
