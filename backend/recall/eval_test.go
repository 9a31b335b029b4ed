package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// topics of the recall fixture: a note (person, place) and a question about
// it as a user would ask it, in other words where natural. Each topic gets
// four notes with different people and places; the question names one of
// them, so the three siblings are the hard distractors.
var evalTopics = [][2]string{
	{"Dentist appointment with %s at %s: two fillings, next check in six months.", "when did %s do my fillings at the dentist"},
	{"Renewed my passport; %s helped with the forms at the %s office.", "passport renewal with %s"},
	{"Dinner with %s at %s, tried the grilled octopus.", "where did I eat octopus with %s"},
	{"%s recommended the book 'The Overstory' while we were at %s.", "which book did %s recommend"},
	{"Car service at %s garage; %s said the brake pads are worn.", "what did %s say about the brakes"},
	{"Moved the weekly team meeting to Thursdays after talking to %s at %s.", "why is the team meeting on Thursday, %s"},
	{"Lent my drill to %s; pick it up from %s next week.", "who has my drill, %s?"},
	{"Flu vaccination at %s pharmacy, %s gave the shot.", "flu shot %s"},
	{"Planned the hiking trip with %s: start at %s trailhead at 7.", "hiking plan with %s"},
	{"%s's birthday party at %s; bought her a silk scarf.", "what gift for %s birthday"},
	{"Paid the plumber %s for the boiler repair at %s.", "boiler repair by %s"},
	{"Signed the lease for the flat on %s street with landlord %s.", "lease signed with %s"},
	{"Job interview at %s with %s; they asked about Kubernetes.", "interview questions from %s"},
	{"Started piano lessons with %s at %s music school.", "piano teacher %s"},
	{"%s and I repainted the fence at %s in dark green.", "fence colour painted with %s"},
	{"Adopted a kitten from %s shelter; %s suggested the name Pepper.", "kitten name %s suggested"},
	{"Tax return filed with help from accountant %s at %s.", "tax filing accountant %s"},
	{"Bought a used bicycle from %s near %s for 150 euros.", "price of the bike from %s"},
	{"Yoga retreat at %s organised by %s, three days of silence.", "silent retreat %s organised"},
	{"Lunch with %s at %s about starting a podcast together.", "podcast idea with %s"},
	{"%s fixed the leaking roof of the shed at %s.", "who repaired the shed roof, %s"},
	{"Booked flights to Lisbon with %s, departing from %s airport.", "Lisbon flights booked with %s"},
	{"Blood test results from Dr %s at %s: cholesterol slightly high.", "cholesterol result from %s"},
	{"Garden: planted tulip bulbs with %s along the %s path.", "tulips planted with %s"},
	{"Wedding anniversary dinner planned by %s at %s.", "anniversary dinner %s planned"},
	{"%s taught me to bake sourdough bread at %s.", "sourdough baking lesson with %s"},
	{"Insurance claim for the broken window, handled by %s at %s.", "window insurance claim %s"},
	{"Chess tournament at %s, lost the final to %s.", "chess final against %s"},
	{"Volunteered at the %s food bank with %s on Saturday.", "food bank volunteering with %s"},
	{"Bought concert tickets for Radiohead with %s, venue %s.", "Radiohead concert tickets with %s"},
	{"Laptop screen replaced by %s at the %s repair shop.", "laptop screen repair %s"},
	{"Mortgage meeting with %s at %s bank: fixed rate for ten years.", "fixed mortgage rate advice from %s"},
	{"%s lent me a tent for camping at %s lake.", "tent borrowed from %s"},
	{"Spanish conversation class with %s at %s library.", "Spanish class with %s"},
	{"Physiotherapy for my knee with %s at %s clinic.", "knee physio with %s"},
	{"Helped %s move house to %s; the sofa did not fit the lift.", "moving day with %s and the sofa"},
	{"Wine tasting at %s vineyard with %s, bought six bottles of Riesling.", "Riesling bought with %s"},
	{"Set up the home network with %s: new router in the %s room.", "router installed with %s"},
	{"Vet visit with %s for the dog's vaccinations at %s.", "dog vaccinations vet %s"},
	{"Swapped vinyl records with %s at the %s flea market.", "records traded with %s"},
	{"Climbing session at %s gym, %s belayed me on the overhang.", "climbing with %s on the overhang"},
	{"Photography walk with %s around %s old town at sunset.", "sunset photos walk with %s"},
	{"%s recommended a pension fund during coffee at %s.", "pension advice from %s"},
	{"Kitchen renovation quote from %s for the %s house: 12,000 euros.", "kitchen renovation quote %s"},
	{"Went sailing with %s from %s harbour; rough sea.", "sailing trip with %s"},
	{"Board game night at %s's place in %s, played Catan.", "Catan night at %s"},
	{"Eye test at %s opticians with %s; new glasses ordered.", "new glasses eye test %s"},
	{"Marathon training plan from coach %s, long runs along %s.", "marathon plan from %s"},
	{"Cancelled the gym membership at %s after talking to %s.", "gym membership cancelled, %s"},
	{"Christmas market in %s with %s, bought a wooden nutcracker.", "nutcracker bought with %s"},
}

