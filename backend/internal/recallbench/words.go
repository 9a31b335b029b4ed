package recallbench

import (
	"strings"
	"unicode"
)

// stopwords are the function words a question and its evidence share
// without saying anything: they do not count in the overlap.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for with from about as into
		over after before under again then once than so too very just also still even only own same such
		i me my mine myself we us our ours you your yours he him his she her hers it its they them their theirs
		this that these those there here what which who whom whose when where why how
		is am are was were be been being have has had having do does did doing done will would shall should
		can could may might must ought not no nor any all both each few more most other some
		s t d ll m re ve y up down out off again further while during until against between through
		get got let lets go going gone went anything something everything nothing really`) {
		m[w] = true
	}
	return m
}()

// ContentWords are the words of s that carry meaning: lower-cased, split at
// anything but letters and digits, stop words left out, each cut to a crude
// stem (plural, -ing, -ed) so "named" and "name" count as one word.
func ContentWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if stopwords[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// stem cuts the commonest English endings; good enough to count shared
// words generously (a shared stem counts as shared).
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if len(w)-len(suf) >= 3 && strings.HasSuffix(w, suf) {
			w = w[:len(w)-len(suf)]
			break
		}
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// Overlap is the share of the question's distinct content words that the
// evidence also holds (0 when the question has none).
func Overlap(question string, evidence []string) float64 {
	have := map[string]bool{}
	for _, e := range evidence {
		for _, w := range ContentWords(e) {
			have[w] = true
		}
	}
	seen := map[string]bool{}
	shared := 0
	for _, w := range ContentWords(question) {
		if seen[w] {
			continue
		}
		seen[w] = true
		if have[w] {
			shared++
		}
	}
	if len(seen) == 0 {
		return 0
	}
	return float64(shared) / float64(len(seen))
}

// Keywords is the question as a model that searches by keywords sends it:
// its content words as written, in order, once each.
func Keywords(question string) string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(question, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		lw := strings.ToLower(strings.Trim(w, "'"))
		if lw == "" || stopwords[lw] || seen[lw] || strings.Contains(lw, "'") && stopwords[strings.SplitN(lw, "'", 2)[0]] {
			continue
		}
		seen[lw] = true
		out = append(out, strings.Trim(w, "'"))
	}
	return strings.Join(out, " ")
}
