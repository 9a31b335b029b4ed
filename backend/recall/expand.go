package recall

import (
	"slices"
	"strings"
	"sync"
)

// Query expansion from the question's own words: people ask with other
// words than they used when they said it ("was I vaccinated against
// influenza" of "had the flu jab"). Each word or phrase of the query brings
// related words, at a share of its weight: they find and order passages,
// but a passage holding them alone scores less than one holding the
// question's own words. The related words are WordNet's (wordnet.go):
// synonyms at wnWeight, words one step away (broader, narrower, of the same
// root) at nearWeight. relatedGroups below are of another kind, written by
// hand after looking at the recall benchmark's tuned set: words said of the
// same occasion (dinner, lunch, menu; dog, cat, pet), which WordNet's
// synonyms and single steps do not link, and words newer than it or
// British ("telly", "gig", "mum", "airbnb"); the groups WordNet holds
// whole were dropped. With an embedding model, vectors find the rest; the
// model adds its own words to memory_search ("also").

// expandWeight is what a word of relatedGroups weighs, against its idf;
// wnWeight a WordNet synonym; nearWeight a word one step away.
const (
	expandWeight = 0.5
	wnWeight     = 0.5
	nearWeight   = 0.25
)

// maxExpand bounds the words a query gains: each costs a lookup.
const maxExpand = 16

// maxNear bounds the words one step away a query gains: they are the
// likeliest to mean something else ("say" brings "answer", "remark",
// "add"), and each costs a lookup.
const maxNear = 6

// perGroup bounds the words taken from one WordNet group: its commonest.
const perGroup = 3

// maxLookWords bounds the words of a long message looked up in WordNet:
// the words found in the first ones already fill maxExpand.
const maxLookWords = 200

var relatedGroups = []string{
	"meal dinner lunch breakfast food eat dish cuisine restaurant menu",
	"dessert pudding sweet cake pastry treat",
	"drink beverage sip wine beer cocktail whisky gin pub bar",
	"coffee tea cafe",
	"book novel read reading author story fiction thriller",
	"film movie cinema watch series telly tv",
	"music song band album concert gig listen singer playlist",
	"sport match game team football tennis rugby cricket basketball",
	"holiday vacation trip travel getaway journey tour",
	"weekend saturday sunday",
	"flower bouquet bloom blossom",
	"gift present",
	"job work employ employer company firm position career hire office",
	"home house flat apartment rent lease",
	"pet dog cat puppy kitten bird parrot rabbit hamster",
	"doctor gp surgery clinic hospital dentist appointment",
	"allergy allergic reaction intolerant",
	"money price cost pay paid quote charge fee spend",
	"like love enjoy favourite favorite prefer ideal perfect fan",
	"sister brother mother mum mom father dad parent son daughter aunt uncle cousin family",
	"friend mate pal",
	"partner wife husband girlfriend boyfriend spouse",
	"wedding marry married engaged engagement",
	"birthday party celebration anniversary",
	"exercise gym workout fitness training",
	"run running race marathon jog",
	"hike hiking walk trek climb",
	"repair fix mend renovation builder plumber",
	"school class lesson course teacher study learn university",
	"computer laptop pc phone",
	"garden plant grow seed",
	"hotel stay accommodation hostel villa airbnb",
	"flight fly plane airport airline",
	"city town destination",
	"cook bake recipe ingredient",
	"name called",
}

// related maps a stemmed word to the stemmed words of its groups, made on the
// first query (stemming them costs about a millisecond, not worth a start-up).
var related = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, g := range relatedGroups {
		var ws []string
		for _, w := range strings.Fields(g) {
			ws = append(ws, stem(w))
		}
		ws = uniq(ws)
		for _, w := range ws {
			for _, o := range ws {
				if o != w {
					m[w] = append(m[w], o)
				}
			}
		}
	}
	return m
})

// relTerm is a word a query gains and its share of its weight.
type relTerm struct {
	term   string
	weight float64
	// nbr: a distributional neighbour (expandnbr.go). A passage is not cut
	// around those: said in many sentences ("lunch", "guests" of "dinner"),
	// they drew the cut away from the sentence the question's words are in.
	nbr bool
}

