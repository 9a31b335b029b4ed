package recall

import "strings"

// Query expansion from the question's own words: people ask with other
// words than they used when they said it ("what sweet should I get" of "if
// there's mochi on the pudding menu"). Each word of the query brings the
// other words of its group below, at half its weight (expandWeight): they
// find and order passages, but a passage holding them alone scores less than
// one holding the question's own words. The groups are everyday things a
// person tells an assistant about; with an embedding model, vectors find the
// rest. The model adds its own words to memory_search ("also").

// expandWeight is what an added word weighs, against its idf.
const expandWeight = 0.5

// maxExpand bounds the words a query gains: each costs a lookup.
const maxExpand = 16

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
	"hate dislike",
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
	"hobby pastime",
	"cook bake recipe ingredient",
	"name called",
}

// related maps a stemmed word to the stemmed words of its groups.
var related = func() map[string][]string {
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
}()

// expand returns the words related to terms that are not terms themselves.
func expand(terms []string) []string {
	have := map[string]bool{}
	for _, t := range terms {
		have[t] = true
	}
	var out []string
	for _, t := range terms {
		for _, o := range related[t] {
			if !have[o] {
				have[o] = true
				out = append(out, o)
			}
		}
	}
	return out
}

// withRelated is terms and, after them, the words they bring (the words a
// passage is cut around).
func withRelated(terms []string) []string {
	return append(terms[:len(terms):len(terms)], expand(terms)...)
}
