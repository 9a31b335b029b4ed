package recall

import (
	"maps"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Which chunks a keyword search reads. Each word's rows are known from its
// statistics (termRows), so which of the query's words every matching chunk
// holds is known without asking FTS5 again, and a chunk's score (the weight of
// the words it holds, kwscore.go) with it: the candidates are picked by that
// score, exactly, not by FTS5's BM25, which ranked every match (looking up
// each one's length: about 4 µs a chunk, a third of a block's search at 10 000
// passages) and could leave out a chunk holding the rarest word once in a
// long passage. Where a score level does not fit whole, its newest chunks are
// taken: looking up the lengths of its chunks to take the shortest (as BM25
// would) read a page of the database for each, most of a new process's search
// in a big workspace. The chunks picked are then scored from their text.

// pickRows returns up to n chunk rows that score best for terms (each with
// its rows, comma-separated, and its idf; total is the query's weight,
// queryWeight) among those holding at least need of them, leaving out the
// rows of skip.
func (x *Index) pickRows(terms []string, rowsOf map[string]string, idf map[string]float64, total float64, n, need int,
	skip map[int64]bool) []int64 {
	need -= max(0, len(terms)-64) // the words left out may be there too
	terms = terms[:min(len(terms), 64)]
	// Which of the words each matching chunk holds.
	masks := map[int64]uint64{}
	for i, t := range terms {
		for f := range strings.SplitSeq(rowsOf[t], ",") {
			if r, err := strconv.ParseInt(f, 10, 64); err == nil && !skip[r] {
				masks[r] |= 1 << i
			}
		}
	}
	if need > 1 {
		for r, m := range masks {
			if bits.OnesCount64(m) < need {
				delete(masks, r)
			}
		}
	}
	if len(masks) <= n || x.readAll {
		// Few enough to score them all from their text.
		return slices.Collect(maps.Keys(masks))
	}
	weight := func(mask uint64) float64 {
		var s float64
		for i, t := range terms {
			if mask&(1<<i) != 0 {
				s += idf[t]
			}
		}
		return s
	}
	score := func(mask uint64) float64 { return min(1, weight(mask)/total) }
	// Score levels, best first: whole levels are taken while they fit.
	levels := map[float64][]int64{}
	for r, m := range masks {
		s := score(m)
		levels[s] = append(levels[s], r)
	}
	order := slices.Sorted(maps.Keys(levels))
	slices.Reverse(order)
	var picked []int64
	var last []int64
	for _, s := range order {
		if l := levels[s]; len(picked)+len(l) > n {
			last = l
			break
		}
		picked = append(picked, levels[s]...)
	}
	// The level that does not fit: its heaviest (a score of 1 may hold more
	// than the query's weight), newest first.
	sort.Slice(last, func(i, j int) bool {
		if wi, wj := weight(masks[last[i]]), weight(masks[last[j]]); wi != wj {
			return wi > wj
		}
		return last[i] > last[j]
	})
	return append(picked, last[:n-len(picked)]...)
}

// inRows takes the rows of a rowList argument: SQLite parses a list of
// thousands of numbers in a statement's text at a cost a JSON array does not
// have.
const inRows = `(SELECT value FROM json_each(?))`

// rowList is rows as a JSON array, for inRows.
func rowList(rows []int64) string {
	b := make([]byte, 0, 8*len(rows)+2)
	b = append(b, '[')
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, r, 10)
	}
	return string(append(b, ']'))
}
