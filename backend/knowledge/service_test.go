package knowledge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"hearth/backend/config"
	"hearth/backend/recall"
	"hearth/backend/tools"
)

// fakeSettings holds a config in memory, validated on Update as a save is.
type fakeSettings struct {
	mu    sync.Mutex
	cfg   *config.Config
	paths config.Paths
}

func (f *fakeSettings) Config() *config.Config { f.mu.Lock(); defer f.mu.Unlock(); return f.cfg }
func (f *fakeSettings) Paths() config.Paths    { return f.paths }
func (f *fakeSettings) Update(fn func(*config.Config) error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.cfg.Clone()
	if err := fn(n); err != nil {
		return err
	}
	if probs := n.Validate(); len(probs) > 0 {
		return errors.New(probs[0].Msg)
	}
	f.cfg = n
	return nil
}

type rig struct {
	t     testing.TB
	svc   *Service
	index *recall.Index
	set   *fakeSettings
	data  string
}

func newRig(t testing.TB, opts Options) *rig {
	t.Helper()
	data := t.TempDir()
	set := &fakeSettings{cfg: config.Default(), paths: config.Paths{DataDir: data, ConfigDir: filepath.Join(data, "config")}}
	x := recall.NewIndex(recall.IndexOptions{Dir: filepath.Join(data, "index")})
	t.Cleanup(func() { x.Close() })
	opts.Settings = set
	s := New(opts)
	s.UseIndex(x)
	t.Cleanup(s.Close)
	return &rig{t: t, svc: s, index: x, set: set, data: data}
}

func write(t *testing.T, dir, rel, text string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// finds reports whether a search for q has a hit of the folder whose text holds q.
func (r *rig) finds(q string) (recall.Hit, bool) {
	r.t.Helper()
	res, err := r.index.Search(context.Background(), q, 5)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, h := range res.Hits {
		if strings.HasPrefix(h.Source, recall.KnowledgePrefix) && strings.Contains(strings.ToLower(h.Snippet), strings.ToLower(q)) {
			return h, true
		}
	}
	return recall.Hit{}, false
}

func TestAddIndexesAndCitesLine(t *testing.T) {
	r := newRig(t, Options{})
	dir := filepath.Join(t.TempDir(), "Notes")
	write(t, dir, "plans/garden.md", "# Garden\n\nTomatoes go in the south bed."+strings.Repeat(" More about tomatoes.", 55)+"\n\nThe quince tree needs pruning in February.\n")
	write(t, dir, "photo.jpg", "not text")
	st, err := r.svc.Add(context.Background(), dir, "always")
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 1 || st.Reasons[SkipType] != 1 || st.Problem != nil || st.Indexed == "" || st.Watch != "" {
		t.Fatalf("status %+v", st)
	}
	h, ok := r.finds("quince")
	if !ok {
		t.Fatal("quince not found")
	}
	if h.Title != "Notes/plans/garden.md line 5" {
		t.Errorf("citation %q, want the folder, path and line", h.Title)
	}
	if _, err := r.svc.Add(context.Background(), dir, "always"); err == nil {
		t.Error("a folder added twice")
	}
	if got := r.svc.List(); len(got) != 1 || got[0].Path != dir || got[0].Mode != "always" || got[0].Added == "" {
		t.Errorf("list %+v", got)
	}
}

func TestAddRefusesBadFolders(t *testing.T) {
	r := newRig(t, Options{})
	file := write(t, t.TempDir(), "a.md", "x")
	parent := t.TempDir()
	inner := filepath.Join(parent, "inner")
	os.Mkdir(inner, 0o755)
	if _, err := r.svc.Add(context.Background(), parent, "ask"); err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]string{
		"relative": "notes", "missing": filepath.Join(parent, "nope"), "file": file, "root": "/",
		"data": filepath.Join(r.data, "index"), "holds data": filepath.Dir(r.data), "inside another": inner,
	} {
		if _, err := r.svc.Add(context.Background(), p, "always"); err == nil {
			t.Errorf("%s: %s was added", name, p)
		}
	}
	if _, err := r.svc.Add(context.Background(), t.TempDir(), "sometimes"); err == nil {
		t.Error("a bad mode was taken")
	}
	if len(r.svc.List()) != 1 {
		t.Errorf("list %+v", r.svc.List())
	}
}

