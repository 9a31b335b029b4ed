package recall

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// fakeEmbed is fakeollama's bag-of-words vector, counted.
type fakeEmbed struct {
	calls, texts atomic.Int64
	fail         atomic.Bool
}

func (f *fakeEmbed) embed(_ context.Context, texts []string) ([][]float32, error) {
	if f.fail.Load() {
		return nil, errors.New("connection refused")
	}
	f.calls.Add(1)
	f.texts.Add(int64(len(texts)))
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = fakeollama.Vector(t)
	}
	return out, nil
}

func writeFile(t testing.TB, ws, rel, content string) {
	t.Helper()
	p := filepath.Join(ws, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func history(entries ...string) string {
	var b strings.Builder
	for i, e := range entries {
		fmt.Fprintf(&b, "[2026-01-%02d 10:00] %s\n\n", i%28+1, e)
	}
	return b.String()
}

func topSource(t *testing.T, r Results) string {
	t.Helper()
	if len(r.Hits) == 0 {
		t.Fatalf("no hits (mode %s, note %q)", r.Mode, r.Note)
	}
	return r.Hits[0].Source + ": " + r.Hits[0].Snippet
}

func TestKeywordFallbackSaysSo(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, history("Talked about the garden fence and the neighbour's cat.", "Fixed the bicycle brakes before the weekend ride."))
	writeFile(t, ws, "memory/2026-01-05.md", "Dentist appointment moved to Friday.")
	writeFile(t, ws, "projects/boat.md", "# Boat\n\nThe sailing boat needs new varnish on the deck.")
	writeFile(t, ws, "memory/MEMORY.md", "- Prefers tea over coffee.") // searchable too
	x := NewIndex(IndexOptions{Workspace: ws})
	r, err := x.Search(context.Background(), "bicycle brakes", 3)
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != ModeKeyword || !strings.Contains(r.Note, "no embedding model") {
		t.Errorf("mode %q note %q, want keyword with a reason", r.Mode, r.Note)
	}
	if got := topSource(t, r); !strings.Contains(got, "HISTORY.md: [2026-01-02 10:00] Fixed the bicycle") {
		t.Errorf("top hit %q", got)
	}
	for _, h := range r.Hits {
		if h.Mode != ModeKeyword || h.Score <= 0 || h.Score > 1 {
			t.Errorf("hit %+v", h)
		}
	}
	if r.Hits[0].Date != "2026-01-02 10:00" {
		t.Errorf("date %q", r.Hits[0].Date)
	}
	r, _ = x.Search(context.Background(), "varnish the deck", 3)
	if got := topSource(t, r); !strings.HasPrefix(got, "projects/boat.md") {
		t.Errorf("note not found: %q", got)
	}
}

// The embedding path through the real llm client and the fake Ollama's
// /api/embed: hybrid hits, batched calls, vectors persisted.
func TestHybridThroughOllamaClient(t *testing.T) {
	_, host := fakeollama.Start(t, fakeollama.DefaultScript())
	o, err := llm.NewOllama(llm.OllamaConfig{Host: host, EmbedBatch: 2})
	if err != nil {
		t.Fatal(err)
	}
	ws, dir := t.TempDir(), t.TempDir()
	writeFile(t, ws, HistoryFile, history("Booked the train to Vienna for the conference.", "Cooked lentil soup with cumin.", "Cat vaccinations are due in spring.", "Paid the electricity bill."))
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Model: "nomic-embed-text", Embed: func(ctx context.Context, in []string) ([][]float32, error) {
		return o.Embed(ctx, "nomic-embed-text", in)
	}})
	r, err := x.Search(context.Background(), "train to Vienna", 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != ModeHybrid || r.Note != "" {
		t.Fatalf("mode %q note %q", r.Mode, r.Note)
	}
	if got := topSource(t, r); !strings.Contains(got, "Vienna") || r.Hits[0].Mode != ModeHybrid {
		t.Errorf("top %q (%s)", got, r.Hits[0].Mode)
	}
	rep := x.Report()
	if rep.Chunks != 4 || rep.Vectors != 4 || rep.Mode != ModeHybrid {
		t.Errorf("report %+v", rep)
	}
	// A second index over the same cache embeds nothing again.
	calls := 0
	y := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Model: "nomic-embed-text", Embed: func(ctx context.Context, in []string) ([][]float32, error) {
		calls += len(in)
		return o.Embed(ctx, "nomic-embed-text", in)
	}})
	rep2, err := y.Sync(context.Background())
	if err != nil || rep2.Vectors != 4 || rep2.Embedded != 0 || rep2.Rebuilt {
		t.Errorf("reload: %+v %v", rep2, err)
	}
	if calls != 0 {
		t.Errorf("reload embedded %d texts", calls)
	}
}

