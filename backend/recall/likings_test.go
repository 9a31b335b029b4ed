package recall

import (
	"context"
	"strings"
	"testing"
)

// A question asking what the user would like gets the user's liking
// statements even when they share no word with it, each as its sentence
// alone; not the assistant's, not another person's, not small talk.
func TestLikingsStanding(t *testing.T) {
	ctx := context.Background()
	ws := t.TempDir()
	writeFile(t, ws, "notes/a.md", "A pot of jasmine pearls in the afternoon is my idea of bliss. The kettle broke twice this week.")
	writeFile(t, ws, "notes/b.md", "Sam is obsessed with salsa lately.\n\nThe boiler was serviced, the engineer was quick.")
	writeFile(t, ws, "notes/c.md", "Assistant: I love helping with lists.")
	writeFile(t, ws, "notes/d.md", "The visit to the host went fine, we talked about the garden.")
	x := NewIndex(IndexOptions{Workspace: ws, Dir: t.TempDir()})
	defer x.Close()
	q := Query{Text: "What should a host brew for me when I visit?", K: 10, Likings: 4}
	res, err := x.Find(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.Source+": "+h.Snippet)
	}
	all := strings.Join(got, "\n")
	if !strings.Contains(all, "notes/a.md: A pot of jasmine pearls in the afternoon is my idea of bliss.") {
		t.Errorf("the user's liking is missing or not cut to its sentence:\n%s", all)
	}
	if strings.Contains(all, "kettle") {
		t.Errorf("a liking statement came with the rest of its passage:\n%s", all)
	}
	for _, no := range []string{"salsa", "helping"} {
		if strings.Contains(all, no) {
			t.Errorf("%q is not the user's liking:\n%s", no, all)
		}
	}
	if len(res.Hits) == 0 || res.Hits[0].Source != "notes/d.md" {
		t.Errorf("the hit of the question's own words should stay first:\n%s", all)
	}
	// Without Likings, or for a question of another kind, none are added.
	for _, q := range []Query{{Text: q.Text, K: 10}, {Text: "When did the host visit?", K: 10, Likings: 4}} {
		res, err := x.Find(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if strings.Contains(h.Snippet, "jasmine") {
				t.Errorf("%+v: a liking was added: %+v", q, res.Hits)
			}
		}
	}
}

// A liking statement holding the question's words comes before one that
// does not; one in a chunk the search skips is not given.
func TestLikingsOrderAndSkip(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, "notes/a.md", "I could eat aged Comté by the slab, honestly.")
	writeFile(t, ws, "notes/b.md", "Give me a long walk on the moors over a gym any day.")
	writeFile(t, ws, "notes/c.md", "I'm a sucker for a stroll by the sea.")
	x := NewIndex(IndexOptions{Workspace: ws, Dir: t.TempDir()})
	defer x.Close()
	skip := func(source string, _ int) bool { return source == "notes/c.md" }
	for _, q := range []Query{{Skip: skip}, {Skip: skip, SkipSources: []string{"notes/c.md"}}} {
		q.Text, q.K, q.Likings = "Which stroll would I enjoy most?", 10, 2
		checkLikingOrder(t, x, q)
	}
}

func checkLikingOrder(t *testing.T, x *Index, q Query) {
	t.Helper()
	res, err := x.Find(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var srcs []string
	for _, h := range res.Hits {
		srcs = append(srcs, h.Source)
	}
	if strings.Contains(strings.Join(srcs, " "), "notes/c.md") {
		t.Errorf("a skipped chunk's liking was given: %v", srcs)
	}
	if len(srcs) != 2 || srcs[0] != "notes/b.md" {
		t.Errorf("the liking holding a related word (walk: stroll) should come first: %v", srcs)
	}
}

// A question asking what would do for the user, in words no cue lists,
// asks for a liking; a question about a fact does not.
func TestIntentAsksForMe(t *testing.T) {
	for q, want := range map[string]bool{
		"What should a host brew for me when I visit?":     true,
		"Which exhibition would I get the most out of?":    true,
		"What nibbles should go in a care package for me?": true,
		"What did Sam say the kitchen needs?":              false,
		"Which firm hired Sam?":                            false,
		"What would the flat cost?":                        false,
	} {
		if got := intentOf(q)&askLiking != 0; got != want {
			t.Errorf("%q: liking %v, want %v", q, got, want)
		}
	}
}

// The ways of saying one likes something that no single word says.
func TestLikesPhrases(t *testing.T) {
	for s, want := range map[string]bool{
		"I'm a sucker for Dutch still lifes.":        true,
		"Nothing relaxes me like cello suites.":      true,
		"Give me canal towpaths over a gym any day.": true,
		"Sam is a sucker for puns.":                  false,
		"The bus was late, I could eat a horse.":     true,
		"The train was late twice this week.":        false,
		"My go-to at the deli is a Reuben.":          true, // a hyphenated phrase
		"We go to the deli on Fridays.":              false,
		"I must have left my keys at work.":          false,
		"I dote on my ferns.":                        true,
	} {
		got := false
		lineWords(s, func(ws []string, clause []int, _ string) { got = got || likes(ws, clause) })
		if got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}

func FuzzLikedIn(f *testing.F) {
	f.Add("User: I'm a sucker for jazz. Assistant: I love it.\n我最喜欢茶", "jazz")
	f.Fuzz(func(t *testing.T, text, q string) {
		w := wordsOf(q)
		weight := map[string]float64{}
		for _, t := range w.own {
			weight[t] = 1
		}
		said, rel := likedIn(text, newStemMemo(), weight)
		if len(said) > maxLikingBytes+len("…") || rel < 0 {
			t.Fatalf("%d bytes, related %v", len(said), rel)
		}
	})
}

// More ways of asking for a liking or a date, and of saying a liking.
func TestIntentWider(t *testing.T) {
	for q, want := range map[string]intent{
		"What sort of tea do I like?":            askLiking,
		"Would a board game appeal to me?":       askLiking,
		"Remind me when I had the boiler fixed.": askWhen,
		"Since when have I had the car?":         askWhen,
		"What did Sam say about the boiler?":     0,
	} {
		if got := intentOf(q); got != want {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
	for s, want := range map[string]bool{
		"Rock climbing is right up my street.":   true,
		"I swear by oat milk in coffee.":         true,
		"Sam swears by oat milk.":                false,
		"The bus was the best way to get there.": false,
	} {
		got := false
		lineWords(s, func(ws []string, clause []int, _ string) { got = got || likes(ws, clause) })
		if got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}
