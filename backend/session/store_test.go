package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/llm"
)

func TestRoundTrip(t *testing.T) {
	s, _ := newTestStore(t)
	meta := mustCreate(t, s, CreateOptions{Model: "ollama/qwen3:4b"})
	png := []byte{0x89, 'P', 'N', 'G', 0, 1, 2, '\n', 0xff}
	want := []llm.Message{
		{Role: llm.RoleUser, Content: "What is in\nthis picture?", Images: [][]byte{png}},
		{Role: llm.RoleAssistant, Reasoning: "Let me look.", ToolCalls: []llm.ToolCall{
			{ID: "c1", Name: "read_file", Arguments: json.RawMessage(`{"path":"a.txt"}`), Repaired: true},
			{ID: "c2", Name: "nope", Arguments: json.RawMessage(`{}`), Unknown: true, FromText: true},
		}},
		{Role: llm.RoleTool, Content: "line 1\nline \"2\"", ToolCallID: "c1", ToolName: "read_file"},
		{Role: llm.RoleTool, Content: "unknown tool nope", ToolCallID: "c2", ToolName: "nope"},
		{Role: llm.RoleAssistant, Content: "A cat. 🐈", Reasoning: "It is a cat."},
	}
	mustAppend(t, s, meta.ID, MessageRecord("r1", want[0]))
	if err := s.Sync(meta.ID); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, meta.ID, MessageRecord("r1", want[1]), MessageRecord("r1", want[2]), MessageRecord("r1", want[3]))
	run := Run{ID: "r1", Status: StatusOK, Final: "A cat. 🐈", Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 7},
		DurationMs: 1500}
	mustAppend(t, s, meta.ID, MessageRecord("r1", want[4]), RunRecord(run))
	if err := s.Sync(meta.ID); err != nil {
		t.Fatal(err)
	}

	got := mustLoad(t, s, meta.ID)
	if len(got.Warnings) != 0 || got.Interrupted != nil {
		t.Fatalf("warnings %v, interrupted %v", got.Warnings, got.Interrupted)
	}
	if !reflect.DeepEqual(got.Messages(), want) {
		t.Fatalf("messages differ:\n got %+v\nwant %+v", got.Messages(), want)
	}
	for i, e := range got.Entries {
		if e.RunID != "r1" || e.At.IsZero() {
			t.Errorf("entry %d: run %q at %v", i, e.RunID, e.At)
		}
	}
	if len(got.Runs) != 1 {
		t.Fatalf("runs = %+v", got.Runs)
	}
	r := got.Runs[0]
	if r.ID != "r1" || r.Status != StatusOK || r.Final != run.Final || r.Usage != run.Usage || r.DurationMs != run.DurationMs || r.At.IsZero() {
		t.Errorf("run = %+v", r)
	}
	m := got.Meta
	if m.ID != meta.ID || m.Model != "ollama/qwen3:4b" || m.Title != "What is in this picture?" ||
		m.LastConsolidated != NoneConsolidated || m.Archived || !m.Created.Equal(meta.Created) || !m.Updated.Equal(r.At) {
		t.Errorf("meta = %+v (created %v)", m, meta.Created)
	}

	// Files are private.
	p, _ := s.Path(meta.ID)
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, %v", fi.Mode(), err)
	}
	if fi, err := os.Stat(s.Dir()); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v, %v", fi.Mode(), err)
	}
	// One line per record plus the metadata line; the file ends in a newline.
	raw := readFile(t, p)
	if n := strings.Count(raw, "\n"); n != 7 || !strings.HasSuffix(raw, "\n") {
		t.Errorf("file has %d lines:\n%s", n, raw)
	}
}

func TestCreateErrors(t *testing.T) {
	s, _ := newTestStore(t)
	mustCreate(t, s, CreateOptions{ID: "heartbeat"})
	if _, err := s.Create(CreateOptions{ID: "heartbeat"}); !errors.Is(err, ErrExists) {
		t.Errorf("second create: %v, want ErrExists", err)
	}
	if created, err := s.Ensure(CreateOptions{ID: "heartbeat"}); created || err != nil {
		t.Errorf("ensure existing = %v, %v", created, err)
	}
	if created, err := s.Ensure(CreateOptions{ID: "cron:job-1", Model: "m"}); !created || err != nil {
		t.Errorf("ensure new = %v, %v", created, err)
	}
	if _, err := s.Ensure(CreateOptions{}); err == nil {
		t.Error("ensure without id succeeded")
	}
	if _, err := s.Create(CreateOptions{ID: strings.Repeat("x", 300)}); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("long id: %v", err)
	}
}

