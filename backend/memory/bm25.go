package memory

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// BM25 parameters (the usual ones).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// keywordIndex is an in-memory BM25 index over chunks, updated per chunk.
type keywordIndex struct {
	docLen   map[string]int            // chunk id → token count
	postings map[string]map[string]int // term → chunk id → term frequency
	totalLen int
}

func newKeywordIndex() *keywordIndex {
	return &keywordIndex{docLen: map[string]int{}, postings: map[string]map[string]int{}}
}

func (k *keywordIndex) len() int { return len(k.docLen) }

func (k *keywordIndex) add(id, text string) {
	if _, ok := k.docLen[id]; ok {
		k.remove(id, text)
	}
	toks := tokenize(text)
	k.docLen[id] = len(toks)
	k.totalLen += len(toks)
	for _, t := range toks {
		p := k.postings[t]
		if p == nil {
			p = map[string]int{}
			k.postings[t] = p
		}
		p[id]++
	}
}

// remove drops a chunk; text must be the text it was added with.
func (k *keywordIndex) remove(id, text string) {
	n, ok := k.docLen[id]
	if !ok {
		return
	}
	delete(k.docLen, id)
	k.totalLen -= n
	for _, t := range tokenize(text) {
		if p := k.postings[t]; p != nil {
			delete(p, id)
			if len(p) == 0 {
				delete(k.postings, t)
			}
		}
	}
}

type kwHit struct {
	id    string
	raw   float64 // BM25 score
	cover float64 // share of the query's terms the chunk contains
}

// search returns the n best chunks for query by BM25.
func (k *keywordIndex) search(query string, n int) []kwHit {
	terms := uniq(tokenize(query))
	if len(terms) == 0 || len(k.docLen) == 0 {
		return nil
	}
	N := float64(len(k.docLen))
	avg := float64(k.totalLen) / N
	scores := map[string]*kwHit{}
	for _, t := range terms {
		p := k.postings[t]
		if len(p) == 0 {
			continue
		}
		df := float64(len(p))
		idf := math.Log(1 + (N-df+0.5)/(df+0.5))
		for id, tf := range p {
			dl := float64(k.docLen[id])
			f := float64(tf)
			s := idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*dl/avg))
			h := scores[id]
			if h == nil {
				h = &kwHit{id: id}
				scores[id] = h
			}
			h.raw += s
			h.cover += 1 / float64(len(terms))
		}
	}
	out := make([]kwHit, 0, len(scores))
	for _, h := range scores {
		out = append(out, *h)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].raw != out[j].raw {
			return out[i].raw > out[j].raw
		}
		return out[i].id < out[j].id
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// stopwords are left out of keyword search: they match everything.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be been but by can could did do does for from had has have
		he her his how i if in into is it its me my of on or our she so than that the their them then there these
		they this to was we were what when where which who why will with would you your about did any all also just
		not no yes up out over some`) {
		m[w] = true
	}
	return m
}()

// tokenize lowercases text into words (letters and digits), drops
// stopwords, strips a plural or -ing/-ed ending, and makes every Han, Kana
// or Hangul character a token of its own (no word breaks in those scripts).
func tokenize(text string) []string {
	var out []string
	var w strings.Builder
	flush := func() {
		if w.Len() == 0 {
			return
		}
		t := w.String()
		w.Reset()
		if stopwords[t] {
			return
		}
		out = append(out, stem(t))
	}
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

// stem is a deliberately small suffix stripper: enough that "meetings",
// "meeting" and "meet" share a term, without a dictionary.
func stem(t string) string {
	n := len(t)
	switch {
	case n > 4 && strings.HasSuffix(t, "ies"):
		t = t[:n-3] + "y"
	case n > 3 && strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "ss") && !strings.HasSuffix(t, "us") && !strings.HasSuffix(t, "is"):
		t = t[:n-1]
	}
	n = len(t)
	switch {
	case n > 5 && strings.HasSuffix(t, "ing"):
		t = t[:n-3]
	case n > 4 && strings.HasSuffix(t, "ed"):
		t = t[:n-2]
	}
	if n = len(t); n > 4 && strings.HasSuffix(t, "e") {
		t = t[:n-1]
	}
	return t
}

func uniq(ts []string) []string {
	seen := map[string]bool{}
	out := ts[:0:0]
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
