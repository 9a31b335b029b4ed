// Package recallbench generates the data of Hearth's recall benchmark:
// users with many dated chats of small talk and facts, and questions about
// those facts written the way people ask (paraphrased, sharing few words
// with what was said), in four categories. It also scores what the model
// received against the evidence. Everything is derived from a seed
// (math/rand/v2, PCG), so a run is the same on every machine.
//
// The benchmark itself (driving the agent's real path) is in
// backend/app/recallbench_test.go; docs/memory.md, "Measuring recall".
package recallbench

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Category is a kind of question.
type Category string

// The question categories.
const (
	SingleHop  Category = "single-hop"
	MultiHop   Category = "multi-hop"
	Temporal   Category = "temporal"
	Preference Category = "preference"
)

// Categories in report order.
var Categories = []Category{SingleHop, MultiHop, Temporal, Preference}

// Storage says where a past chat lives when the question is asked.
type Storage int

// Where a past chat is kept.
const (
	InChat    Storage = iota // a session file in the sessions store
	InHistory                // consolidated into a memory/HISTORY.md entry
	InDaily                  // consolidated into the day's note, memory/YYYY-MM-DD.md
)

// Turn is one exchange.
type Turn struct {
	User, Assistant string
}

// Session is one past chat.
type Session struct {
	Start  time.Time
	Turns  []Turn
	Stored Storage
}

// Evidence is one piece of a question's answer.
type Evidence struct {
	Key     string // distinctive text the answer needs; in no other line of the user's
	Line    string // the user's line that holds it
	Session int
	// NeedDate: a hit needs the passage's date beside the key (temporal).
	NeedDate bool
}

// Question is one question with its evidence.
type Question struct {
	User     int
	Category Category
	Text     string
	Evidence []Evidence
}

// User is one person's history.
type User struct {
	Sessions []Session
}

// Data is the whole benchmark.
type Data struct {
	Users     []User
	Questions []Question
}

// Config sizes the data.
type Config struct {
	Seed      uint64
	Users     int
	Sessions  int // per user
	Questions int // per user, spread evenly over the categories
	// Distractors are facts of the same kinds that no question asks about,
	// per user (other people's jobs, pets, trips).
	Distractors int
	// HeldOut draws the facts and questions from the held-out kinds
	// (heldout.go): other domains and phrasings than the set recall was
	// tuned on.
	HeldOut bool
	// Dev draws temporal and preference facts from the development set's
	// own kinds (devkinds.go).
	Dev bool
	// Dev2 draws them from the second development set's kinds
	// (dev2kinds.go): questions in everyday words that name nobody.
	Dev2 bool
}

// kindSet is one set of fact kinds, and the likings small talk says other
// people have (from the same pools, so they compete with the user's).
type kindSet struct {
	kinds      []kind
	othersLike [][]string
}

func setOf(cfg Config) kindSet {
	if cfg.Dev {
		return devSet()
	}
	if cfg.Dev2 {
		return dev2Set()
	}
	if cfg.HeldOut {
		return kindSet{append(append([]kind(nil), heldOutKinds...), heldOutPreferences...),
			[][]string{boardGames, scents, videoGames}}
	}
	return kindSet{append(append([]kind(nil), kinds...), morePreferences...), [][]string{genres, cuisines, filmKinds}}
}

// Generate makes the data for cfg. The same cfg gives the same data.
func Generate(cfg Config) (Data, error) {
	var d Data
	for u := range cfg.Users {
		user, qs, err := generateUser(cfg, u)
		if err != nil {
			return Data{}, fmt.Errorf("user %d: %w", u, err)
		}
		d.Users = append(d.Users, user)
		d.Questions = append(d.Questions, qs...)
	}
	return d, nil
}

func (ks kindSet) byCategory(c Category) []kind {
	var out []kind
	for _, k := range ks.kinds {
		if k.cat == c {
			out = append(out, k)
		}
	}
	return out
}