func TestAppendErrors(t *testing.T) {
	s, _ := newTestStore(t)
	if err := s.Append("nope", MessageRecord("", user("hi"))); !errors.Is(err, ErrNotFound) {
		t.Errorf("append to missing session: %v", err)
	}
	if _, err := s.Load("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("load missing session: %v", err)
	}
	if err := s.Sync("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("sync missing session: %v", err)
	}
	m := mustCreate(t, s, CreateOptions{})
	bad := []Record{
		{},
		{Message: &llm.Message{Content: "no role"}},
		{Message: &llm.Message{Role: llm.RoleUser}, Run: &Run{ID: "r"}},
		RunRecord(Run{Status: StatusOK}),
		RunRecord(Run{ID: "r", Status: "done"}),
	}
	for i, r := range bad {
		if err := s.Append(m.ID, MessageRecord("", user("ok")), r); err == nil {
			t.Errorf("bad record %d accepted", i)
		}
	}
	// A rejected batch writes nothing.
	if got := mustLoad(t, s, m.ID); len(got.Entries) != 0 {
		t.Errorf("entries after rejected appends: %d", len(got.Entries))
	}
	if err := s.Append(m.ID); err != nil {
		t.Errorf("empty append: %v", err)
	}
}

func TestMetadataChangesLastWins(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{Title: "  First\ntitle ", Model: "a"})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("Plan my week please")), MessageRecord("r1", assistant("ok")),
		RunRecord(Run{ID: "r1", Status: StatusOK, Final: "ok"}))
	before := mustLoad(t, s, m.ID)
	if before.Meta.Title != "First title" {
		t.Errorf("created title = %q", before.Meta.Title)
	}
	steps := []func() error{
		func() error { return s.Rename(m.ID, "Second") },
		func() error { return s.SetModel(m.ID, "ollama/b") },
		func() error { return s.Archive(m.ID, true) },
		func() error { return s.MarkConsolidated(m.ID, 0) },
		func() error { return s.Rename(m.ID, "Third") },
		func() error { return s.Archive(m.ID, false) },
		func() error { return s.Archive(m.ID, true) },
		func() error { return s.MarkConsolidated(m.ID, 1) },
	}
	for i, f := range steps {
		if err := f(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	got := mustLoad(t, s, m.ID)
	want := Meta{ID: m.ID, Title: "Third", Created: m.Created, Updated: before.Meta.Updated,
		Model: "ollama/b", LastConsolidated: 1, Archived: true}
	if !reflect.DeepEqual(got.Meta, want) {
		t.Errorf("meta =\n %+v\nwant\n %+v", got.Meta, want)
	}
	list, err := s.List()
	if err != nil || len(list) != 1 {
		t.Fatal(list, err)
	}
	if l := list[0]; l.Title != "Third" || l.Model != "ollama/b" || !l.Archived || !l.Updated.Equal(want.Updated) {
		t.Errorf("list = %+v", l)
	}
	// An empty title goes back to the automatic one.
	if err := s.Rename(m.ID, ""); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, m.ID).Meta.Title; got != "Plan my week please" {
		t.Errorf("auto title after reset = %q", got)
	}
	if list, _ := s.List(); list[0].Title != "Plan my week please" {
		t.Errorf("listed auto title = %q", list[0].Title)
	}
	if err := s.MarkConsolidated(m.ID, -2); err == nil {
		t.Error("negative consolidation index accepted")
	}
	if err := s.Rename("missing", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("rename missing: %v", err)
	}
}

