package recall

import (
	"sort"
	"strings"
)

// Related words from WordNet (wordnet_table.go, written by scripts/wordnet
// from WordNet 3.0, whose licence is WORDNET_LICENSE beside it): a word or
// phrase of the question is looked up as WordNet lists it — its base form,
// found the way WordNet's own morphology does (irregular forms from its
// exception lists, then the regular endings) — and brings the words of its
// commoner senses (synonyms) and, one step away, of the senses above, below
// and of the same root. Phrases ("flu jab", "ice cream") are looked up
// before their words. The table is read in place: nothing is built before
// the first lookup.

// wnLine is entry i of one of the table's texts.
func wnLine(text string, at []uint32, i int) string {
	return text[at[i] : at[i+1]-1]
}

// wnSearch is the first entry of text (ascending, offsets at) not below key.
func wnSearch(text string, at []uint32, key string) int {
	return sort.Search(len(at)-1, func(i int) bool { return wnLine(text, at, i) >= key })
}

// wnKey is key's index in wnKeys, or -1.
func wnKey(key string) int {
	if i := wnSearch(wnKeys, wnKeyAt[:], key); i < len(wnKeyAt)-1 && wnLine(wnKeys, wnKeyAt[:], i) == key {
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

// wnLookup calls fn with the index of each key phrase (words one space
// apart) is listed under: itself, and the base forms of its last word.
func wnLookup(phrase string, fn func(int)) {
	seen := 0
	try := func(k string) {
		if i := wnKey(k); i >= 0 && seen < 4 {
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
	for i := wnSearch(wnExc, wnExcAt[:], last+" "); i < len(wnExcAt)-1; i++ {
		form, base, _ := strings.Cut(wnLine(wnExc, wnExcAt[:], i), " ")
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

// wnRelated calls fn with the words key i brings, each a phrase, and
// whether it is one step away rather than a synonym, in the table's order:
// commoner senses first, commoner words of a sense first. perGroup bounds
// the words taken from one group.
func wnRelated(i, rank, perGroup int, fn func(phrase string, near bool)) bool {
	refs := wnRefs[wnRefAt[i]:wnRefAt[i+1]]
	if rank >= len(refs) {
		return false
	}
	r := refs[rank]
	g := wnLine(wnGroups, wnGroupAt[:], int(r>>1))
	for n := 0; g != "" && n < perGroup; n++ {
		var w string
		w, g, _ = strings.Cut(g, ",")
		fn(w, r&1 == 1)
	}
	return true
}