func TestChangeRemovalAndRemove(t *testing.T) {
	r := newRig(t, Options{})
	dir := t.TempDir()
	p := write(t, dir, "a.txt", "the heron nests by the mill\n")
	write(t, dir, "b.txt", "the otter swims at dusk\n")
	if _, err := r.svc.Add(context.Background(), dir, "always"); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "a.txt", "the kingfisher nests by the mill now\n")
	os.Chtimes(p, time.Now().Add(time.Hour), time.Now().Add(time.Hour)) // a coarse clock must not hide it
	os.Remove(filepath.Join(dir, "b.txt"))
	if err := r.svc.Refresh(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.finds("kingfisher"); !ok {
		t.Error("a change was not picked up")
	}
	if _, ok := r.finds("heron"); ok {
		t.Error("the old text is still found")
	}
	if _, ok := r.finds("otter"); ok {
		t.Error("a removed file is still found")
	}
	if st := r.svc.List()[0]; st.Files != 1 || st.LastChange == "" {
		t.Errorf("status %+v", st)
	}
	if err := r.svc.Remove(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.finds("kingfisher"); ok || len(r.svc.List()) != 0 {
		t.Error("a removed folder is still searched")
	}
	if err := r.svc.Remove(context.Background(), dir); err == nil {
		t.Error("removed twice")
	}
}

// "always" folders reach the recall block; "ask" folders only memory_search.
func TestModesInBlockAndSearch(t *testing.T) {
	r := newRig(t, Options{})
	dir := t.TempDir()
	write(t, dir, "boat.md", "The sailboat's mooring fee is due every April at the harbour office.\n")
	if _, err := r.svc.Add(context.Background(), dir, "ask"); err != nil {
		t.Fatal(err)
	}
	rc := &recall.Recaller{Index: r.index, Block: recall.BlockOptions{Enabled: true, MaxChars: 2000}, Hide: r.svc.Hidden}
	if b := rc.For(context.Background(), "s1", "when is the sailboat mooring fee due?"); strings.Contains(b, "mooring") {
		t.Errorf("an ask folder in the block: %s", b)
	}
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(recall.SearchTool(r.index, recall.ToolOptions{})); err != nil {
		t.Fatal(err)
	}
	if res := reg.Call(context.Background(), "memory_search", []byte(`{"query":"sailboat mooring fee"}`)); !strings.Contains(res.Content, "April") ||
		!strings.Contains(res.Content, filepath.Base(dir)+"/boat.md line 1") {
		t.Errorf("memory_search: %s", res.Content)
	}
	if err := r.svc.SetMode(dir, "always"); err != nil {
		t.Fatal(err)
	}
	if b := rc.For(context.Background(), "s2", "when is the sailboat mooring fee due?"); !strings.Contains(b, "April") || !strings.Contains(b, "boat.md line 1") {
		t.Errorf("an always folder not in the block: %q", b)
	}
	if err := r.svc.SetMode(dir, "never"); err == nil {
		t.Error("a bad mode was set")
	}
}

func TestCapSaysWhatWasLeftOut(t *testing.T) {
	r := newRig(t, Options{MaxFiles: 3})
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		write(t, dir, n+".md", "note "+n)
	}
	st, err := r.svc.Add(context.Background(), dir, "always")
	if err != nil {
		t.Fatal(err)
	}
	if st.Files != 3 || st.Reasons[SkipCap] != 2 || st.Skipped != 2 {
		t.Errorf("status %+v", st)
	}
}