func TestList(t *testing.T) {
	s, _ := newTestStore(t)
	if l, err := s.List(); err != nil || len(l) != 0 {
		t.Fatalf("empty dir: %v %v", l, err)
	}
	a := mustCreate(t, s, CreateOptions{ID: "a", Model: "m1"})
	b := mustCreate(t, s, CreateOptions{ID: "cron:daily"})
	c := mustCreate(t, s, CreateOptions{ID: "c", Title: "Custom"})
	mustAppend(t, s, a.ID, MessageRecord("r1", user("first question about Go")), MessageRecord("r1", assistant("answer")),
		RunRecord(Run{ID: "r1", Status: StatusOK}))
	mustAppend(t, s, c.ID, MessageRecord("r2", user("unfinished")))
	mustAppend(t, s, b.ID, MessageRecord("", user("[cron] check mail")))
	if err := s.Archive(c.ID, true); err != nil {
		t.Fatal(err)
	}
	// Files that are not sessions are ignored.
	os.WriteFile(filepath.Join(s.Dir(), "notes.txt"), []byte("x"), 0o600)
	os.Mkdir(filepath.Join(s.Dir(), "dir.jsonl"), 0o700)

	l, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range l {
		ids = append(ids, x.ID)
	}
	if !reflect.DeepEqual(ids, []string{"cron:daily", "c", "a"}) {
		t.Fatalf("order = %v", ids)
	}
	check := func(x Summary, title string, n int, archived, interrupted bool) {
		t.Helper()
		if x.Title != title || x.Messages != n || x.Archived != archived || x.Interrupted != interrupted || x.Created.IsZero() || x.Updated.IsZero() {
			t.Errorf("summary %+v, want title %q messages %d archived %v interrupted %v", x, title, n, archived, interrupted)
		}
	}
	check(l[0], "[cron] check mail", 1, false, false)
	check(l[1], "Custom", 1, true, true)
	check(l[2], "first question about Go", 2, false, false)
	if l[2].Model != "m1" {
		t.Errorf("model = %q", l[2].Model)
	}

	// Appends after a scan are picked up (incrementally) and reorder the list.
	mustAppend(t, s, c.ID, MessageRecord("r2", assistant("done")), RunRecord(Run{ID: "r2", Status: StatusOK}))
	mustAppend(t, s, a.ID, MessageRecord("r3", user("again")))
	l, _ = s.List()
	if l[0].ID != "a" || l[0].Messages != 3 || !l[0].Interrupted || l[1].ID != "c" || l[1].Interrupted || l[1].Messages != 2 {
		t.Errorf("after appends: %+v", l)
	}
	// A fresh store (no cache) agrees with Load.
	l2, _ := NewStore(s.Dir(), Options{}).List()
	if !reflect.DeepEqual(l, l2) {
		t.Errorf("cached list %+v\n fresh list %+v", l, l2)
	}
	for _, x := range l {
		sess := mustLoad(t, s, x.ID)
		if len(sess.Entries) != x.Messages || sess.Meta.Title != x.Title || !sess.Meta.Updated.Equal(x.Updated) ||
			(len(sess.Interrupted) > 0) != x.Interrupted {
			t.Errorf("list %+v disagrees with load %+v", x, sess.Meta)
		}
	}
}

func TestDeleteRestore(t *testing.T) {
	s, _ := newTestStore(t)
	ws := t.TempDir()
	m := mustCreate(t, s, CreateOptions{ID: "cron:job/1"})
	mustAppend(t, s, m.ID, MessageRecord("r", user("hello")))
	rd, err := ResultsDir(ws, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(rd, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(rd, "call-1.txt"), []byte("big"), 0o600)
	other, _ := ResultsDir(ws, "other")
	os.MkdirAll(other, 0o700)

	if err := s.Delete(m.ID, ws); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(m.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("load after delete: %v", err)
	}
	if err := s.Append(m.ID, MessageRecord("r", user("x"))); !errors.Is(err, ErrNotFound) {
		t.Errorf("append after delete: %v", err)
	}
	if _, err := os.Stat(rd); !os.IsNotExist(err) {
		t.Errorf("results dir still there: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("other results dir removed: %v", err)
	}
	if l, _ := s.List(); len(l) != 0 {
		t.Errorf("listed after delete: %+v", l)
	}
	trash, err := s.ListTrash()
	if err != nil || len(trash) != 1 || trash[0].ID != m.ID || trash[0].Messages != 1 {
		t.Fatalf("trash = %+v, %v", trash, err)
	}
	if err := s.Delete(m.ID, ws); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}

	// The same id deleted again keeps the older copy aside.
	mustCreate(t, s, CreateOptions{ID: m.ID})
	if err := s.Restore(m.ID); !errors.Is(err, ErrExists) {
		t.Errorf("restore over a live session: %v", err)
	}
	if err := s.Delete(m.ID, ""); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Join(s.Dir(), TrashDir))
	if len(ents) != 2 {
		t.Errorf("trash holds %d files, want 2", len(ents))
	}

	if err := s.Restore(m.ID); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, m.ID); len(got.Entries) != 0 {
		t.Errorf("restored the wrong copy: %d entries", len(got.Entries))
	}
	if err := s.Restore(m.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("restore twice: %v", err)
	}
	if err := s.Restore("never"); !errors.Is(err, ErrNotFound) {
		t.Errorf("restore unknown: %v", err)
	}
}

