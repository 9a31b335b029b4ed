package recallbench

import "testing"

// The second development set generates; its questions share as few words
// with the evidence as the other sets' (at most 0.40), its temporal and
// preference ones far fewer.
func TestDev2Set(t *testing.T) {
	d, err := Generate(Config{Seed: 35, Users: 6, Sessions: 40, Questions: 48, Distractors: 24, Dev2: true})
	if err != nil {
		t.Fatal(err)
	}
	by := map[Category][]Question{}
	for _, q := range d.Questions {
		by[q.Category] = append(by[q.Category], q)
	}
	for _, c := range Categories {
		t.Logf("%s: %d questions, overlap %.3f", c, len(by[c]), MeanOverlap(by[c]))
	}
	if m := MeanOverlap(d.Questions); m > 0.40 {
		t.Errorf("overlap %.3f, want <= 0.40", m)
	}
	for _, c := range []Category{Temporal, Preference} {
		if m := MeanOverlap(by[c]); m > 0.20 {
			t.Errorf("%s overlap %.3f, want <= 0.20", c, m)
		}
	}
}
