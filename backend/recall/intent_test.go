package recall

import (
	"context"
	"strings"
	"testing"
)

func TestIntentOf(t *testing.T) {
	for _, c := range []struct {
		q    string
		want intent
	}{
		{"Can you recommend a restaurant for Friday?", askLiking},
		{"Which shoes would I like best?", askLiking},
		{"What should I cook for the guests?", askLiking},
		{"Would a scarf suit me?", askLiking},
		{"What could someone get me for the windowsill?", askLiking},
		{"有什么适合我的书推荐吗？", askLiking},
		{"When did I last see the dentist?", askWhen},
		{"On what date did we move?", askWhen},
		{"What was the day of the exam?", askWhen},
		{"How long ago did I start the course?", askWhen},
		{"Did I call Ana before the interview?", askWhen},
		{"我们什么时候搬的家？", askWhen},
		{"When would I enjoy a trip to the coast?", askLiking | askWhen},
		{"What does Ana do for a living?", 0},
		{"What should I get after the main course?", askLiking}, // "after" alone is not a time question
		{"Where is my passport?", 0},
	} {
		if got := intentOf(c.q); got != c.want {
			t.Errorf("intentOf(%q) = %b, want %b", c.q, got, c.want)
		}
	}
}

func TestIntentPrior(t *testing.T) {
	for _, c := range []struct {
		in   intent
		text string
		want float64
	}{
		{askLiking, "User: My favourite tea is oolong.", intentPrior},
		{askLiking, "User: Been to the market, can't get enough of the cheese stall.", intentPrior},
		{askLiking, "User: Honestly I can't stand loud bars.", intentPrior},
		{askLiking, "User: I’m really into climbing these days.", intentPrior},
		{askLiking, "User: 我最喜欢的茶是乌龙。", intentPrior},
		{askLiking, "User: Sam loves jazz.\nAssistant: I love that too!", 0}, // someone else's; the assistant's
		{askLiking, "User: The meeting ran long.", 0},
		{askWhen, "User: Signed the lease this morning!", intentPrior},
		{askWhen, "[2025-03-02 10:00] Moved on 3 May 2024.", intentPrior},
		{askWhen, "User: 昨天去看了牙医。", intentPrior},
		{askWhen, "User: The lease is signed.\nAssistant: Congrats on today!", 0},
		{askLiking | askWhen, "User: I love the gig we went to last night.", 2 * intentPrior},
		{0, "User: I love it today.", 0},
	} {
		if got := c.in.prior(c.text, nil, func(string) bool { return true }); got != c.want {
			t.Errorf("%b.prior(%q) = %v, want %v", c.in, c.text, got, c.want)
		}
	}
}

// The cue counts only in a sentence holding a word of the question: a
// day's history entry likes and dates things in most of its sentences.
func TestIntentPriorNeedsTheQuestionsWord(t *testing.T) {
	text := "[2026-01-02 10:00] My favourite tea is oolong. The music was loud yesterday. We love the new bakery."
	music := func(t string) bool { return t == "music" }
	if got := askLiking.prior(text, nil, music); got != 0 {
		t.Errorf("a liking in another sentence counted: %v", got)
	}
	if got := askWhen.prior(text, nil, music); got != intentPrior {
		t.Errorf("the dated sentence with the word: %v, want %v", got, intentPrior)
	}
	if got := askLiking.prior(text, nil, func(t string) bool { return t == "bakeri" || t == "bakery" }); got != intentPrior {
		t.Errorf("the liking with the word: %v, want %v", got, intentPrior)
	}
}

// A question asking what the user would like ranks the passage where the
// user says what they like above one that holds the same word as small
// talk; a question with no such intent keeps the words' order.
func TestIntentRanksLikings(t *testing.T) {
	ctx := context.Background()
	ws := t.TempDir()
	writeFile(t, ws, "notes/a.md", "The music was loud next door.")
	writeFile(t, ws, "notes/b.md", "My favourite music is bossa nova, ever since the trip to Lisbon with the cousins and their records.")
	writeFile(t, ws, "notes/c.md", "The boiler was serviced, the engineer was quick.")
	x := NewIndex(IndexOptions{Workspace: ws, Dir: t.TempDir()})
	defer x.Close()
	res, err := x.Find(ctx, Query{Text: "What music would suit me?", K: 2})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("%v %v", res.Hits, err)
	}
	if res.Hits[0].Source != "notes/b.md" {
		t.Errorf("a liking question ranks %s first, want the stated liking: %+v", res.Hits[0].Source, res.Hits)
	}
	res, err = x.Find(ctx, Query{Text: "Which music was that?", K: 2})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("%v %v", res.Hits, err)
	}
	if res.Hits[0].Source != "notes/a.md" {
		t.Errorf("without an intent the shorter passage should come first: %+v", res.Hits)
	}
}

func FuzzIntent(f *testing.F) {
	f.Add("When did I say I love it?", "User: I love it, this morning, can't stand it.\nAssistant: ok")
	f.Add("推荐", "我最喜欢 ’ , ; : 2024 3 may")
	f.Fuzz(func(t *testing.T, q, text string) {
		p := intentOf(q).prior(text, nil, func(t string) bool { return len(t)%2 == 0 })
		if p < 0 || p > 2*intentPrior {
			t.Fatalf("prior %v out of range", p)
		}
	})
}

// A passage cut for a question with an intent keeps the sentence of that
// kind when another holds as many of its words.
func TestPassageKeepsTheAskedSentence(t *testing.T) {
	text := "User: The tea at the station café was cold again.\nAssistant: Oh no.\nUser: Oolong is my favourite tea, I drink it every morning."
	terms := []string{"tea"}
	if got := passage(text, terms, 0, 60); !strings.Contains(got, "station") {
		t.Errorf("without an intent the first sentence should win the tie: %q", got)
	}
	if got := passage(text, terms, askLiking, 70); !strings.Contains(got, "Oolong") {
		t.Errorf("a liking question lost the liking: %q", got)
	}
}