// A link out of the folder is never followed (a file or a folder), a FIFO is
// skipped without blocking, hidden folders and node_modules are left out, a
// file over the limit is skipped with its reason.
func TestAttackerFiles(t *testing.T) {
	r := newRig(t, Options{MaxBytes: 1000})
	outside := t.TempDir()
	write(t, outside, "secret.md", "the vault password is swordfish\n")
	dir := t.TempDir()
	write(t, dir, "ok.md", "an ordinary note about lanterns\n")
	os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "link.md"))
	os.Symlink(outside, filepath.Join(dir, "linkdir"))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, dir, ".git/HEAD.md", "swordfish in git")
	write(t, dir, "node_modules/x/readme.md", "swordfish in modules")
	write(t, dir, "huge.md", strings.Repeat("swordfish ", 200))
	st, err := r.svc.Add(context.Background(), dir, "always")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.finds("swordfish"); ok {
		t.Fatal("a file outside the folder, hidden or too big was indexed")
	}
	if _, ok := r.finds("lanterns"); !ok || st.Files != 1 {
		t.Errorf("the ordinary note: %+v", st)
	}
	want := map[string]int{SkipLink: 2, SkipSpecial: 1, SkipHidden: 2, SkipTooBig: 1}
	for k, n := range want {
		if st.Reasons[k] != n {
			t.Errorf("%s: %d skipped, want %d (%+v)", k, st.Reasons[k], n, st.Reasons)
		}
	}
}

