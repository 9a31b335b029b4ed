package app

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"hearth/backend/internal/recallbench"
)

// The regression floor of TestRecallPath, on its slice of the benchmark
// (recallSlice). The acceptance targets are block >= 0.80 and
// memory_search >= 0.90 overall at 8k, multi-hop >= 0.75, no category under
// 0.60, block >= 0.70 at 4k. Each floor is what recall-quality measures on
// the slice less a margin (main 170ff4f in brackets; docs/memory.md,
// "Measuring recall").
const (
	floorBlock8k     = 0.92 // recall block at the shipped 8 192-token window, overall (0.983; with WordNet alone 0.967; 170ff4f: 0.000)
	floorBlock4k     = 0.84 // the block at a 4 096-token window, overall (0.908; with WordNet alone 0.875; 170ff4f: 0.000)
	floorTool8k      = 0.90 // memory_search at the 8k window, the question as query (1.000; 170ff4f: 0.750)
	floorMultiHop    = 0.85 // the block at 8k, share of multi-hop evidence found (1.000; 170ff4f: 0.000)
	floorAnyCategory = 0.80 // the block at 8k, every category (0.933; 170ff4f: 0.000)
	// maxOverlap: questions share at most this much of their content words
	// with the evidence (the old benchmark's shared about 0.83).
	maxOverlap = 0.40
)

// recallSlice is the small data set of the CI test: 3 users, 60 questions,
// asked at 8k and 4k with the question as memory_search's query (make
// bench's run also asks with the key words, and at 32k).
var recallSlice = recallbench.Config{Seed: 27, Users: 3, Sessions: 30, Questions: 20, Distractors: 10}

var sliceWindows = []recallWindow{{8192, "block@8k", "tool@8k(1024)", false}, {4096, "block@4k", "tool@4k(512)", false}}

// recallFull is make bench's: 6 users, 288 questions.
var recallFull = recallbench.Config{Seed: 27, Users: 6, Sessions: 40, Questions: 48, Distractors: 24}

// devFull is the development set: the tuned set's single-hop and
// multi-hop kinds, temporal and preference kinds of its own.
var devFull = recallbench.Config{Seed: 33, Users: 6, Sessions: 40, Questions: 48, Distractors: 24, Dev: true}

// dev2Full is the second development set: temporal and preference kinds
// asked in everyday words that name nobody (recallbench/dev2kinds.go).
var dev2Full = recallbench.Config{Seed: 35, Users: 6, Sessions: 40, Questions: 48, Distractors: 24, Dev2: true}

// The held-out set: other kinds of fact and other question templates,
// written without looking at recall's related-words list, and another
// seed (recallbench/heldout.go). Recall was not tuned on it.
var (
	heldOutSlice = recallbench.Config{Seed: 2718, Users: 3, Sessions: 30, Questions: 20, Distractors: 10, HeldOut: true}
	heldOutFull  = recallbench.Config{Seed: 2718, Users: 6, Sessions: 40, Questions: 48, Distractors: 24, HeldOut: true}
)

func TestRecallPath(t *testing.T) {
	if testing.Short() {
		t.Skip("the recall benchmark's slice takes a few seconds")
	}
	d, err := recallbench.Generate(recallSlice)
	if err != nil {
		t.Fatal(err)
	}
	r := runRecallBench(t, d, sliceWindows)
	t.Logf("%d questions, mean content-word overlap %.3f\n%s", r.n, r.overlap, r.table())
	if r.overlap > maxOverlap {
		t.Errorf("questions share %.3f of their words with the evidence, want <= %.2f", r.overlap, maxOverlap)
	}
	check := func(what string, got, floor float64) {
		if got < floor {
			t.Errorf("%s: %.3f, below the floor %.3f", what, got, floor)
		}
	}
	b8 := r.tallies["block@8k"]
	check("block at 8k", b8.Rate(""), floorBlock8k)
	check("block at 4k", r.tallies["block@4k"].Rate(""), floorBlock4k)
	check("memory_search at 8k", r.tallies["tool@8k(1024) question"].Rate(""), floorTool8k)
	check("block at 8k, multi-hop", b8.Rate(recallbench.MultiHop), floorMultiHop)
	for _, c := range recallbench.Categories {
		check("block at 8k, "+string(c), b8.Rate(c), floorAnyCategory)
	}
}

// The held-out floors, on heldOutSlice: what was measured on it with the
// question's intent, the shorter cut of a small block and GloVe's
// neighbours (in brackets, 2026-12-08; without the neighbours in the
// second; with WordNet's related words alone in the third; before them in
// the fourth) less a margin. Recall was not tuned on this set, so these are
// lower than the tuned slice's.
const (
	heldOutBlock8k     = 0.73 // (0.803; 0.769; 0.769; 0.686)
	heldOutBlock4k     = 0.69 // (0.767; 0.717; 0.686; 0.628)
	heldOutTool8k      = 0.76 // (0.844; 0.811; 0.803; 0.703)
	heldOutMultiHop    = 0.80 // (0.911; 0.911; 0.911; 0.911)
	heldOutAnyCategory = 0.45 // the block at 8k, every category (temporal 0.567, preference 0.733; 0.567, 0.667 without the neighbours and with WordNet alone; 0.500, 0.467)
)

func TestRecallPathHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("the recall benchmark's slice takes a few seconds")
	}
	d, err := recallbench.Generate(heldOutSlice)
	if err != nil {
		t.Fatal(err)
	}
	r := runRecallBench(t, d, sliceWindows)
	t.Logf("held-out: %d questions, mean content-word overlap %.3f\n%s", r.n, r.overlap, r.table())
	if r.overlap > maxOverlap {
		t.Errorf("questions share %.3f of their words with the evidence, want <= %.2f", r.overlap, maxOverlap)
	}
	check := func(what string, got, floor float64) {
		if got < floor {
			t.Errorf("held-out %s: %.3f, below the floor %.3f", what, got, floor)
		}
	}
	b8 := r.tallies["block@8k"]
	check("block at 8k", b8.Rate(""), heldOutBlock8k)
	check("block at 4k", r.tallies["block@4k"].Rate(""), heldOutBlock4k)
	check("memory_search at 8k", r.tallies["tool@8k(1024) question"].Rate(""), heldOutTool8k)
	check("block at 8k, multi-hop", b8.Rate(recallbench.MultiHop), heldOutMultiHop)
	for _, c := range recallbench.Categories {
		check("block at 8k, "+string(c), b8.Rate(c), heldOutAnyCategory)
	}
}

// The message being answered must not change what the block holds: the
// block built for the live turn (the question already saved in its chat,
// so in the index) is the one a search from elsewhere gets before the
// question was saved.
func TestRecallBlockIgnoresLiveTurn(t *testing.T) {
	d, err := recallbench.Generate(recallbench.Config{Seed: 5, Users: 1, Sessions: 20, Questions: 16, Distractors: 8})
	if err != nil {
		t.Fatal(err)
	}
	r := runRecallBench(t, d, sliceWindows[:1])
	if r.blocks == 0 || r.sameBlock != r.blocks {
		t.Errorf("the live question changes the block of %d of %d questions", r.blocks-r.sameBlock, r.blocks)
	}
}

// The harness sees a block when recall gives one: a question that repeats
// the evidence word for word finds it in the request the model receives.
func TestRecallHarnessSeesBlock(t *testing.T) {
	d, err := recallbench.Generate(recallbench.Config{Seed: 9, Users: 1, Sessions: 12, Questions: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Questions {
		d.Questions[i].Text = d.Questions[i].Evidence[0].Line
	}
	r := runRecallBench(t, d, sliceWindows[:1])
	if b := r.tallies["block@8k"]; b.Given() == 0 {
		t.Fatalf("no block reached the model for questions that repeat their evidence\n%s", r.table())
	}
	if tool := r.tallies["tool@8k(1024) question"]; tool.Rate("") == 0 || !strings.Contains(r.table(), "tool@8k") {
		t.Fatalf("memory_search found nothing\n%s", r.table())
	}
}

// BenchmarkRecallPath runs the whole benchmark (6 users, 288 questions) on
// the agent's path and prints the table (make bench; docs/memory.md,
// "Measuring recall"). Targets: block >= 0.80 and memory_search >= 0.90
// overall at 8k, multi-hop >= 0.75, no category under 0.60, block >= 0.70
// at 4k.
func BenchmarkRecallPath(b *testing.B) {
	d, err := recallbench.Generate(recallFull)
	if err != nil {
		b.Fatal(err)
	}
	h, err := recallbench.Generate(heldOutFull)
	if err != nil {
		b.Fatal(err)
	}
	// RECALLPATH_SET=tuned runs the tuned set alone, =dev the development
	// set (recallbench/devkinds.go), =dev2 the second one (dev2kinds.go):
	// recall is developed on those, and the held-out set is run only to
	// measure.
	set := os.Getenv("RECALLPATH_SET")
	if cfg, ok := map[string]recallbench.Config{"dev": devFull, "dev2": dev2Full}[set]; ok {
		d, err = recallbench.Generate(cfg)
		if err != nil {
			b.Fatal(err)
		}
	}
	tunedOnly := set == "tuned" || set == "dev" || set == "dev2"
	var r, ho *recallResults
	for b.Loop() {
		r = runRecallBench(b, d, recallWindows)
		if !tunedOnly {
			ho = runRecallBench(b, h, recallWindows)
		}
	}
	if tunedOnly {
		fmt.Printf("%d questions, mean content-word overlap %.3f\n%s", r.n, r.overlap, r.table())
		return
	}
	for _, t := range ho.tallies {
		t.Path = "held-out " + t.Path
	}
	// Printed, not logged: a benchmark's log is cut after a few lines.
	fmt.Printf("%d questions, mean content-word overlap %.3f; a hit: the evidence's key text in what the model received\n%s",
		r.n, r.overlap, r.table())
	fmt.Printf("held-out set: %d questions, mean content-word overlap %.3f\n%s", ho.n, ho.overlap, ho.table())
	b.ReportMetric(r.tallies["block@8k"].Rate(""), "block8k-hit")
	b.ReportMetric(r.tallies["block@4k"].Rate(""), "block4k-hit")
	b.ReportMetric(r.tallies["tool@8k(1024) question"].Rate(""), "tool8k-hit")
	b.ReportMetric(r.tallies["tool@32k(4000) question"].Rate(""), "tool4000-hit")
	b.ReportMetric(r.tallies["block@8k"].Rate(recallbench.MultiHop), "block8k-multihop")
	b.ReportMetric(r.overlap, "overlap")
	b.ReportMetric(ho.tallies["block@8k"].Rate(""), "heldout-block8k-hit")
	b.ReportMetric(ho.tallies["tool@8k(1024) question"].Rate(""), "heldout-tool8k-hit")
	b.ReportMetric(ho.tallies["block@8k"].Rate(recallbench.MultiHop), "heldout-block8k-multihop")
	b.ReportMetric(ho.overlap, "heldout-overlap")
}
