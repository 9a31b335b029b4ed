package recall

import (
	"context"
	"testing"
)

// BenchmarkReload is opening a cached 10k-entry index (first search of a
// process): decode the log, rebuild BM25 and the vector store, stat files.
func BenchmarkReload(b *testing.B) {
	ws, dir := b.TempDir(), b.TempDir()
	writeFile(b, ws, HistoryFile, synthHistory(10_000, 5))
	fe := &fakeEmbed{}
	if _, err := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"}).Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rep, err := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"}).Sync(context.Background())
		if err != nil || rep.Chunks != 10_000 || rep.Embedded != 0 {
			b.Fatalf("%+v %v", rep, err)
		}
	}
}
