package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkRecallLatency is what a turn pays for recall, keyword search, on
// 10k and 100k passages: the block (sized as at the default window, the live
// chat left out) and memory_search's ranking and delivery at the budget the
// default window gives it. Targets: a block <= 5 ms and a memory_search
// <= 20 ms at 10k; <= 60 ms CPU at 100k.
func BenchmarkRecallLatency(b *testing.B) {
	ctx := context.Background()
	// WordNet's table is decoded once a process, by its first query
	// (BenchmarkDecodeWordNet): a query's cost is measured without it.
	wordNet()
	for _, n := range []int{10_000, 100_000} {
		x, _ := benchIndex(n)
		const q = "what did mika say about the lodor renel?"
		b.Run(fmt.Sprintf("block-%dk", n/1000), func(b *testing.B) {
			rc := &Recaller{Index: x, Block: BlockOptions{Enabled: true, MinScore: 0.2}}
			cpu := cpuTime()
			for b.Loop() {
				rc.search(ctx, "live", q, 7000)
			}
			reportCPU(b, cpu)
		})
		b.Run(fmt.Sprintf("memory_search-%dk", n/1000), func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				res, err := x.Find(ctx, Query{Text: q, Tokens: 2900, PerHit: searchPerHit, Distinct: true,
					Skip: InPrompt("live", -1), SkipSources: InPromptSources("live", false)})
				if err != nil || len(res.Hits) == 0 {
					b.Fatalf("%d hits, %v", len(res.Hits), err)
				}
				_ = fitResults(res, 15800, 0)
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkRecallLikingLatency is the block and memory_search for a
// question asking what the user would like, which also reads the user's
// liking statements (likings.go), at 10k passages of which one in ten
// says what someone likes and one in ten holds "like" or "love" in
// passing: only the marks (liked.go) holding the question's words and the
// newest few are read.
func BenchmarkRecallLikingLatency(b *testing.B) {
	ctx := context.Background()
	wordNet()
	rng := rand.New(rand.NewPCG(10_000, 7))
	words := synthWords(rng, 5000)
	x := NewIndex(IndexOptions{})
	if err := x.open(); err != nil {
		b.Fatal(err)
	}
	err := x.write(ctx, func(tx *txn, _ *vectorSet) error {
		for i := range 10_000 {
			var s strings.Builder
			switch i % 10 {
			case 0:
				s.WriteString("I love " + words[rng.IntN(len(words))] + ", nothing beats it. ")
			case 1:
				s.WriteString("It looks like rain, would love a sunny day. ")
			}
			for range 25 {
				s.WriteString(words[int(float64(len(words))*rng.Float64()*rng.Float64())] + " ")
			}
			c := &Chunk{ID: fmt.Sprintf("memory/HISTORY.md#%08d", i), Source: HistoryFile, Text: s.String()}
			if _, err := insertChunk(tx, c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	const q = "what would mika enjoy for the lodor renel?"
	// The block's search and layout as Recaller.search does them (at the
	// room of a 7 000-byte block), with and without the liking statements.
	for _, n := range []int{likingsFor(7000), 0} {
		b.Run(fmt.Sprintf("block-10k-likings%d", n), func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				res, err := x.Find(ctx, Query{Text: q, K: 22, MinScore: 0.2, Skip: InPrompt("live", -1),
					SkipSources: InPromptSources("live", true), Distinct: true, NoMore: true, Likings: n})
				if err != nil {
					b.Fatal(err)
				}
				_ = formatBlock(res.Hits, res.cut, res.intent, 7000)
			}
			reportCPU(b, cpu)
		})
	}
	for _, n := range []int{likingsFor(2900 * bytesPerToken), 0} {
		b.Run(fmt.Sprintf("memory_search-10k-likings%d", n), func(b *testing.B) {
			benchLikingSearch(b, x, q, n)
		})
	}
}

func benchLikingSearch(b *testing.B, x *Index, q string, likings int) {
	ctx := context.Background()
	cpu := cpuTime()
	for b.Loop() {
		res, err := x.Find(ctx, Query{Text: q, Tokens: 2900, PerHit: searchPerHit, Distinct: true, Likings: likings,
			Skip: InPrompt("live", -1), SkipSources: InPromptSources("live", false)})
		if err != nil || len(res.Hits) == 0 {
			b.Fatalf("%d hits, %v", len(res.Hits), err)
		}
		_ = fitResults(res, 15800, 0)
	}
	reportCPU(b, cpu)
}
