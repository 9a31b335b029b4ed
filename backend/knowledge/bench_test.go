package knowledge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// genFolder writes n Markdown files of about 1.5 kB in folders of 100, each
// with a word of its own ("tokN").
func genFolder(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "kb")
	para := strings.Repeat("Hearth keeps notes about gardens, boats, invoices and recipes. ", 8)
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("d%03d", i/100), fmt.Sprintf("note%05d.md", i))
		if i%100 == 0 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		text := fmt.Sprintf("# Note %d\n\n%s\n\nThe code word of this note is tok%d.\n\n%s\n", i, para, i, para)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkKnowledgeIndex10k: a first index of a folder of 10 000 files (the
// walk, extract, chunking and the batched writes; keyword search, no
// embedding model), then a pass that finds nothing changed.
func BenchmarkKnowledgeIndex10k(b *testing.B) {
	const n = 10_000
	dir := genFolder(b, n)
	var first, again time.Duration
	for range b.N {
		r := newRig(b, Options{})
		start := time.Now()
		st, err := r.svc.Add(context.Background(), dir, "always")
		first += time.Since(start)
		if err != nil || st.Files != n {
			b.Fatalf("%v %+v", err, st)
		}
		start = time.Now()
		if err := r.svc.Refresh(context.Background(), ""); err != nil {
			b.Fatal(err)
		}
		again += time.Since(start)
		r.svc.Close()
		r.index.Close()
	}
	b.ReportMetric(first.Seconds()/float64(b.N), "s/10k-files")
	b.ReportMetric(float64(first.Microseconds())/float64(b.N*n), "µs/file")
	b.ReportMetric(float64(again.Milliseconds())/float64(b.N), "ms/unchanged-pass")
}

// BenchmarkKnowledgeFreshness: with the watcher on a folder of 10 000 files,
// the time from a file's write until a search finds its new word.
func BenchmarkKnowledgeFreshness(b *testing.B) {
	const n = 10_000
	dir := genFolder(b, n)
	r := newRig(b, Options{})
	defer r.index.Close()
	defer r.svc.Close()
	if _, err := r.svc.Add(context.Background(), dir, "always"); err != nil {
		b.Fatal(err)
	}
	if err := r.svc.Watch(context.Background()); err != nil {
		b.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); r.svc.List()[0].Watch != "watching"; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatal("not watching")
		}
	}
	var total time.Duration
	b.ResetTimer()
	for i := range b.N {
		word := fmt.Sprintf("zebrafresh%d", i)
		p := filepath.Join(dir, fmt.Sprintf("d%03d", (i*37)%100), fmt.Sprintf("changed%d.md", i))
		start := time.Now()
		if err := os.WriteFile(p, []byte("A new note: the word is "+word+".\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		for {
			res, err := r.index.Search(context.Background(), word, 1)
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Hits) > 0 && strings.Contains(res.Hits[0].Snippet, word) {
				break
			}
			if time.Since(start) > time.Minute {
				b.Fatal("a change not searchable within a minute")
			}
			time.Sleep(5 * time.Millisecond)
		}
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-searchable")
}
