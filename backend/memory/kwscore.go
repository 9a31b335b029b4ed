package memory

import (
	"slices"
)

// How a keyword hit is scored, on a scale that does not depend on what else
// is in the index: score is the share of the query's weight the chunk holds,
// each of the query's words weighted by its rarity (BM25's idf) — words the
// index has never seen weigh nothing, they pick nothing out. A chunk holding
// every known word of the query scores 1 whatever the other chunks are; the
// live turn's own message, or a chunk repeating the question, cannot push the
// others down (they were scored relative to the best hit before, and the
// question itself was the best hit). raw is the chunk's BM25, which orders
// chunks of equal score (the words said more often, in a shorter chunk).

// kwScore is one chunk's keyword score.
type kwScore struct {
	score float64 // 0–1: the share of the query's weight held
	raw   float64 // BM25, to order equal scores
}

// keywordScore scores text (lenRatio: its length over the average) for the
// query words of idf, whose weights sum to weight.
func keywordScore(text string, idf map[string]float64, weight, lenRatio float64) kwScore {
	if weight <= 0 {
		return kwScore{}
	}
	tf := make(map[string]float64, len(idf))
	eachTerm(text, func(t string) {
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
	total := 0.0
	for _, w := range idf {
		ws = append(ws, w)
		total += w
	}
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