func TestFileNames(t *testing.T) {
	for _, tc := range []struct{ id, file string }{
		{"20261122T041006-3f9a1c2e", "20261122T041006-3f9a1c2e.jsonl"},
		{"heartbeat", "heartbeat.jsonl"},
		{"cron:daily", "cron%3Adaily.jsonl"},
		{"../etc/passwd", "%2E.%2Fetc%2Fpasswd.jsonl"},
		{".trash", "%2Etrash.jsonl"},
		{"a b%c", "a%20b%25c.jsonl"},
		{"日记", "%E6%97%A5%E8%AE%B0.jsonl"},
	} {
		stem, err := FileStem(tc.id)
		if err != nil || stem+Ext != tc.file {
			t.Errorf("FileStem(%q) = %q, %v; want %q", tc.id, stem, err, tc.file)
		}
		if id, ok := IDFromFileName(tc.file); !ok || id != tc.id {
			t.Errorf("IDFromFileName(%q) = %q, %v", tc.file, id, ok)
		}
	}
	for _, name := range []string{"x.txt", ".jsonl", ".hidden.jsonl", "a%4.jsonl", "a%zz.jsonl", "a b.jsonl", "cron%3adaily.jsonl", "%41.jsonl"} {
		if id, ok := IDFromFileName(name); ok {
			t.Errorf("IDFromFileName(%q) = %q, want not a session", name, id)
		}
	}
	if _, err := FileStem(""); err == nil {
		t.Error("empty id accepted")
	}
	now := time.Date(2026, 11, 22, 4, 10, 6, 0, time.UTC)
	a, b := NewID(now), NewID(now.Add(time.Second))
	if !strings.HasPrefix(a, "20261122T041006-") || len(a) != 24 || a >= b || a == NewID(now) {
		t.Errorf("ids %q %q", a, b)
	}
	if stem, _ := FileStem(a); stem != a {
		t.Errorf("generated id %q is escaped", a)
	}
}

func TestInterruptedRuns(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("first")))
	mustAppend(t, s, m.ID, toolBatch("r1", "c1", "exec", `{"cmd":"ls"}`, "ok")...)
	// Another process's run interleaves and finishes.
	mustAppend(t, s, m.ID, MessageRecord("r2", user("second")), MessageRecord("r2", assistant("done")),
		RunRecord(Run{ID: "r2", Status: StatusCancelled}))
	mustAppend(t, s, m.ID, MessageRecord("r3", user("third")))

	got := mustLoad(t, s, m.ID)
	if len(got.Interrupted) != 2 {
		t.Fatalf("interrupted = %+v", got.Interrupted)
	}
	if in := got.Interrupted[0]; in.RunID != "r1" || in.First != 0 || len(in.Entries) != 3 || in.Entries[2].ToolCallID != "c1" {
		t.Errorf("first interrupted run = %+v", in)
	}
	if in := got.Interrupted[1]; in.RunID != "r3" || in.First != 5 || len(in.Entries) != 1 {
		t.Errorf("second interrupted run = %+v", in)
	}
	if err := s.CloseInterrupted(m.ID, "r1"); err != nil {
		t.Fatal(err)
	}
	got = mustLoad(t, s, m.ID)
	if len(got.Interrupted) != 1 || got.Interrupted[0].RunID != "r3" || got.Runs[1].Status != StatusInterrupted {
		t.Errorf("after closing r1: interrupted %+v runs %+v", got.Interrupted, got.Runs)
	}
	if l, _ := s.List(); !l[0].Interrupted {
		t.Error("list lost the interrupted flag of r3")
	}
	// Continuing r3 with the same run id finishes it.
	mustAppend(t, s, m.ID, MessageRecord("r3", assistant("finally")), RunRecord(Run{ID: "r3", Status: StatusOK}))
	got = mustLoad(t, s, m.ID)
	if got.Interrupted != nil || len(got.Entries) != 7 {
		t.Errorf("after continuing r3: interrupted %+v, %d entries", got.Interrupted, len(got.Entries))
	}
	if l, _ := s.List(); l[0].Interrupted || l[0].Messages != 7 {
		t.Errorf("list after continuing: %+v", l[0])
	}
}

// ListTrash returns the deleted sessions that Restore can bring back.
func (s *Store) ListTrash() ([]Summary, error) {
	return s.list(filepath.Join(s.dir, TrashDir))
}

// Restore moves session id back from the trash. It fails with ErrExists when
// a session with that id exists again (delete or rename that one first). Its
// spilled tool results are gone; the messages keep what the model saw.
func (s *Store) Restore(id string) error {
	p, err := s.Path(id)
	if err != nil {
		return fmt.Errorf("restore session: %w", err)
	}
	src := filepath.Join(s.dir, TrashDir, filepath.Base(p))
	if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("restore session %s: %w in the trash", id, ErrNotFound)
	}
	// A hard link fails atomically when the name is taken, where a rename
	// would silently replace a session created meanwhile.
	err = os.Link(src, p)
	switch {
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("restore session %s: %w (delete or archive the current one first)", id, ErrExists)
	case err != nil:
		// No hard links on this file system: check, then rename.
		if _, serr := os.Lstat(p); serr == nil {
			return fmt.Errorf("restore session %s: %w (delete or archive the current one first)", id, ErrExists)
		}
		err = os.Rename(src, p)
	default:
		err = os.Remove(src)
	}
	if err != nil {
		return fmt.Errorf("restore session %s: %w (check that %s is writable)", id, err, s.dir)
	}
	atomicfile.SyncDir(s.dir)
	return nil
}