func TestIncrementalAndHandEdits(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	fe := &fakeEmbed{}
	var entries []string
	for i := range 50 {
		entries = append(entries, fmt.Sprintf("Entry number %d about topic%d.", i, i))
	}
	writeFile(t, ws, HistoryFile, history(entries...))
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
	rep, err := x.Sync(context.Background())
	if err != nil || rep.Chunks != 50 || rep.Embedded != 50 {
		t.Fatalf("first sync %+v %v", rep, err)
	}
	// Appending one entry embeds one chunk.
	s := newNotebook(ws)
	if err := s.AppendHistory("Adopted a parrot named Kiwi.", time.Now()); err != nil {
		t.Fatal(err)
	}
	rep, _ = x.Sync(context.Background())
	if rep.Added != 1 || rep.Embedded != 1 || rep.Removed != 0 || rep.Chunks != 51 {
		t.Errorf("after append: %+v", rep)
	}
	// A hand edit (no Hearth involved) replaces one entry's text.
	b, _ := os.ReadFile(filepath.Join(ws, HistoryFile))
	edited := strings.Replace(string(b), "Entry number 7 about topic7.", "Entry number 7 was about the accordion lesson.", 1)
	os.WriteFile(filepath.Join(ws, HistoryFile), []byte(edited), 0o600)
	r, _ := x.Search(context.Background(), "accordion lesson", 1)
	if got := topSource(t, r); !strings.Contains(got, "accordion") {
		t.Errorf("hand edit not picked up: %q", got)
	}
	r, _ = x.Search(context.Background(), "topic7", 5)
	for _, h := range r.Hits {
		if strings.Contains(h.Snippet, "topic7.") {
			t.Errorf("old text still indexed: %q", h.Snippet)
		}
	}
	// A deleted file leaves the index.
	writeFile(t, ws, "notes/tmp.md", "zanzibar spice market")
	r, _ = x.Search(context.Background(), "zanzibar", 1)
	topSource(t, r)
	os.Remove(filepath.Join(ws, "notes/tmp.md"))
	r, _ = x.Search(context.Background(), "zanzibar", 1)
	for _, h := range r.Hits {
		if h.Source == "notes/tmp.md" {
			t.Errorf("deleted note still found: %+v", h)
		}
	}
}

