package recall

import "strings"

// The distributional side of query expansion (nbr.go): each word of the
// question brings its nearest words in GloVe's vectors, after the hand
// groups and WordNet's, at a weight below both and scaled by how near
// they are: they are the likeliest to mean something else ("flu" brings
// "swine" as well as "influenza"), so they find a passage the question's
// own words do not, but rank below one holding those words or a synonym.
// A word WordNet or the groups already brought keeps the larger weight.

// nbrWeight is a neighbour's share of its idf at cosine 1; nbrMinSim the
// least cosine a neighbour is taken at (the table holds some nearer 0.55).
const (
	nbrWeight = 0.3
	nbrMinSim = 0.65
)

// nbrPer bounds the neighbours one word brings; maxNbr those a query
// gains in all (each costs a lookup in the index, like WordNet's).
const (
	nbrPer = 3
	maxNbr = 8
)

// expandNbr adds the neighbours of text's words to out (have: the terms
// already in the query or in out), a round at a time: every word's
// nearest, then every word's second, so that one word's many neighbours do
// not crowd out the others'.
func expandNbr(text string, out []relTerm, have map[string]bool) []relTerm {
	nt := neighbourTable()
	var keys []string
	seen, named := map[string]bool{}, capitalised(text)
	for i, w := range asciiWords(text, maxLookWords) {
		if len(w) >= 3 && !stopwords[w] && !seen[w] && (i == 0 || !named[w]) {
			seen[w] = true
			keys = append(keys, w)
		}
	}
	if len(keys) == 0 {
		return out
	}
	at := make(map[string]int, len(out))
	for i, r := range out {
		at[r.term] = i
	}
	added := 0
	for rank := 0; rank < nbrPer && added < maxNbr; rank++ {
		for _, k := range keys {
			n := 0
			nt.each(k, func(w string, sim float64) bool {
				if sim < nbrMinSim {
					return false
				}
				if n++; n <= rank {
					return true
				}
				(*stemMemo)(nil).eachTerm(w, func(t string) {
					wt := nbrWeight * sim
					if i, ok := at[t]; ok {
						out[i].weight = max(out[i].weight, wt)
					} else if !have[t] && added < maxNbr {
						have[t] = true
						at[t] = len(out)
						out = append(out, relTerm{t, wt, true})
						added++
					}
				})
				return false
			})
		}
	}
	return out
}

// capitalised are text's words (lowercased) written with a capital: a
// name ("Sam", "Leeds", "Patel"), whose neighbours are other names.
// The text's first word is one only by its place; expandNbr looks it up.
func capitalised(text string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80)
	}) {
		if f[0] >= 'A' && f[0] <= 'Z' {
			m[strings.ToLower(f)] = true
		}
	}
	return m
}