// A file that grows past the limit between the walk and the read is refused
// whole, and counted.
func TestFileGrowingWhileRead(t *testing.T) {
	r := newRig(t, Options{})
	dir := t.TempDir()
	p := write(t, dir, "log.txt", "short\n")
	fi, _ := os.Stat(p)
	write(t, dir, "log.txt", strings.Repeat("growing line\n", 200))
	rep, err := r.index.SyncFolder(context.Background(), recall.Folder{ID: "f1", Root: dir, Name: "d", MaxBytes: 100},
		map[string]recall.KnowledgeFile{"log.txt": {Size: fi.Size(), ModNano: fi.ModTime().UnixNano()}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files != 0 || rep.Failed["log.txt"] == nil {
		t.Errorf("report %+v", rep)
	}
}

// A folder removed from disk while listed stays listed with a problem, and its
// files leave the index; put back, it is indexed again.
func TestFolderRemovedFromDisk(t *testing.T) {
	r := newRig(t, Options{})
	dir := filepath.Join(t.TempDir(), "usb")
	write(t, dir, "a.md", "the pelican report\n")
	if _, err := r.svc.Add(context.Background(), dir, "always"); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(dir)
	if err := r.svc.Refresh(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	st := r.svc.List()[0]
	if st.Problem == nil || st.Problem.Code != "knowledge.problem.missing" || st.Files != 0 {
		t.Errorf("status %+v", st)
	}
	if _, ok := r.finds("pelican"); ok {
		t.Error("a gone folder's file is still found")
	}
	write(t, dir, "a.md", "the pelican report\n")
	r.svc.Refresh(context.Background(), "")
	if _, ok := r.finds("pelican"); !ok || r.svc.List()[0].Problem != nil {
		t.Error("not indexed again once back")
	}
}

// waitFor polls cond for up to a generous time: the watcher's latency is a
// benchmark's figure, not this test's.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s: not within 30 s", what)
}

func TestWatcherPicksUpChanges(t *testing.T) {
	r := newRig(t, Options{Debounce: 10 * time.Millisecond})
	dir := t.TempDir()
	write(t, dir, "a.md", "first words about walruses\n")
	if err := r.svc.Watch(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Add(context.Background(), dir, "always"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "indexed", func() bool { _, ok := r.finds("walruses"); return ok })
	waitFor(t, "watched", func() bool { return r.svc.List()[0].Watch == "watching" })
	write(t, dir, "sub/new.md", "a note about narwhals\n") // a new folder: watched from now on
	waitFor(t, "a new file", func() bool { _, ok := r.finds("narwhals"); return ok })
	write(t, dir, "sub/new.md", "a note about belugas\n")
	waitFor(t, "a change in the new folder", func() bool { _, ok := r.finds("belugas"); return ok })
}

func TestWatcherFallsBackToPolling(t *testing.T) {
	r := newRig(t, Options{MaxWatches: 2, PollEvery: 20 * time.Millisecond})
	dir := t.TempDir()
	for _, d := range []string{"a", "b", "c"} {
		write(t, dir, d+"/n.md", "note "+d)
	}
	if err := r.svc.Watch(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Add(context.Background(), dir, "always"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "polling", func() bool { return r.svc.List()[0].Watch == "polling" })
	write(t, dir, "c/m.md", "the capybara census\n")
	waitFor(t, "a change found by the walk", func() bool { _, ok := r.finds("capybara"); return ok })
}

func TestHiddenAndReadOnly(t *testing.T) {
	r := newRig(t, Options{})
	a, b := t.TempDir(), t.TempDir()
	r.svc.Add(context.Background(), a, "always")
	r.svc.Add(context.Background(), b, "ask")
	if r.svc.Hidden(recall.KnowledgeSource(FolderID(a), "x.md")) || !r.svc.Hidden(recall.KnowledgeSource(FolderID(b), "x.md")) ||
		r.svc.Hidden("memory/HISTORY.md") {
		t.Error("Hidden")
	}
	c := r.set.Config().Clone()
	c.Tools.AllowedPaths = []string{b}
	if ro := c.KnowledgeReadOnly(); len(ro) != 1 || ro[0] != a {
		t.Errorf("read-only %v", ro)
	}
	// The person lets the tools and commands change a folder: it leaves the read-only
	// list for the writable one, and the setting is saved and shown.
	if r.svc.List()[0].Writable {
		t.Error("a folder is writable by default")
	}
	if err := r.svc.SetWritable(a, true); err != nil {
		t.Fatal(err)
	}
	c = r.set.Config()
	if ro, w := c.KnowledgeReadOnly(), c.WritablePaths(); len(ro) != 1 || ro[0] != b || !slices.Contains(w, a) || slices.Contains(w, b) {
		t.Errorf("writable %s: read-only %v, writable %v", a, ro, w)
	}
	if !r.svc.List()[0].Writable || r.svc.List()[1].Writable {
		t.Errorf("status: %+v", r.svc.List())
	}
	if err := r.svc.SetWritable(a, false); err != nil || r.svc.List()[0].Writable {
		t.Errorf("made read-only again: %v %+v", err, r.svc.List()[0])
	}
	if err := r.svc.SetWritable(t.TempDir(), true); err == nil {
		t.Error("a folder not listed was made writable")
	}
}

// A file swapped for a link out of the folder between the walk and the read is
// refused on open: its target never reaches the index.
func TestLinkSwappedInAfterTheWalk(t *testing.T) {
	r := newRig(t, Options{})
	outside := t.TempDir()
	write(t, outside, "secret.md", "the safe combination is 4-8-15\n")
	dir := t.TempDir()
	p := write(t, dir, "a.md", "harmless\n")
	fi, _ := os.Stat(p)
	os.Remove(p)
	if err := os.Symlink(filepath.Join(outside, "secret.md"), p); err != nil {
		t.Fatal(err)
	}
	rep, err := r.index.SyncFolder(context.Background(), recall.Folder{ID: "f1", Root: dir, Name: "d"},
		map[string]recall.KnowledgeFile{"a.md": {Size: fi.Size(), ModNano: fi.ModTime().UnixNano()}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed["a.md"] == nil || rep.Files != 0 {
		t.Errorf("report %+v", rep)
	}
	if _, ok := r.finds("combination"); ok {
		t.Error("a link out was followed")
	}
}

// A change of the list made elsewhere (a hand edit, another process) is followed by
// the watching process: a new folder is indexed, a folder taken off leaves the index.
func TestApplyFollowsAnEditedList(t *testing.T) {
	r := newRig(t, Options{Debounce: 10 * time.Millisecond})
	a, b := t.TempDir(), t.TempDir()
	write(t, a, "a.md", "notes on the ibis\n")
	write(t, b, "b.md", "notes on the osprey\n")
	if err := r.svc.Watch(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Add(context.Background(), a, "always"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a indexed", func() bool { _, ok := r.finds("ibis"); return ok })
	err := r.set.Update(func(c *config.Config) error {
		c.Knowledge.Folders = []config.KnowledgeFolder{{Path: b, Mode: "ask"}}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r.svc.Apply()
	waitFor(t, "b indexed", func() bool { _, ok := r.finds("osprey"); return ok })
	waitFor(t, "a dropped", func() bool { _, ok := r.finds("ibis"); return !ok })
	if l := r.svc.List(); len(l) != 1 || l[0].Path != b {
		t.Errorf("list %+v", l)
	}
}