func TestRebuiltAfterDeletionDamageAndModelChange(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	var entries []string
	for i := range 30 {
		entries = append(entries, fmt.Sprintf("Memory %d: the quokka%d visited.", i, i))
	}
	writeFile(t, ws, HistoryFile, history(entries...))
	writeFile(t, ws, "memory/2026-02-01.md", "Daily: walked along the harbour.")
	fe := &fakeEmbed{}
	open := func() *Index { return NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"}) }
	sync := func(x *Index) IndexReport {
		t.Helper()
		rep, err := x.Sync(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		x.Close()
		return rep
	}
	if rep := sync(open()); rep.Chunks != 31 {
		t.Fatalf("%+v", rep)
	}
	check := func(name string, wantRebuilt bool) {
		t.Helper()
		x := open()
		rep, err := x.Sync(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.Chunks != 31 || rep.Vectors != 31 || rep.Rebuilt != wantRebuilt {
			t.Errorf("%s: report %+v", name, rep)
		}
		r, _ := x.Search(context.Background(), "quokka17", 1)
		if got := topSource(t, r); !strings.Contains(got, "quokka17 ") {
			t.Errorf("%s: top %q", name, got)
		}
		x.Close()
		// and the repaired cache opens cleanly next time
		if rep := sync(open()); rep.Rebuilt || rep.Chunks != 31 || rep.Embedded != 0 {
			t.Errorf("%s: after repair %+v", name, rep)
		}
	}
	dbPath := filepath.Join(dir, dbName)
	// Deleted: rebuilt from the files.
	removeDB(dir)
	check("deleted", false)
	// The old hand-built log is removed on sight.
	os.WriteFile(filepath.Join(dir, legacyLog), []byte("old"), 0o600)
	check("legacy log", false)
	if _, err := os.Stat(filepath.Join(dir, legacyLog)); err == nil {
		t.Error("legacy chunks.log left behind")
	}
	// Garbage over the header.
	f, _ := os.OpenFile(dbPath, os.O_WRONLY, 0)
	f.WriteAt([]byte("garbage!garbage!"), 0)
	f.Close()
	check("header", true)
	// Cut short (a copy or sync tool stopped half way).
	fi, _ := os.Stat(dbPath)
	os.Truncate(dbPath, fi.Size()/2)
	check("truncated", true)
	// Garbage over every page but the first.
	b, _ := os.ReadFile(dbPath)
	for i := 4096; i < len(b); i++ {
		b[i] = byte(i * 7)
	}
	os.WriteFile(dbPath, b, 0o600)
	check("pages", true)
	// Another embedding model: vectors rebuilt.
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "other"})
	if rep, _ := x.Sync(context.Background()); !rep.Rebuilt || rep.Embedded != 31 || rep.Vectors != 31 {
		t.Errorf("model change: %+v", rep)
	}
	x.Close()
}

// Two indexes over one cache (the desktop app and a CLI command): each sees
// the other's changes, and neither loses its vectors.
func TestTwoProcessesShareTheCache(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	writeFile(t, ws, HistoryFile, history("The walrus sleeps on the ice."))
	fe := &fakeEmbed{}
	a := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
	b := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
	defer a.Close()
	defer b.Close()
	if r, _ := a.Search(context.Background(), "walrus", 3); len(r.Hits) != 1 || r.Mode != ModeHybrid {
		t.Fatalf("a: %+v", r)
	}
	writeFile(t, ws, "memory/2026-03-03.md", "The narwhal has one long tooth.")
	if r, _ := b.Search(context.Background(), "narwhal tooth", 3); len(r.Hits) == 0 || !strings.Contains(r.Hits[0].Snippet, "narwhal") || r.Hits[0].Mode != ModeHybrid {
		t.Fatalf("b: %+v", r)
	}
	texts := fe.texts.Load()
	if r, _ := a.Search(context.Background(), "narwhal tooth", 3); len(r.Hits) == 0 || r.Hits[0].Mode != ModeHybrid {
		t.Fatalf("a after b: %+v", r)
	}
	if got := fe.texts.Load() - texts; got != 1 { // the query only
		t.Errorf("a embedded %d texts again", got)
	}
}

func TestEmbeddingDownFallsBackThenCatchesUp(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, history("Ordered a blue raincoat online.", "Visited grandma in the hospital."))
	fe := &fakeEmbed{}
	fe.fail.Store(true)
	now := time.Now()
	x := NewIndex(IndexOptions{Workspace: ws, Embed: fe.embed, Model: "m", Now: func() time.Time { return now }})
	r, err := x.Search(context.Background(), "raincoat", 2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != ModeKeyword || !strings.Contains(r.Note, "embedding model is unavailable") || !strings.Contains(topSource(t, r), "raincoat") {
		t.Errorf("down: %+v", r)
	}
	fe.fail.Store(false)
	now = now.Add(time.Minute)
	r, _ = x.Search(context.Background(), "raincoat", 2)
	if r.Mode != ModeHybrid || x.Report().Vectors != 2 {
		t.Errorf("after recovery: mode %s, %+v", r.Mode, x.Report())
	}
}

func TestReindexAndSessions(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	writeFile(t, ws, HistoryFile, history("One.", "Two about walruses."))
	fe := &fakeEmbed{}
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir, Embed: fe.embed, Model: "m"})
	x.Sync(context.Background())
	rep, err := x.Reindex(context.Background())
	if err != nil || !rep.Rebuilt || rep.Chunks != 2 || rep.Embedded != 2 {
		t.Errorf("reindex %+v %v", rep, err)
	}
}

