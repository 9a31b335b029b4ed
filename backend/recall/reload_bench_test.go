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

// BenchmarkLoadVectors is a new process's first vector search loading every
// stored vector of a 10k-entry index from its file: what each `hearth agent`
// turn pays with an embedding model installed.
func BenchmarkLoadVectors(b *testing.B) {
	ws, dir := b.TempDir(), b.TempDir()
	writeFile(b, ws, HistoryFile, synthHistory(10_000, 5))
	fe := &fakeEmbed{}
	if _, err := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"}).Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	cpu := cpuTime()
	for b.Loop() {
		x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
		if err := x.open(); err != nil {
			b.Fatal(err)
		}
		if v, err := x.vectors(); err != nil || v.len() != 10_000 {
			b.Fatal(err)
		}
		x.Close()
	}
	reportCPU(b, cpu)
}
