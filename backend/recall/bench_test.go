package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

const benchDims = 384 // nomic-embed-text's and the test model's size

func randomVec(rng *rand.Rand) []float32 {
	v := make([]float32, benchDims)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return normalize(v)
}

// benchIndex is an in-memory index of n synthetic chunks with vectors.
func benchIndex(n int) (*Index, *rand.Rand) {
	rng := rand.New(rand.NewPCG(uint64(n), 3))
	words := synthWords(rng, 5000)
	x := NewIndex(IndexOptions{})
	if err := x.open(); err != nil {
		panic(err)
	}
	err := x.write(context.Background(), func(tx *txn, _ *vectorSet) error {
		for i := range n {
			var b strings.Builder
			for range 25 {
				b.WriteString(words[int(float64(len(words))*rng.Float64()*rng.Float64())] + " ")
			}
			c := &Chunk{ID: fmt.Sprintf("memory/HISTORY.md#%08d", i), Source: HistoryFile, Text: b.String(), Vec: randomVec(rng)}
			if _, err := insertChunk(tx, c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	return x, rng
}

// BenchmarkQuery is one recall query (vector + BM25, ranked, the hits read)
// over 10k and 100k chunks, without the query's embedding call. Targets:
// hybrid ≤ 15 ms at 10k and ≤ 60 ms at 100k. The vector half is an
// exhaustive scan, so it grows linearly with chunks; FTS5 does the keyword
// half through its index.
func BenchmarkQuery(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		x, rng := benchIndex(n)
		q := "mika lodor renel vito"
		qv := randomVec(rng)
		// The vectors are read once per process (BenchmarkReload's cost).
		if _, err := x.vectors(); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("hybrid-%dk", n/1000), func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				if r, err := x.query(context.Background(), q, qv, 5, ""); err != nil || len(r.Hits) != 5 {
					b.Fatalf("%d hits, %v", len(r.Hits), err)
				}
			}
			reportCPU(b, cpu)
		})
		b.Run(fmt.Sprintf("keyword-%dk", n/1000), func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				if _, err := x.query(context.Background(), q, nil, 5, ""); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkIncrementalReindex is the sync after one changed file, with a
// 10k-entry HISTORY.md and 100 daily notes already indexed and persisted;
// embedding time is excluded (an instant embedder). Target: < 50 ms.
func BenchmarkIncrementalReindex(b *testing.B) {
	ws, dir := b.TempDir(), b.TempDir()
	writeFile(b, ws, HistoryFile, synthHistory(10_000, 11))
	for i := range 100 {
		writeFile(b, ws, fmt.Sprintf("memory/2026-01-%02d.md", i%28+1)+strings.Repeat("x", i/28), "Daily note.\n")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	vec := randomVec(rng)
	embed := func(_ context.Context, in []string) ([][]float32, error) {
		out := make([][]float32, len(in))
		for i := range out {
			out[i] = vec
		}
		return out, nil
	}
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: embed, Model: "m"})
	if _, err := x.Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Run("daily-note", func(b *testing.B) {
		p := filepath.Join(ws, "memory", "2026-01-05.md")
		i := 0
		for b.Loop() {
			i++
			b.StopTimer()
			err := os.WriteFile(p, fmt.Appendf(nil, "Daily note %d: fed the cat, called mum.\n", i), 0o600)
			b.StartTimer()
			if err != nil {
				b.Fatal(err)
			}
			if rep, err := x.Sync(context.Background()); err != nil || rep.Changed != 1 || rep.Added != 1 {
				b.Fatalf("%+v %v", rep, err)
			}
		}
	})
	b.Run("history-append-10k", func(b *testing.B) {
		s := newNotebook(ws)
		at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		i := 0
		var cpu time.Duration // the index's alone
		for b.Loop() {
			i++
			b.StopTimer() // the write is the store's, not the index's
			if err := s.AppendHistory(fmt.Sprintf("New entry %d about the garden.", i), at); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			cpu0 := cpuTime()
			if rep, err := x.Sync(context.Background()); err != nil || rep.Added != 1 {
				b.Fatalf("%+v %v", rep, err)
			}
			cpu += cpuTime() - cpu0
		}
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	})
}

// BenchmarkIndexMemory reports the heap the index holds for 10k chunks
// (384-dim vectors, ~25-word texts, BM25 postings, chromem documents).
func BenchmarkIndexMemory(b *testing.B) {
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		x, _ := benchIndex(10_000)
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB/10k-chunks")
		runtime.KeepAlive(x)
	}
}

// reportCPU adds CPU ms per op beside the wall time: on a machine shared by
// other work the wall time measures the queue, the CPU time the query.
func reportCPU(b *testing.B, since time.Duration) {
	b.ReportMetric(float64(cpuTime()-since)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// The keyword side reads only the chunks it picks by the words they hold
// (candidates.go); its hits must score as those of reading and scoring every
// matching chunk (among equal scores either may come first).
func TestPickedKeywordMatchesAll(t *testing.T) {
	x, _ := benchIndex(5000)
	ctx := context.Background()
	find := func(q Query) []Hit {
		words := wordsOf(q.Text)
		_, list, err := x.rank(ctx, q, words, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		hits, _ := deliver(list, q, words.cut, words.intent)
		return hits
	}
	for _, text := range []string{"mika lodor renel vito", "mika", "lodor vito", "renel mika sarel", "what did mika say about the lodor renel?"} {
		for _, k := range []int{5, 40} {
			// A minimum score leaves out the chunks holding too few of the words
			// before anything is read.
			for _, minScore := range []float64{0, 0.6} {
				q := Query{Text: text, K: k, MinScore: minScore}
				x.readAll = true
				want := find(q)
				x.readAll = false
				got := find(q)
				if minScore == 0 && len(want) != k || len(want) == 0 || len(got) != len(want) {
					t.Fatalf("%+v: %d hits, reading all %d", q, len(got), len(want))
				}
				for i := range want {
					if got[i].Score != want[i].Score {
						t.Errorf("%+v hit %d: %s %.3f, reading all %s %.3f", q, i, got[i].ID, got[i].Score, want[i].ID, want[i].Score)
					}
				}
			}
		}
	}
}

// query is rank and deliver for k whole chunks.
func (x *Index) query(ctx context.Context, query string, qvec []float32, k int, note string) (Results, error) {
	q := Query{Text: query, K: k}
	words := wordsOf(q.Text)
	res, list, err := x.rank(ctx, q, words, qvec, note)
	res.Hits, res.More = deliver(list, q, words.cut, words.intent)
	return res, err
}