// Appending to HISTORY.md takes a fast path (only the tail is chunked); it
// must give the same chunks as reading the whole file.
func TestHistoryAppendFastPathMatchesFullRead(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, "# History\n\n[2026-01-01 10:00] Same.\n\n[2026-01-02 10:00] Other.\n")
	x := NewIndex(IndexOptions{Workspace: ws})
	x.Sync(context.Background())
	ids := func(x *Index) string {
		x.mu.Lock()
		defer x.mu.Unlock()
		rows, err := x.db.Query(`SELECT id FROM chunks WHERE source = ? ORDER BY id`, HistoryFile)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var id string
			rows.Scan(&id)
			out = append(out, id)
		}
		return strings.Join(out, ",")
	}
	p := filepath.Join(ws, HistoryFile)
	for i, tail := range []string{
		"\n[2026-01-01 10:00] Same.\n",          // duplicate text: needs the ordinal
		"[2026-01-03 10:00] New.\n",             // after a newline
		"continuation of the last entry\n",      // not an entry: full read
		"\n\n[2026-01-04 10:00] Later.\nmore\n", // multi-line entry
	} {
		f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(tail)
		f.Close()
		rep, err := x.Sync(context.Background())
		if err != nil || rep.Changed != 1 {
			t.Fatalf("step %d: %+v %v", i, rep, err)
		}
		fresh := NewIndex(IndexOptions{Workspace: ws})
		fresh.Sync(context.Background())
		if got, want := ids(x), ids(fresh); got != want {
			t.Errorf("step %d: incremental IDs\n%s\nfull read\n%s", i, got, want)
		}
		if x.Report().Chunks != fresh.Report().Chunks {
			t.Errorf("step %d: %d chunks, full read %d", i, x.Report().Chunks, fresh.Report().Chunks)
		}
	}
}

