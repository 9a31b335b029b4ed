package recall

import (
	"compress/zlib"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

// Related words from WordNet (wordnet.bin, written by scripts/wordnet
// from WordNet 3.0, whose licence is WORDNET_LICENSE beside it): a word or
// phrase of the question is looked up as WordNet lists it — its base form,
// found the way WordNet's own morphology does (irregular forms from its
// exception lists, then the regular endings) — and brings the words of its
// commoner senses (synonyms) and, one step away, of the senses above, below
// and of the same root. Phrases ("flu jab", "ice cream") are looked up
// before their words.

//go:embed wordnet.bin
var wordnetFile string

// wnTable is the decoded file: keys (ascending), groups (commas between
// words) and exc (irregular forms and their base, "went go", ascending),
// each entry ended by ';' and starting at its at offset (one more at the
// end); refs[refAt[i]:refAt[i+1]] are key i's groups, each the group's
// index shifted left once, the low bit set for a group one step away
// (broader, narrower, of the same root) rather than synonyms.
type wnTable struct {
	keys, groups, exc     string
	keyAt, groupAt, excAt []uint32
	refAt, refs           []uint32
}

// wordNet is the table, decoded on the first query that looks a word up
// (about 1.5 MB; a process that never searches pays nothing). It is the
// package's one piece of state and is not mutable: every index reads the
// same embedded file, the table is never written after the decoding, and
// sync.OnceValue makes that decoding happen once, whichever goroutine asks
// first. A damaged file decodes to no related words.
var wordNet = sync.OnceValue(func() *wnTable {
	t, err := decodeWordNet(wordnetFile)
	if err != nil {
		return emptyWordNet()
	}
	return t
})

func emptyWordNet() *wnTable {
	none := []uint32{0}
	return &wnTable{keyAt: none, groupAt: none, excAt: none, refAt: none}
}

// The file's header (scripts/wordnet writes the file and describes it) and
// the most its sections may inflate to (a file claiming more is damaged).
const (
	wnMagic   = "HWNT"
	wnVersion = 1
	wnMaxSize = 8 << 20
)

// decodeWordNet reads the file, checking every length and offset: a table
// it returns is one the lookups below cannot index out of.
func decodeWordNet(file string) (*wnTable, error) {
	if len(file) < 8 || file[:4] != wnMagic || binary.LittleEndian.Uint32([]byte(file[4:8])) != wnVersion {
		return nil, errors.New("wordnet: not a table of this version")
	}
	z, err := zlib.NewReader(strings.NewReader(file[8:]))
	if err != nil {
		return nil, fmt.Errorf("wordnet: %w", err)
	}
	body, err := io.ReadAll(io.LimitReader(z, wnMaxSize+1))
	if err != nil || len(body) > wnMaxSize {
		return nil, fmt.Errorf("wordnet: the sections do not inflate within %d bytes (%v)", wnMaxSize, err)
	}
	var bad error
	next := func() []byte {
		if len(body) < 4 || int(binary.LittleEndian.Uint32(body)) > len(body)-4 {
			bad = errors.New("wordnet: a section runs past the end")
			return nil
		}
		n := 4 + int(binary.LittleEndian.Uint32(body))
		s := body[4:n]
		body = body[n:]
		return s
	}
	ints := func() []uint32 {
		b := next()
		if len(b)%4 != 0 {
			bad = errors.New("wordnet: a section of numbers is not whole")
		}
		vs := make([]uint32, len(b)/4)
		for i := range vs {
			vs[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		return vs
	}
	t := &wnTable{keys: string(next()), groups: string(next())}
	t.refAt, t.refs = ints(), ints()
	t.exc = string(next())
	if bad != nil {
		return nil, bad
	}
	t.keyAt, t.groupAt, t.excAt = wnEntries(t.keys), wnEntries(t.groups), wnEntries(t.exc)
	if len(body) != 0 || !wnSorted(t.keys, t.keyAt) || !wnSorted(t.exc, t.excAt) {
		return nil, errors.New("wordnet: trailing bytes, or entries out of order")
	}
	if len(t.refAt) != len(t.keyAt) || t.refAt[0] != 0 || int(t.refAt[len(t.refAt)-1]) != len(t.refs) {
		return nil, errors.New("wordnet: the references do not match the keys")
	}
	for i := 1; i < len(t.refAt); i++ {
		if t.refAt[i] < t.refAt[i-1] {
			return nil, errors.New("wordnet: the references go backwards")
		}
	}
	for _, r := range t.refs {
		if int(r>>1) >= len(t.groupAt)-1 {
			return nil, errors.New("wordnet: a reference to no group")
		}
	}
	return t, nil
}

// wnEntries are the offsets of text's entries (each ended by ';'), and
// one more at the end; text not ending in ';' ends in an entry too.
func wnEntries(text string) []uint32 {
	at := []uint32{0}
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], ';')
		if j < 0 {
			j = len(text) - i - 1 // the last byte ends the entry
		}
		i += j + 1
		at = append(at, uint32(i))
	}
	return at
}