var evalPeople = []string{"Ana", "Bruno", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jonas",
	"Kemal", "Lucia", "Marek", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tomasz",
	"Uma", "Viktor", "Wanda", "Ximena", "Yusuf", "Zofia", "Arjun", "Beatriz", "Callum", "Dalia",
	"Emil", "Fatima", "Gustav", "Hana", "Ivo", "Jana", "Kai", "Leila", "Mateo", "Noor"}

var evalPlaces = []string{"Riverside", "Northgate", "Elm", "Harbour", "Castle", "Station", "Market", "Hilltop",
	"Lakeside", "Old Mill", "Central", "Westend", "Oak", "Bridge", "Garden", "Meadow"}

// evalFixture is 200 dated notes (as HISTORY.md entries and daily notes)
// and 50 queries with the index of the note each one asks about.
func evalFixture() (notes []string, queries []string, want []int) {
	rng := rand.New(rand.NewPCG(5, 23))
	day := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
	for i, tp := range evalTopics {
		for j := range 4 {
			person := evalPeople[(i*4+j*7)%len(evalPeople)]
			place := evalPlaces[(i+j*5)%len(evalPlaces)]
			text := fmt.Sprintf(tp[0], person, place)
			if placeFirst[i+1] {
				text = fmt.Sprintf(tp[0], place, person)
			}
			at := day.Add(time.Duration(rng.IntN(700*24)) * time.Hour)
			notes = append(notes, fmt.Sprintf("[%s] %s", at.Format(entryTime), text))
		}
		j := i % 4
		queries = append(queries, fmt.Sprintf(tp[1], evalPeople[(i*4+j*7)%len(evalPeople)]))
		want = append(want, i*4+j)
	}
	return notes, queries, want
}

// placeFirst marks the topics (1-based) whose note names the place first.
var placeFirst = map[int]bool{5: true, 8: true, 12: true, 13: true, 16: true, 19: true, 28: true, 29: true,
	37: true, 41: true, 47: true, 49: true, 50: true}

// TestKeywordRecallAt5 measures BM25 recall@5 on the fixture: the note a
// query asks about must be among the first five hits (target ≥ 0.8).
func TestKeywordRecallAt5(t *testing.T) {
	notes, queries, want := evalFixture()
	ws := t.TempDir()
	// Half the notes in HISTORY.md, half as daily notes: both kinds of source.
	var hist strings.Builder
	daily := map[string]string{}
	for i, n := range notes {
		if i%2 == 0 {
			hist.WriteString(n + "\n\n")
		} else {
			daily[n[1:11]] += n[19:] + "\n\n"
		}
	}
	writeFile(t, ws, HistoryFile, hist.String())
	for d, text := range daily {
		writeFile(t, ws, "memory/"+d+".md", text)
	}
	x := NewIndex(IndexOptions{Workspace: ws})
	hits := 0
	for qi, q := range queries {
		res, err := x.Search(context.Background(), q, 5)
		if err != nil {
			t.Fatal(err)
		}
		target := notes[want[qi]][19:]
		found := false
		for _, h := range res.Hits {
			found = found || strings.Contains(h.Snippet, target)
		}
		if found {
			hits++
		} else {
			t.Logf("miss: %q → want %q, got %q", q, target, res.Hits[0].Snippet)
		}
	}
	recall := float64(hits) / float64(len(queries))
	t.Logf("keyword recall@5 = %.2f (%d/%d queries, %d notes)", recall, hits, len(queries), len(notes))
	fmt.Printf("keyword recall@5 = %.2f (%d/%d queries over %d dated notes)\n", recall, hits, len(queries), len(notes))
	if len(notes) != 200 || len(queries) != 50 {
		t.Fatalf("fixture has %d notes and %d queries", len(notes), len(queries))
	}
	if recall < 0.8 {
		t.Errorf("keyword recall@5 %.2f < 0.8", recall)
	}
}