// expand returns the terms related to text's words that are not own (its
// terms), the hand groups' first, then WordNet's synonyms, then the words
// one step away; each round takes one group of every word, so that one
// word's many senses do not crowd out the others'.
func expand(text string, own []string) []relTerm {
	have := make(map[string]bool, len(own))
	for _, t := range own {
		have[t] = true
	}
	var out []relTerm
	nearLeft := maxNear
	add := func(t string, w float64) {
		if !have[t] && len(out) < maxExpand && (w != nearWeight || nearLeft > 0) {
			have[t] = true
			out = append(out, relTerm{t, w, false})
			if w == nearWeight {
				nearLeft--
			}
		}
	}
	for _, t := range own {
		for _, o := range related()[t] {
			add(o, expandWeight)
		}
	}
	wn := wordNet()
	keys := wn.queryKeys(text)
	for _, near := range []bool{false, true} {
		w := wnWeight
		if near {
			w = nearWeight
		}
		for rank := 0; len(out) < maxExpand && nearLeft > 0; rank++ {
			more := false
			for _, k := range keys {
				more = wn.related(k, rank, perGroup, func(p string, n bool) {
					// A phrase one step away ("paid vacation") is its
					// words apart: they mean something else.
					if n == near && (!near || !strings.Contains(p, " ")) {
						(*stemMemo)(nil).eachTerm(p, func(t string) { add(t, w) })
					}
				}) || more
			}
			if !more {
				break
			}
		}
	}
	return expandNbr(text, out, have)
}

// queryKeys are the WordNet entries of text's words, in order: a phrase
// of two or three words (not starting or ending with a stopword) when
// WordNet lists one, else each word that is not a stopword.
func (t *wnTable) queryKeys(text string) []int {
	words := asciiWords(text, maxLookWords)
	var keys []int
	seen := map[int]bool{}
	found := func(i int) {
		if !seen[i] {
			seen[i] = true
			keys = append(keys, i)
		}
	}
	for i := 0; i < len(words); {
		n := 1
		if words[i] != "" && !stopwords[words[i]] {
			for m := min(3, len(words)-i); m >= 2 && n == 1; m-- {
				ws := words[i : i+m]
				if slices.Contains(ws, "") || stopwords[ws[m-1]] || !t.hasPrefix(words[i]+" ") {
					continue
				}
				t.lookup(strings.Join(ws, " "), func(k int) { found(k); n = m })
			}
			if n == 1 && len(words[i]) >= 3 {
				t.lookup(words[i], found)
			}
		}
		i += n
	}
	return keys
}

// hasPrefix reports whether a WordNet entry starts with p.
func (t *wnTable) hasPrefix(p string) bool {
	i := wnSearch(t.keys, t.keyAt, p)
	return i < len(t.keyAt)-1 && strings.HasPrefix(wnLine(t.keys, t.keyAt, i), p)
}

// asciiWords are text's first max words of lowercase ASCII letters; a word
// with other characters is "" (no phrase runs across it).
func asciiWords(text string, max int) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80)
	}) {
		if len(out) == max {
			break
		}
		w := strings.ToLower(f)
		for _, c := range []byte(w) {
			if c < 'a' || c > 'z' {
				w = ""
				break
			}
		}
		out = append(out, w)
	}
	return out
}

// queryWords are a query's terms and the words they bring, worked out
// once per query: the search ranks with them, and the hits and the block
// are cut around them.
type queryWords struct {
	own []string
	rel []relTerm
	cut []string // own, then rel's terms but the neighbours: the words a passage is cut around
	// intent is what the query asks for besides its words (intent.go).
	intent intent
}

func wordsOf(text string) queryWords {
	w := queryWords{own: uniq(tokenize(text)), intent: intentOf(text)}
	w.rel = expand(text, w.own)
	w.cut = slices.Clip(w.own)
	for _, r := range w.rel {
		if !r.nbr {
			w.cut = append(w.cut, r.term)
		}
	}
	return w
}