// wnSorted reports whether text's entries ascend (lookups bisect them).
func wnSorted(text string, at []uint32) bool {
	for i := 1; i+1 < len(at); i++ {
		if wnLine(text, at, i-1) > wnLine(text, at, i) {
			return false
		}
	}
	return true
}

// wnLine is entry i of one of the table's texts.
func wnLine(text string, at []uint32, i int) string {
	return text[at[i] : at[i+1]-1]
}

// wnSearch is the first entry of text (ascending, offsets at) not below key.
func wnSearch(text string, at []uint32, key string) int {
	return sort.Search(len(at)-1, func(i int) bool { return wnLine(text, at, i) >= key })
}

// key is key's index in t.keys, or -1.
func (t *wnTable) key(key string) int {
	if i := wnSearch(t.keys, t.keyAt, key); i < len(t.keyAt)-1 && wnLine(t.keys, t.keyAt, i) == key {
		return i
	}
	return -1
}

// wnSuffixes are WordNet's regular endings and what replaces them (nouns,
// verbs, adjectives).
var wnSuffixes = [...][2]string{
	{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"},
	{"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""},
	{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"},
}

// lookup calls fn with the index of each key phrase (words one space
// apart) is listed under: itself, and the base forms of its last word.
func (t *wnTable) lookup(phrase string, fn func(int)) {
	seen := 0
	try := func(k string) {
		if i := t.key(k); i >= 0 && seen < 4 {
			seen++
			fn(i)
		}
	}
	try(phrase)
	head, last := "", phrase
	if j := strings.LastIndexByte(phrase, ' '); j >= 0 {
		head, last = phrase[:j+1], phrase[j+1:]
	}
	// Irregular forms: "went go", "children child".
	for i := wnSearch(t.exc, t.excAt, last+" "); i < len(t.excAt)-1; i++ {
		form, base, _ := strings.Cut(wnLine(t.exc, t.excAt, i), " ")
		if form != last {
			break
		}
		try(head + base)
	}
	for _, s := range wnSuffixes {
		if len(last) > len(s[0])+1 && strings.HasSuffix(last, s[0]) {
			try(head + last[:len(last)-len(s[0])] + s[1])
		}
	}
}

// related calls fn with the words key i brings, each a phrase, and
// whether it is one step away rather than a synonym, in the table's order:
// commoner senses first, commoner words of a sense first. perGroup bounds
// the words taken from one group.
func (t *wnTable) related(i, rank, perGroup int, fn func(phrase string, near bool)) bool {
	refs := t.refs[t.refAt[i]:t.refAt[i+1]]
	if rank >= len(refs) {
		return false
	}
	r := refs[rank]
	g := wnLine(t.groups, t.groupAt, int(r>>1))
	for n := 0; g != "" && n < perGroup; n++ {
		var w string
		w, g, _ = strings.Cut(g, ",")
		fn(w, r&1 == 1)
	}
	return true
}
