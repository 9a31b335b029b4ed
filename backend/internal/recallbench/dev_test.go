package recallbench

import "testing"

// The development sets generate, and their questions share as few words with
// the evidence as the other sets' (at most 0.40); the second set's temporal
// and preference questions far fewer (at most 0.20), as people ask them.
func TestDevSets(t *testing.T) {
	for _, s := range []struct {
		name     string
		cfg      Config
		kindsMax float64 // the most temporal and preference questions may share
	}{
		{"dev", Config{Seed: 33, Users: 6, Sessions: 40, Questions: 48, Distractors: 24, Dev: true}, 0.40},
		{"dev2", Config{Seed: 35, Users: 6, Sessions: 40, Questions: 48, Distractors: 24, Dev2: true}, 0.20},
	} {
		t.Run(s.name, func(t *testing.T) {
			d, err := Generate(s.cfg)
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
				if m := MeanOverlap(by[c]); m > s.kindsMax {
					t.Errorf("%s overlap %.3f, want <= %.2f", c, m, s.kindsMax)
				}
			}
		})
	}
}
