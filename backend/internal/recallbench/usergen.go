package recallbench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// userGen draws one user's names and keys; used keeps every key (and
// every entry drawn for one) distinct within the user.
type userGen struct {
	rng    *rand.Rand
	used   map[string]bool
	people []string
	likes  [][]string // the pools of other people's likings in small talk
}

func (g *userGen) pick(l []string) string           { return l[g.rng.IntN(len(l))] }
func (g *userGen) pickPair(l [][2]string) [2]string { return l[g.rng.IntN(len(l))] }
func (g *userGen) person() string                   { return g.pick(g.people) }

// draw takes n distinct entries of l.
func (g *userGen) draw(l []string, n int) []string {
	var out []string
	for _, i := range g.rng.Perm(len(l))[:min(n, len(l))] {
		out = append(out, l[i])
	}
	return out
}

// fill replaces {name} by its value; kv alternates names and values.
func (g *userGen) fill(t string, kv ...string) string {
	for i := 0; i+1 < len(kv); i += 2 {
		t = strings.ReplaceAll(t, "{"+kv[i]+"}", kv[i+1])
	}
	return t
}

// unique calls make until it gives a key not used yet.
func (g *userGen) unique(make func() string) string {
	for {
		if k := make(); !g.used[k] {
			g.used[k] = true
			return k
		}
	}
}

// uniqueFrom draws an entry of l not used yet; when l is used up, a made-up
// word is added to an entry so the key stays distinct.
func (g *userGen) uniqueFrom(l []string) string {
	for _, i := range g.rng.Perm(len(l)) {
		if !g.used[l[i]] {
			g.used[l[i]] = true
			return l[i]
		}
	}
	return g.unique(func() string { return g.word() + " " + g.pick(l) })
}

// word is a made-up capitalised word of two or three syllables.
func (g *userGen) word() string {
	var b strings.Builder
	for range 2 + g.rng.IntN(2) {
		b.WriteString(g.pick(syllables))
	}
	w := b.String()
	return strings.ToUpper(w[:1]) + w[1:]
}

func (g *userGen) petName() string    { return g.word() }
func (g *userGen) company() string    { return g.word() + " " + g.pick(coSuffixes) }
func (g *userGen) bookTitle() string  { return "The " + g.pick(adjectives) + " " + g.pick(nouns) }
func (g *userGen) guesthouse() string { return g.pick(inns) + " " + g.word() }
func (g *userGen) shopName() string   { return g.word() + "'s Loaves" }
func (g *userGen) bandName() string   { return "The " + g.pick(adjectives) + " " + g.pick(bands) }
func (g *userGen) raceName() string   { return g.pick(races) + " " + g.pick(raceKinds) }
func (g *userGen) price() string {
	return fmt.Sprintf("£%d,%03d", 2+g.rng.IntN(18), 10*g.rng.IntN(100))
}
func (g *userGen) address() string { return fmt.Sprintf("%d %s", 2+g.rng.IntN(97), g.pick(streets)) }

// chatter is a line of small talk, now and then naming someone the user
// knows or liking something: the words the questions' anchors compete with.
func (g *userGen) chatter() string {
	switch g.rng.IntN(6) {
	case 0:
		return g.fill(g.pick(chatWithPerson), "p", g.person(), "q", g.person())
	case 1:
		// Only likings no fact uses: small talk comes after the facts.
		var free []string
		for _, x := range slices.Concat(g.likes...) {
			if !g.used[x] {
				free = append(free, x)
			}
		}
		return g.fill(g.pick(chatOthersLike), "p", g.person(), "x", g.pick(free))
	}
	return g.pick(smallTalk)
}

var smallTalk = list(`Work was busy today, lots of meetings and emails.|The weather turned cold again this week.|
	I watched a documentary about octopuses last night.|Thinking about repainting the living room.|
	My back hurts a little after the long drive.|We ordered pizza and played cards.|
	I should really call my parents more often.|The train was late twice this week.|
	Trying to drink less coffee in the afternoons.|The neighbours are renovating again, very noisy.|
	I finally cleaned out the garage.|Can you remind me to water the plants tomorrow?|
	The dishwasher is making that noise again.|Slept badly, the heating kept clicking all night.|
	Went for a long walk by the river at lunch.|My inbox is a disaster after the holidays.|
	Feeling a bit under the weather, might have an early night.|The new bus timetable makes no sense.|
	I burnt the toast twice this morning, not my day.|Spent the evening sorting old photos.|
	Need to renew my passport before summer.|The cat from across the road keeps sitting on our car.|
	Thinking of taking Friday off, I need a long weekend.|Tried a new recipe for dinner, it was fine, nothing special.|
	My phone battery dies by lunchtime these days.|We had a power cut for an hour this afternoon.|
	Finished the jigsaw puzzle at last, a thousand pieces.|The garden needs weeding badly.|
	Just got back from the supermarket, it was packed.|I keep forgetting to book the car in for its service.|
	The kids next door were practising trumpet all afternoon.|Quiet day, mostly reading and tea.|
	Had a long call with the bank, sorted in the end.|Our internet was slow all evening.|
	The laundry pile is winning.|Thinking about a new pair of running shoes.`)

var chatWithPerson = list(`Bumped into {p} at the supermarket, we chatted for ages.|{p} says hello, by the way.|
	Had coffee with {p} after work.|{p} and {q} are coming round on Sunday.|{p} sent me a funny video about goats.|
	Helped {p} carry a sofa up three flights of stairs.|{p} is having a tough week, I should check in.|
	Lunch with {p} went on longer than planned.|{p} borrowed my drill again.|{p} called about the weekend plans.`)

var chatOthersLike = list(`{p} is obsessed with {x} lately.|{p} keeps telling me about {x}.|{p} can't get enough of {x} these days.`)

var chatReplies = list(`That sounds like a lot, how are you feeling about it?|Good to know, I'll keep that in mind.|
	Nice! Tell me more if you like.|Sounds sensible.|I hope the rest of the week is calmer.|
	Noted. Anything you want me to remind you about?|Ha, that made me smile.|Fair enough.|
	Sounds like a good plan.|Oh no, I hope it gets better soon.`)

var factReplies = list(`That's lovely news!|Good to know, thanks for telling me.|Noted, I'll remember that.|
	How exciting!|Oh, interesting.|That sounds great.|Got it.`)
