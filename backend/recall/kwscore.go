package recall

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// How a keyword hit is scored, on a scale that does not depend on what else
// is in the index: score is the weight of the query's words the chunk holds,
// each word weighted by its rarity (BM25's idf), over the query's weight —
// counted as at most two of its rarest word: words the index has never seen
// weigh nothing (they pick nothing out), and a question asking about two
// things ("the gig with Priyanka and my visit to Ferrante") finds each in its
// own passage, which holds half its words but its rarest one. A chunk holding
// the query's rarest word scores at least 0.5, one holding only its common
// words little, whatever the other chunks are: the live turn's own message,
// or a chunk repeating the question, cannot push the others down (they were
// scored relative to the best hit before, and the question itself was the
// best hit). raw is the chunk's BM25, which orders chunks of equal score (the
// words said more often, in a shorter chunk).

// queryWeight is what a chunk must hold to score 1: the weights of the
// query's known words, at most twice the rarest one's.
func queryWeight(idf map[string]float64) float64 {
	total, top := 0.0, 0.0
	for _, w := range idf {
		total += w
		top = max(top, w)
	}
	return min(total, 2*top)
}

// kwScore is one chunk's keyword score.
type kwScore struct {
	score float64 // 0–1: the share of the query's weight held
	raw   float64 // BM25, to order equal scores
	prior float64 // what the question's intent adds to the order (intent.go)
}

// keywordScore scores text (lenRatio: its length over the average) for the
// query words of idf, whose weights sum to weight.
func keywordScore(text string, memo *stemMemo, idf map[string]float64, weight, lenRatio float64) kwScore {
	if weight <= 0 {
		return kwScore{}
	}
	tf := make(map[string]float64, len(idf))
	memo.eachTerm(text, func(t string) {
		if _, ok := idf[t]; ok {
			tf[t]++
		}
	})
	var s kwScore
	for t, f := range tf {
		w := idf[t]
		s.raw += w * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*lenRatio))
		s.score += w
	}
	s.score = min(1, s.score/weight)
	return s
}

// needTerms is the fewest of the query's words (weights idf) a chunk must
// hold to score minScore: the rarest ones first.
func needTerms(idf map[string]float64, minScore float64) int {
	if minScore <= 0 || len(idf) == 0 {
		return 1
	}
	ws := make([]float64, 0, len(idf))
	for _, w := range idf {
		ws = append(ws, w)
	}
	total := queryWeight(idf)
	slices.Sort(ws)
	slices.Reverse(ws)
	sum := 0.0
	for i, w := range ws {
		if sum += w; sum >= minScore*total-1e-9 {
			return i + 1
		}
	}
	return len(ws)
}

// skippedStats are the counts of the chunks a search leaves out.
type skippedStats struct {
	docs, tokens int
	rows         map[int64]bool
}

// df is how many of the chunks left out hold a word whose chunks are list (the
// rows FTS5 gives it, comma-separated): the same count the word's own df comes
// from, so the two subtract exactly.
func (st skippedStats) df(list string) int {
	if len(st.rows) == 0 || list == "" {
		return 0
	}
	n := 0
	for f := range strings.SplitSeq(list, ",") {
		if r, err := strconv.ParseInt(f, 10, 64); err == nil && st.rows[r] {
			n++
		}
	}
	return n
}

// skippedTerms finds the chunks of sources that skip leaves out: how many, their
// length, and their rows. Only their rows and term counts are read: the live
// chat, all of it in the window of a new process, is most of them, and reading
// and tokenizing its text again cost a long chat's turn more than its own work.
func (x *Index) skippedTerms(ctx context.Context, skip func(string, int) bool, sources []string) (skippedStats, error) {
	st := skippedStats{rows: map[int64]bool{}}
	if skip == nil || len(sources) == 0 {
		return st, nil
	}
	for _, src := range sources {
		rows, err := x.db.QueryContext(ctx, `SELECT n, nterms, pos FROM chunks WHERE source = ?`, src)
		if err != nil {
			return st, err
		}
		for rows.Next() {
			var row int64
			var n, pos int
			if err := rows.Scan(&row, &n, &pos); err != nil {
				rows.Close()
				return st, err
			}
			if !skip(src, pos) {
				continue
			}
			st.docs++
			st.tokens += n
			st.rows[row] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return st, err
		}
	}
	return st, nil
}

// termBatch bounds the terms of one statement (SQLite allows 500 selects
// in a compound one).
const termBatch = 100

// termRows is, for each of terms, the number of chunks holding it and their
// rows (comma-separated), asked a hundred terms a statement: a query and its
// related words are a score of terms, and a statement each cost more than
// SQLite's own work for the rare ones.
func (x *Index) termRows(ctx context.Context, terms []string) ([]float64, []string, error) {
	counts, lists := make([]float64, len(terms)), make([]string, len(terms))
	for lo := 0; lo < len(terms); lo += termBatch {
		hi := min(lo+termBatch, len(terms))
		if err := x.termBatch(ctx, terms[lo:hi], counts[lo:hi], lists[lo:hi]); err != nil {
			return nil, nil, err
		}
	}
	return counts, lists, nil
}

func (x *Index) termBatch(ctx context.Context, terms []string, counts []float64, lists []string) error {
	var q strings.Builder
	args := make([]any, 0, len(terms))
	for i, t := range terms {
		if i > 0 {
			q.WriteString(" UNION ALL ")
		}
		fmt.Fprintf(&q, `SELECT %d, count(*), coalesce(group_concat(rowid), '') FROM terms WHERE terms MATCH ?`, i)
		args = append(args, ftsQuery([]string{t}))
	}
	rows, err := x.db.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var i int
		var df float64
		var list string
		if err := rows.Scan(&i, &df, &list); err != nil {
			return err
		}
		if i >= 0 && i < len(terms) {
			counts[i], lists[i] = df, list
		}
	}
	return rows.Err()
}
