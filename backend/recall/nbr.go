package recall

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
)

// Distributional related words (nbr.bin, written by scripts/glovenbr from
// GloVe's word vectors, whose notices are GLOVE_LICENSE beside it): for each
// of the commonest English words, the words nearest it in those vectors —
// words said in the same places ("flu" and "pandemic", "cardigan" and
// "sweater", "jigsaw" and "puzzle"), which WordNet's synonyms and single
// steps do not link. The vectors themselves are not shipped: only each
// word's few neighbours and how near they are.

//go:embed nbr.bin
var nbrFile string

// nbrTable is the decoded file: words (ascending, each ended by ';',
// starting at wordAt, one more offset at the end); word i's neighbours are
// entries[3*at[i]:3*at[i+1]], each a word's place (two bytes) and its
// cosine in 255ths (one byte), nearest first.
type nbrTable struct {
	words      string
	wordAt, at []uint32
	entries    string
}

// neighbourTable is the table, decoded on the first query that looks a word
// up (the offsets of its words and neighbours, about 0.4 MB, 2 ms; a process
// that never searches pays nothing). Like wordNet it is read-only once
// decoded, and a damaged file decodes to no neighbours.
var neighbourTable = sync.OnceValue(func() *nbrTable {
	t, err := decodeNbr(nbrFile)
	if err != nil {
		return &nbrTable{wordAt: []uint32{0}, at: []uint32{0}}
	}
	return t
})

// The file's header (scripts/glovenbr writes it, not compressed: the
// neighbours' places are near random, and inflating cost more than the
// rest of the decoding) and the most it may hold.
const (
	nbrMagic   = "HNBR"
	nbrVersion = 2
	nbrMaxSize = 16 << 20
)

// decodeNbr reads the file, checking every length and place: a table it
// returns is one the lookups below cannot index out of.
func decodeNbr(file string) (*nbrTable, error) {
	if len(file) < 8 || file[:4] != nbrMagic || binary.LittleEndian.Uint32([]byte(file[4:8])) != nbrVersion {
		return nil, errors.New("neighbours: not a table of this version")
	}
	if len(file) > nbrMaxSize {
		return nil, fmt.Errorf("neighbours: over %d bytes", nbrMaxSize)
	}
	body := file[8:] // a string: the sections are slices of the embedded file, not copies
	var secs [3]string
	for i := range secs {
		if len(body) < 4 || int(binary.LittleEndian.Uint32([]byte(body[:4]))) > len(body)-4 {
			return nil, errors.New("neighbours: a section runs past the end")
		}
		n := 4 + int(binary.LittleEndian.Uint32([]byte(body[:4])))
		secs[i], body = body[4:n], body[n:]
	}
	if len(body) != 0 {
		return nil, errors.New("neighbours: trailing bytes")
	}
	t := &nbrTable{words: secs[0], entries: secs[2]}
	t.wordAt = wnEntries(t.words)
	nw := len(t.wordAt) - 1
	if len(secs[1]) != nw || !wnSorted(t.words, t.wordAt) || nw > 1<<16 {
		return nil, errors.New("neighbours: the counts do not match the words, or the words are out of order")
	}
	t.at = make([]uint32, nw+1)
	for i := range nw {
		t.at[i+1] = t.at[i] + uint32(secs[1][i])
	}
	if 3*int(t.at[nw]) != len(t.entries) {
		return nil, errors.New("neighbours: the entries do not match the counts")
	}
	for e := 0; e < len(t.entries); e += 3 {
		if int(t.entries[e])|int(t.entries[e+1])<<8 >= nw {
			return nil, errors.New("neighbours: an entry names no word")
		}
	}
	return t, nil
}

// each calls fn with word's neighbours and their cosines, nearest first,
// until fn returns false.
func (t *nbrTable) each(word string, fn func(w string, sim float64) bool) {
	i := wnSearch(t.words, t.wordAt, word)
	if i >= len(t.wordAt)-1 || wnLine(t.words, t.wordAt, i) != word {
		return
	}
	for e := t.at[i]; e < t.at[i+1]; e++ {
		b := t.entries[3*e : 3*e+3]
		j := int(b[0]) | int(b[1])<<8
		if !fn(wnLine(t.words, t.wordAt, j), float64(b[2])/255) {
			return
		}
	}
}
