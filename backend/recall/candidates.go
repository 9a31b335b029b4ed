package recall

import (
	"context"
	"database/sql"
	"maps"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// FTS5 ranks a match by its BM25, which looks up every matching chunk's length:
// about 4 µs a chunk here, so a query whose words are in 17 000 of 100 000 chunks
// cost 60 ms before anything else was done. Above rankedMatches matches the
// candidates are picked in three cheap steps instead: each word's list of chunks
// (no ranking), the chunks holding the most weight of the query's words (newest
// first among equals), their lengths for a BM25 with each word counted once —
// and the best of those are scored exactly from their text, as the small case is.

// rankedMatches is how many matches FTS5 ranks itself (estimated as the sum of
// the words' chunk counts, known from their lists); Index.ranked
// starts at it.
const rankedMatches = 4000

// wideCands bounds the chunks whose lengths are looked up.
const wideCands = 1500

// likelyRows returns up to n chunk rows most likely to score best for terms
// (each with its rows, as a comma-separated list, and its idf) among those
// holding at least need of them, without ranking every match.
func (x *Index) likelyRows(ctx context.Context, terms []string, rowsOf map[string]string, idf map[string]float64, avg float64, n, need int) ([]int64, error) {
	need -= max(0, len(terms)-16) // the words left out may be there too
	terms = terms[:min(len(terms), 16)]
	// Which of the words each matching chunk holds.
	masks := map[int64]uint32{}
	for i, t := range terms {
		for f := range strings.SplitSeq(rowsOf[t], ",") {
			if r, err := strconv.ParseInt(f, 10, 64); err == nil {
				masks[r] |= 1 << i
			}
		}
	}
	if need > 1 {
		for r, m := range masks {
			if bits.OnesCount32(m) < need {
				delete(masks, r)
			}
		}
	}
	if len(masks) <= n {
		// Few enough to score them all from their text.
		return slices.Collect(maps.Keys(masks)), nil
	}
	// Chunks holding the same words weigh the same: take whole groups, heaviest
	// first, newest first within the last one taken.
	weight := func(mask uint32) float64 {
		var s float64
		for i, t := range terms {
			if mask&(1<<i) != 0 {
				s += idf[t]
			}
		}
		return s
	}
	groups := map[uint32][]int64{}
	for r, m := range masks {
		groups[m] = append(groups[m], r)
	}
	order := slices.Collect(maps.Keys(groups))
	sort.Slice(order, func(i, j int) bool { return weight(order[i]) > weight(order[j]) })
	var picked []int64
	for _, m := range order {
		g := groups[m]
		if len(picked)+len(g) > wideCands {
			sort.Slice(g, func(i, j int) bool { return g[i] > g[j] })
			g = g[:wideCands-len(picked)]
		}
		picked = append(picked, g...)
		if len(picked) >= wideCands {
			break
		}
	}
	// Their lengths, for a BM25 that counts each word once; one string again.
	var lengths sql.NullString
	if err := x.db.QueryRowContext(ctx, `SELECT group_concat(n || ' ' || nterms) FROM chunks WHERE n IN `+inRows,
		rowList(picked)).Scan(&lengths); err != nil {
		return nil, err
	}
	type cand struct {
		n     int64
		score float64
	}
	list := make([]cand, 0, len(picked))
	for f := range strings.SplitSeq(lengths.String, ",") {
		rs, ds, _ := strings.Cut(f, " ")
		r, err1 := strconv.ParseInt(rs, 10, 64)
		dl, err2 := strconv.ParseFloat(ds, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		norm := (bm25K1 + 1) / (1 + bm25K1*(1-bm25B+bm25B*dl/avg))
		list = append(list, cand{n: r, score: weight(masks[r]) * norm})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].score != list[j].score {
			return list[i].score > list[j].score
		}
		return list[i].n > list[j].n
	})
	out := make([]int64, 0, n)
	for _, c := range list[:min(len(list), n)] {
		out = append(out, c.n)
	}
	return out, nil
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
