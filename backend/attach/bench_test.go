package attach

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// vocabulary of the generated text: enough distinct words that postings lists
// have the lengths real prose gives them.
func benchWords(n int) []string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("w%dx%c", i, 'a'+i%26)
	}
	return w
}

func benchText(r *rand.Rand, words []string, bytes int) string {
	var b strings.Builder
	for b.Len() < bytes {
		for range 12 {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteByte(' ')
		}
		b.WriteString(".\n")
		if r.IntN(6) == 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// BenchmarkAttachIndex is attaching a 4 MB text file: the copy, the passages file,
// and the chat's index built for its first search. ms/MB is the figure.
func BenchmarkAttachIndex(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	data := []byte(benchText(r, benchWords(20000), 4<<20))
	mb := float64(len(data)) / (1 << 20)
	dir := filepath.Join(b.TempDir(), "attachments")
	s := New(Options{Dir: func() string { return dir }})
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		sid := fmt.Sprintf("chat%d", i)
		a := s.Add(sid, []Source{{Name: "big.txt", Data: data}})[0]
		if a.Mode != "searched" {
			b.Fatalf("%+v", a)
		}
		s.Block(context.Background(), sid, "w12xm w400xk", nil, 1000)
	}
	b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N)/mb, "ms/MB")
}

// BenchmarkAttachmentSearch is attachment_search's ranking in a chat of 100 000
// passages (about 120 MB of text, more than one file may be), its index in memory.
func BenchmarkAttachmentSearch(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	words := benchWords(50000)
	dir := filepath.Join(b.TempDir(), "attachments")
	s := New(Options{Dir: func() string { return dir }})
	const n = 100_000
	for f := range 4 {
		ps := make([]Passage, n/4)
		for i := range ps {
			ps[i] = Passage{Page: i/3 + 1, Text: benchText(r, words, 1000)}
		}
		blob, err := json.Marshal(ps)
		if err != nil {
			b.Fatal(err)
		}
		cd := filepath.Join(dir, "big")
		if err := os.MkdirAll(cd, 0o700); err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("part%d.pdf", f)
		if err := os.WriteFile(filepath.Join(cd, name), nil, 0o600); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cd, passagesName(name)), blob, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	start := time.Now()
	if got := len(s.index("big").passages); got != n {
		b.Fatalf("%d passages", got)
	}
	load := time.Since(start)
	queries := make([]string, 64)
	for i := range queries {
		queries[i] = words[r.IntN(len(words))] + " " + words[r.IntN(len(words))] + " " + words[r.IntN(len(words))]
	}
	b.ResetTimer()
	for i := range b.N {
		if hits := s.index("big").search(queries[i%len(queries)], 5, nil); len(hits) == 0 {
			b.Fatal("no hits")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/search")
	b.ReportMetric(float64(load.Milliseconds()), "ms-first-load")
}
