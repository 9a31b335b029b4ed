package recallbench

import (
	"reflect"
	"testing"
)

var testCfg = Config{Seed: 27, Users: 6, Sessions: 40, Questions: 48, Distractors: 24}

// heldOutCfg is the held-out set at the benchmark's size.
var heldOutCfg = Config{Seed: 2718, Users: 6, Sessions: 40, Questions: 48, Distractors: 24, HeldOut: true}

func TestGenerateDeterministicAndSound(t *testing.T) {
	for _, cfg := range []Config{testCfg, heldOutCfg} {
		testGenerate(t, cfg)
	}
}

func testGenerate(t *testing.T, testCfg Config) {
	a, err := Generate(testCfg)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(testCfg)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same config gave different data")
	}
	if len(a.Users) != 6 || len(a.Questions) != 6*48 {
		t.Fatalf("%d users, %d questions", len(a.Users), len(a.Questions))
	}
	per := map[Category]int{}
	for _, q := range a.Questions {
		per[q.Category]++
		if q.Category == MultiHop && len(q.Evidence) < 2 {
			t.Errorf("multi-hop %q has %d pieces", q.Text, len(q.Evidence))
		}
	}
	for _, c := range Categories {
		if per[c] < len(a.Questions)/6 {
			t.Errorf("%s: %d questions", c, per[c])
		}
	}
	stored := map[Storage]int{}
	for _, u := range a.Users {
		for _, s := range u.Sessions {
			stored[s.Stored]++
		}
	}
	if stored[InChat] == 0 || stored[InHistory] == 0 || stored[InDaily] == 0 {
		t.Errorf("storage %v: want chats, history entries and daily notes", stored)
	}
}

// The questions are paraphrases: at most 40 % of their content words are
// in the evidence (the old benchmark's shared about 83 %).
func TestQuestionsParaphrase(t *testing.T) {
	for _, cfg := range []Config{testCfg, heldOutCfg} {
		testParaphrase(t, cfg)
	}
}

func testParaphrase(t *testing.T, testCfg Config) {
	d, err := Generate(testCfg)
	if err != nil {
		t.Fatal(err)
	}
	m := MeanOverlap(d.Questions)
	t.Logf("held out %v: mean content-word overlap %.3f over %d questions", testCfg.HeldOut, m, len(d.Questions))
	for _, c := range Categories {
		var qs []Question
		for _, q := range d.Questions {
			if q.Category == c {
				qs = append(qs, q)
			}
		}
		t.Logf("  %s: %.3f", c, MeanOverlap(qs))
	}
	if m > 0.40 {
		t.Errorf("mean overlap %.3f > 0.40", m)
	}
}

func TestOverlapAndKeywords(t *testing.T) {
	if o := Overlap("What did Ingrid name her dog?", []string{"Ingrid named the greyhound Biscotti."}); o != 2.0/3 {
		t.Errorf("overlap %v, want 2/3 (ingrid, name; dog is not shared)", o)
	}
	if k := Keywords("What's the name of the dog Ingrid's got?"); k != "name dog Ingrid's" {
		t.Errorf("keywords %q", k)
	}
}

func TestFound(t *testing.T) {
	d, _ := Generate(Config{Seed: 1, Users: 1, Sessions: 12, Questions: 8})
	u := d.Users[0]
	for _, q := range d.Questions {
		e := q.Evidence[0]
		line := "- (sessions/x, " + DateOf(u.Sessions[e.Session]) + ") " + e.Line + "\n"
		if f := Found(u, q, line); f != 1/float64(len(q.Evidence)) {
			t.Errorf("%s %q: found %v in its own first piece", q.Category, q.Text, f)
		}
		if e.NeedDate {
			if f := Found(u, q, "- (sessions/x, 1999-01-01) "+e.Line+"\n- (y, "+DateOf(u.Sessions[e.Session])+") other"); f != 0 {
				t.Errorf("temporal piece counted without its date beside it: %v", f)
			}
		}
	}
}

// Found reads the text the model received (a block, a tool result): any
// text at all gives a share between 0 and 1, without a panic.
func FuzzFound(f *testing.F) {
	d, err := Generate(Config{Seed: 3, Users: 1, Sessions: 8, Questions: 8})
	if err != nil {
		f.Fatal(err)
	}
	u := d.Users[0]
	for _, q := range d.Questions {
		f.Add(q.Evidence[0].Line)
	}
	f.Add("- (\n1. \n- (x, 2025-01-01)")
	f.Fuzz(func(t *testing.T, text string) {
		for _, q := range d.Questions {
			if s := Found(u, q, text); s < 0 || s > 1 {
				t.Fatalf("share %v", s)
			}
		}
	})
}

// The held-out set shares no question with the tuned one: its questions
// are other templates about other things.
func TestHeldOutIsDisjoint(t *testing.T) {
	a, err := Generate(testCfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(heldOutCfg)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, q := range a.Questions {
		for _, e := range q.Evidence {
			keys[e.Key] = true
		}
	}
	for _, q := range b.Questions {
		for _, e := range q.Evidence {
			if keys[e.Key] {
				t.Errorf("held-out key %q is also a key of the tuned set", e.Key)
			}
		}
	}
}