func generateUser(cfg Config, u int) (User, []Question, error) {
	set := setOf(cfg)
	g := &userGen{rng: rand.New(rand.NewPCG(cfg.Seed, uint64(u)+1)), used: map[string]bool{}, likes: set.othersLike}
	g.people = g.draw(firstNames, 24)
	var user User
	day := time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC).AddDate(0, 0, g.rng.IntN(30))
	for s := range cfg.Sessions {
		day = day.AddDate(0, 0, 2+g.rng.IntN(6))
		at := day.Add(time.Duration(8*60+g.rng.IntN(12*60)) * time.Minute)
		st := InChat
		// Some users' older chats were consolidated (and the chats deleted):
		// a third of the users keep HISTORY.md entries, a third daily notes.
		if s < cfg.Sessions*2/3 {
			st = [...]Storage{InChat, InHistory, InDaily}[u%3]
		}
		user.Sessions = append(user.Sessions, Session{Start: at, Stored: st})
	}
	// Facts: the questions' first, then the distractors'; each kind of
	// preference once per user (one favourite cuisine, not two).
	usedPref := map[int]bool{}
	prefs := set.byCategory(Preference)
	var facts []fact
	asked := 0
	for i := 0; i < cfg.Questions+cfg.Distractors; i++ {
		c := Categories[i%len(Categories)]
		ks := set.byCategory(c)
		k := ks[g.rng.IntN(len(ks))]
		if c == Preference {
			free := []int{}
			for j := range prefs {
				if !usedPref[j] {
					free = append(free, j)
				}
			}
			if len(free) == 0 {
				c, k = SingleHop, set.byCategory(SingleHop)[g.rng.IntN(len(set.byCategory(SingleHop)))]
			} else {
				j := free[g.rng.IntN(len(free))]
				usedPref[j], k = true, prefs[j]
			}
		}
		f := k.make(g)
		f.cat = c
		facts = append(facts, f)
		if i < cfg.Questions {
			asked++
		}
	}
	// Place each fact's pieces in distinct sessions, at random turns.
	type placed struct{ s, at int }
	var qs []Question
	for fi, f := range facts {
		sess := g.rng.Perm(cfg.Sessions)[:len(f.pieces)]
		var ev []Evidence
		for pi, p := range f.pieces {
			s := sess[pi]
			user.Sessions[s].Turns = append(user.Sessions[s].Turns, Turn{User: p.text, Assistant: g.pick(factReplies)})
			ev = append(ev, Evidence{Key: p.key, Line: p.text, Session: s, NeedDate: f.needDate})
		}
		if fi < asked {
			qs = append(qs, Question{User: u, Category: f.cat, Text: f.question, Evidence: ev})
		}
	}
	// Small talk around the facts, shuffled in.
	for s := range user.Sessions {
		ss := &user.Sessions[s]
		for range 5 + g.rng.IntN(6) {
			ss.Turns = append(ss.Turns, Turn{User: g.chatter(), Assistant: g.pick(chatReplies)})
		}
		g.rng.Shuffle(len(ss.Turns), func(i, j int) { ss.Turns[i], ss.Turns[j] = ss.Turns[j], ss.Turns[i] })
	}
	if err := check(user, qs); err != nil {
		return User{}, nil, err
	}
	return user, qs, nil
}

// check makes sure every key is in exactly one line of the user's history
// and in no question: a hit then means the evidence reached the model.
func check(u User, qs []Question) error {
	var all []string
	for _, s := range u.Sessions {
		for _, t := range s.Turns {
			all = append(all, t.User, t.Assistant)
		}
	}
	for _, q := range qs {
		for _, e := range q.Evidence {
			if strings.Contains(strings.ToLower(q.Text), strings.ToLower(e.Key)) {
				return fmt.Errorf("question %q holds its answer %q", q.Text, e.Key)
			}
			n := 0
			for _, l := range all {
				n += strings.Count(l, e.Key)
			}
			if n != 1 {
				return fmt.Errorf("key %q is in %d lines, want 1", e.Key, n)
			}
		}
	}
	return nil
}