// A search stats the note folders, not every note: a note added, removed or
// saved by rename shows at once, a note rewritten in place by the next full
// walk; a new process (a new Index over the same cache) reads the folders from
// the index instead of walking.
func TestNoteFoldersInsteadOfWalk(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	for i := range 200 {
		writeFile(t, ws, fmt.Sprintf("notes/d%d/n%03d.md", i%4, i), fmt.Sprintf("note %d about nothing", i))
	}
	writeFile(t, ws, "notes/d0/keep.md", "alpha note")
	writeFile(t, ws, "ideas.md", "echo idea at the top")
	// Folder times in the past, as for notes made a while ago: recent ones are not trusted.
	old := time.Now().Add(-time.Hour)
	for _, d := range []string{"notes/d0", "notes/d1", "notes/d2", "notes/d3", "notes", "."} {
		os.Chtimes(filepath.Join(ws, d), old, old)
	}
	now := time.Now()
	open := func() *Index {
		return NewIndex(IndexOptions{Workspace: ws, Dir: dir, Now: func() time.Time { return now }})
	}
	x := open()
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if x.statCount < 200 {
		t.Fatalf("the first sync walks every note: %d stats", x.statCount)
	}
	x.Close()

	y := open() // the next `hearth agent`
	if r, _ := y.Search(context.Background(), "alpha", 1); len(r.Hits) != 1 {
		t.Fatalf("known note not found: %+v", r.Hits)
	}
	if y.statCount > 10 {
		t.Errorf("a new process stats %d files for 200 notes in 4 folders; want the folders only", y.statCount)
	}
	if r, _ := y.Search(context.Background(), "echo", 1); len(r.Hits) != 1 {
		t.Fatalf("the note at the top not found: %+v", r.Hits)
	}
	// Added (a new file in a folder) and saved by rename: the folder's time moves.
	writeFile(t, ws, "notes/d1/new.md", "bravo note")
	tmp := filepath.Join(ws, "notes/d2/tmp")
	os.WriteFile(tmp, []byte("charlie replaced"), 0o600)
	os.Rename(tmp, filepath.Join(ws, "notes/d2/n002.md"))
	// Rewritten in place: the folder's time stays.
	p := filepath.Join(ws, "notes/d0/keep.md")
	fi, _ := os.Stat(filepath.Join(ws, "notes/d0"))
	os.WriteFile(p, []byte("delta rewritten in place"), 0o600)
	os.Chtimes(filepath.Join(ws, "notes/d0"), fi.ModTime(), fi.ModTime())
	// A folder removed takes its notes along; so does a note removed from the top.
	os.RemoveAll(filepath.Join(ws, "notes/d3"))
	os.Remove(filepath.Join(ws, "ideas.md"))
	for q, want := range map[string]int{"bravo": 1, "charlie": 1, "delta": 0, "note 3": 0, "echo": 0} {
		r, _ := y.Search(context.Background(), q, 50)
		n := 0
		for _, h := range r.Hits {
			if strings.Contains(h.Source, "d3/") || q != "note 3" {
				n++
			}
		}
		if n != want {
			t.Errorf("%q: %d hits, want %d: %+v", q, n, want, r.Hits)
		}
	}
	now = now.Add(walkEvery)
	if r, _ := y.Search(context.Background(), "delta", 1); len(r.Hits) != 1 {
		t.Errorf("a note rewritten in place is not found after the next full walk")
	}
}

// An appended entry that repeats an earlier one (same stamp, same text) gets
// the next "~N" ID, as a full read of the file numbers it, though only the
// tail is read.
func TestAppendedTwinsNumberedAsAFullRead(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	writeFile(t, ws, HistoryFile, history("Fed the parrot.", "Watered the fern."))
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir})
	defer x.Close()
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := newNotebook(ws)
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC) // the first entry's stamp
	for i := range 3 {
		entry := "Fed the parrot."
		if i == 1 {
			entry = "A new entry about the kiwi."
		}
		if err := s.AppendHistory(entry, at); err != nil {
			t.Fatal(err)
		}
		rep, err := x.Sync(context.Background())
		if err != nil || rep.Added != 1 || rep.Removed != 0 {
			t.Fatalf("append %d: %+v %v", i, rep, err)
		}
	}
	ids := func(x *Index) []string {
		t.Helper()
		got, err := chunkIDs(x.db, HistoryFile)
		if err != nil {
			t.Fatal(err)
		}
		return slices.Sorted(maps.Keys(got))
	}
	appended := ids(x)
	full := NewIndex(IndexOptions{Workspace: ws, Dir: t.TempDir()})
	defer full.Close()
	if _, err := full.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := ids(full); !slices.Equal(appended, want) || len(want) != 5 {
		t.Errorf("IDs after appends %q, after a full read %q", appended, want)
	}
	twins := 0
	for _, id := range appended {
		if strings.Contains(id, "~") {
			twins++
		}
	}
	if twins != 2 {
		t.Errorf("want the parrot entry twice more as base~1 and base~2: %q", appended)
	}
}

// Report describes the index without changing it.
func (x *Index) Report() IndexReport {
	x.mu.Lock()
	defer x.mu.Unlock()
	var rep IndexReport
	if x.open() == nil {
		_ = x.fill(&rep)
	}
	return rep
}
