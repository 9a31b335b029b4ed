package recall

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// synthWords is a vocabulary of made-up words, so generated text has a
// realistic spread of rare and common terms.
func synthWords(rng *rand.Rand, n int) []string {
	syll := []string{"ka", "lo", "mi", "ren", "to", "sa", "vi", "dor", "el", "an", "qu", "ze", "po", "li", "mar", "nu"}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for range 2 + rng.IntN(3) {
			b.WriteString(syll[rng.IntN(len(syll))])
		}
		out[i] = b.String()
	}
	return out
}

// synthHistory is a HISTORY.md of n entries of about 25 words each.
func synthHistory(n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	words := synthWords(rng, 5000)
	var b strings.Builder
	t := time.Date(2020, 1, 1, 8, 0, 0, 0, time.UTC)
	for i := range n {
		t = t.Add(time.Duration(1+rng.IntN(600)) * time.Minute)
		fmt.Fprintf(&b, "[%s] Entry %d:", t.Format(entryTime), i)
		for range 20 + rng.IntN(10) {
			// Zipf-like: low indices are common words.
			b.WriteString(" " + words[int(float64(len(words))*rng.Float64()*rng.Float64())])
		}
		b.WriteString(".\n\n")
	}
	return b.String()
}

func TestTenThousandEntryHistory(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	h := synthHistory(10_000, 7)
	needle := "[2031-01-01 09:00] Adopted a golden retriever named Biscuit from the shelter."
	h = strings.Replace(h, "\n\n", "\n\n"+needle+"\n\n", 1)
	writeFile(t, ws, HistoryFile, h)
	fe := &fakeEmbed{}
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
	start := time.Now()
	rep, err := x.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("indexed %d entries in %v (%d embed calls)", rep.Chunks, time.Since(start), fe.calls.Load())
	if rep.Chunks != 10_001 || rep.Vectors != 10_001 {
		t.Fatalf("report %+v", rep)
	}
	for _, mode := range []string{"hybrid", "keyword"} {
		y := x
		if mode == "keyword" {
			y = NewIndex(IndexOptions{Workspace: ws})
		}
		start = time.Now()
		res, err := y.Search(context.Background(), "golden retriever Biscuit", 5)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s search over 10k entries: %v", mode, time.Since(start))
		if res.Mode != mode || len(res.Hits) == 0 || res.Hits[0].Snippet != needle {
			t.Errorf("%s: %+v", mode, res)
		}
	}
	// Reloaded from the cache: counts checked, nothing embedded again.
	calls := fe.calls.Load()
	y := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
	start = time.Now()
	rep, err = y.Sync(context.Background())
	if err != nil || rep.Chunks != 10_001 || rep.Vectors != 10_001 || rep.Rebuilt || fe.calls.Load() != calls {
		t.Errorf("reload %+v %v", rep, err)
	}
	t.Logf("reloaded the 10k index from its cache in %v", time.Since(start))
}
