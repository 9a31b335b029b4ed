package recall

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// tsfold.txt folds a Traditional Chinese character to its Simplified form:
// OpenCC's character table (TSCharacters, t2s, Apache License 2.0), written by
// scripts/tsfold as a line per pair, the Traditional character then the
// Simplified one, in ascending order of the first.
//
//go:embed tsfold.txt
var tsfoldFile string

// tsTable is the decoded file: from ascending, to[i] the fold of from[i].
type tsTable struct{ from, to []rune }

// tsFold is the table, decoded on the first Han character tokenized. Like
// wordNet it is never written after the decoding, which sync.OnceValue makes
// happen once. A damaged file decodes to no folding.
var tsFold = sync.OnceValue(func() *tsTable {
	t, err := decodeTSFold(tsfoldFile)
	if err != nil {
		return &tsTable{}
	}
	return t
})

// decodeTSFold reads the file, refusing any line that is not two distinct
// characters or that breaks the ascending order foldTS bisects.
func decodeTSFold(file string) (*tsTable, error) {
	n := strings.Count(file, "\n")
	t := &tsTable{from: make([]rune, 0, n), to: make([]rune, 0, n)}
	i := 0
	for line := range strings.Lines(file) {
		i++
		line = strings.TrimSuffix(line, "\n")
		a, sa := utf8.DecodeRuneInString(line)
		b, sb := utf8.DecodeRuneInString(line[sa:])
		switch {
		case sa+sb != len(line) || a == utf8.RuneError || b == utf8.RuneError || a == b:
			return nil, fmt.Errorf("tsfold: line %d is not two distinct characters", i)
		case len(t.from) > 0 && a <= t.from[len(t.from)-1]:
			return nil, fmt.Errorf("tsfold: line %d is out of order", i)
		}
		t.from, t.to = append(t.from, a), append(t.to, b)
	}
	return t, nil
}

// foldTS is r's Simplified form when r is a Traditional Chinese character,
// else r: a question in either script then finds a note in the other.
// Folding loses nothing recall needs; the text shown is never folded.
func foldTS(r rune) rune {
	t := tsFold()
	if i, ok := slices.BinarySearch(t.from, r); ok {
		return t.to[i]
	}
	return r
}
