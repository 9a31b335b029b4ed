package session

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"hearth/backend/event"
)

// fresh is what a store that never saw the file reads: the reference every
// load through the kept state must equal.
func fresh(t *testing.T, s *Store, id string) *Session {
	t.Helper()
	return mustLoad(t, NewStore(s.Dir(), Options{}), id)
}

func sameAsFresh(t *testing.T, s *Store, id, when string) *Session {
	t.Helper()
	got, want := mustLoad(t, s, id), fresh(t, s, id)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the kept state differs from reading the file:\n got %+v\nwant %+v", when, got, want)
	}
	return got
}

func parsedBy(s *Store) int64 {
	s.tmu.Lock()
	defer s.tmu.Unlock()
	return s.parsed
}

func fileSize(t *testing.T, s *Store, id string) int64 {
	t.Helper()
	p, _ := s.Path(id)
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func TestLoadParsesOnlyWhatChanged(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	for i := range 50 {
		mustAppend(t, s, m.ID, MessageRecord("r1", user(fmt.Sprintf("question %d", i))), MessageRecord("r1", assistant("answer")))
	}
	sameAsFresh(t, s, m.ID, "first load")
	size := fileSize(t, s, m.ID)
	if got := parsedBy(s); got != size {
		t.Fatalf("first load parsed %d bytes, want the whole file (%d)", got, size)
	}
	sameAsFresh(t, s, m.ID, "unchanged")
	if got := parsedBy(s); got != size {
		t.Fatalf("loading an unchanged file parsed %d more bytes", got-size)
	}
	mustAppend(t, s, m.ID, MessageRecord("r2", user("one more")), RunRecord(Run{ID: "r1", Status: StatusOK}))
	sameAsFresh(t, s, m.ID, "after our append")
	if got, grown := parsedBy(s), fileSize(t, s, m.ID); got != grown {
		t.Fatalf("after an append of %d bytes, %d bytes were parsed in all; want %d", grown-size, got, grown)
	}
	if err := s.Rename(m.ID, "Renamed"); err != nil {
		t.Fatal(err)
	}
	if got := sameAsFresh(t, s, m.ID, "after a rename"); got.Meta.Title != "Renamed" {
		t.Errorf("title %q", got.Meta.Title)
	}
}

func TestLoadSeesAnotherWriter(t *testing.T) {
	s, _ := newTestStore(t)
	other := NewStore(s.Dir(), Options{}) // the CLI beside the window
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("hello")))
	sameAsFresh(t, s, m.ID, "first load")
	before, size := parsedBy(s), fileSize(t, s, m.ID)
	mustAppend(t, other, m.ID, MessageRecord("r1", assistant("hi from the CLI")), RunRecord(Run{ID: "r1", Status: StatusOK}))
	got := sameAsFresh(t, s, m.ID, "after another store appended")
	if len(got.Entries) != 2 || got.Entries[1].Content != "hi from the CLI" || got.Interrupted != nil {
		t.Fatalf("entries %+v interrupted %+v", got.Entries, got.Interrupted)
	}
	if parsed, added := parsedBy(s)-before, fileSize(t, s, m.ID)-size; parsed != added {
		t.Errorf("another writer appended %d bytes; the store parsed %d", added, parsed)
	}
}

func TestLoadSeesHandEdits(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("the cat sat")), MessageRecord("r1", assistant("on the mat")),
		RunRecord(Run{ID: "r1", Status: StatusOK}))
	sameAsFresh(t, s, m.ID, "first load")
	p, _ := s.Path(m.ID)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(when string, content []byte) *Session {
		t.Helper()
		// In place (same inode), as `>` in a shell or an editor writing over the file does.
		if err := os.WriteFile(p, content, 0o600); err != nil {
			t.Fatal(err)
		}
		future := time.Now().Add(time.Duration(len(when)) * time.Second)
		if err := os.Chtimes(p, future, future); err != nil {
			t.Fatal(err)
		}
		return sameAsFresh(t, s, m.ID, when)
	}
	// The same size, one word changed.
	got := edit("word changed", bytes.Replace(data, []byte("the cat sat"), []byte("the dog sat"), 1))
	if got.Entries[0].Content != "the dog sat" {
		t.Errorf("edit not seen: %q", got.Entries[0].Content)
	}
	// A word changed and a line added at the end: the file grew, but not by an append.
	grown := bytes.Replace(data, []byte("on the mat"), []byte("on a hat!!"), 1)
	grown = append(grown, `{"type":"message","at":"2026-11-22T04:00:09Z","role":"user","content":"added by hand"}`+"\n"...)
	got = edit("changed and grown", grown)
	if got.Entries[1].Content != "on a hat!!" || got.Entries[2].Content != "added by hand" {
		t.Errorf("edit not seen: %+v", got.Entries)
	}
	// Replaced by another file (an editor's save by rename).
	if err := os.WriteFile(p+".tmp", data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".tmp", p); err != nil {
		t.Fatal(err)
	}
	if got := sameAsFresh(t, s, m.ID, "replaced"); got.Entries[0].Content != "the cat sat" {
		t.Errorf("replacement not seen: %q", got.Entries[0].Content)
	}
	// Cut short, then mended by an append.
	edit("torn", data[:len(data)-10])
	mustAppend(t, s, m.ID, MessageRecord("r2", user("after the tear")))
	if got := sameAsFresh(t, s, m.ID, "mended"); got.Entries[len(got.Entries)-1].Content != "after the tear" {
		t.Errorf("entries %+v", got.Entries)
	}
}

func TestLoadedSessionIsTheCallers(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("hello")), MessageRecord("r1", assistant("hi")))
	a := mustLoad(t, s, m.ID)
	a.Entries[0].Content = "changed by a caller"
	a.Entries = append(a.Entries, Entry{Message: user("appended by a caller")})
	a.Interrupted[0].Entries[0].Content = "changed too"
	a.Meta.Title = "caller's title"
	mustAppend(t, s, m.ID, MessageRecord("r1", assistant("more")))
	b := sameAsFresh(t, s, m.ID, "after a caller changed its copy")
	if b.Entries[0].Content != "hello" || len(b.Entries) != 3 || b.Entries[2].Content != "more" {
		t.Errorf("entries %+v", b.Entries)
	}
}

func TestLoadKeepsFewSessions(t *testing.T) {
	s, _ := newTestStore(t)
	var ids []string
	for i := range maxTails + 3 {
		m := mustCreate(t, s, CreateOptions{ID: fmt.Sprintf("s%d", i)})
		mustAppend(t, s, m.ID, MessageRecord("", user(strings.Repeat("x", i+1))))
		ids = append(ids, m.ID)
	}
	for range 2 {
		for _, id := range ids {
			sameAsFresh(t, s, id, id)
		}
	}
	s.tmu.Lock()
	n := len(s.tails)
	s.tmu.Unlock()
	if n != maxTails {
		t.Errorf("%d sessions kept, want %d", n, maxTails)
	}
}

func TestTrashAndRestoreKeepLoadRight(t *testing.T) {
	s, _ := newTestStore(t)
	ws := t.TempDir()
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("hello")))
	sameAsFresh(t, s, m.ID, "before delete")
	if err := s.Delete(m.ID, ws); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(m.ID); err == nil {
		t.Fatal("a deleted session loads")
	}
	if err := s.Restore(m.ID); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, m.ID, MessageRecord("r1", assistant("back")))
	if got := sameAsFresh(t, s, m.ID, "restored"); len(got.Entries) != 2 {
		t.Errorf("entries %+v", got.Entries)
	}
}

// FuzzParse: no input makes the parser panic, and feeding a file in two pieces
// split after a line gives what reading it whole gives (how a kept state is
// brought up to date).
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"type":"meta","v":1,"id":"x","title":"","created":"2026-11-22T04:00:01Z","updated":"2026-11-22T04:00:01Z","model":"m","lastConsolidated":-1,"archived":false}
{"type":"message","at":"2026-11-22T04:00:02Z","runId":"r1","role":"user","content":"hi"}
{"type":"message","at":"2026-11-22T04:00:03Z","runId":"r1","role":"assistant","content":"","toolCalls":[{"id":"c1","name":"list_dir","arguments":{"path":"."}}]}
{"type":"run","at":"2026-11-22T04:00:04Z","runId":"r1","status":"ok","final":"Two files."}
{"type":"meta_update","at":"2026-11-22T04:00:07Z","title":"Listing"}
`), 3)
	f.Add([]byte("{\"type\":\"message\",\"role\":\"user\",\"content\":\"no meta\"}\n{\"type\":\"mess"), 1)
	f.Add([]byte("\n\n{}\nnot json\n{\"type\":\"future\"}\n"), 2)
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		whole := parse("x", data, at)
		lines := bytes.SplitAfter(data, []byte{'\n'})
		if cut < 0 || cut > len(lines) {
			return
		}
		p := newParser("x")
		p.feed(bytes.Join(lines[:cut], nil))
		p.snapshot(at) // a Load between the two pieces must not change the state
		p.feed(bytes.Join(lines[cut:], nil))
		if got := p.snapshot(at); !reflect.DeepEqual(got, whole) {
			t.Fatalf("fed in two pieces at line %d:\n got %+v\nwant %+v", cut, got, whole)
		}
	})
}

func TestMetaMatchesLoad(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{Model: "ollama/a"})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("Plan the trip to Lisbon")))
	check := func(when string) {
		t.Helper()
		got, err := s.Meta(m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := fresh(t, s, m.ID).Meta; got != want {
			t.Errorf("%s: Meta %+v, Load's %+v", when, got, want)
		}
	}
	check("first")
	if err := s.MarkConsolidated(m.ID, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.SetModel(m.ID, "ollama/b"); err != nil {
		t.Fatal(err)
	}
	check("after updates")
	if _, err := s.Meta("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing session: %v", err)
	}
}

func TestLoadConversationMatchesLoad(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("hello")), MessageRecord("r1", assistant("hi")),
		RunRecord(Run{ID: "r1", Status: StatusOK}), MessageRecord("r2", user("and now?")))
	c, err := s.LoadConversation(m.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := fresh(t, s, m.ID)
	if !reflect.DeepEqual(c.Messages, want.Messages()) || c.Meta != want.Meta || !reflect.DeepEqual(c.Interrupted, want.Interrupted) {
		t.Errorf("conversation %+v\nload %+v", c, want)
	}
	if cap(c.Messages) <= len(c.Messages) {
		t.Error("no room for the run's new message")
	}
}

// A failed run keeps the model it asked and the error card the window showed, so the
// chat opened again shows the same card.
func TestRunKeepsItsModelAndFailure(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{Model: "ollama/qwen3:4b"})
	fail := &event.ErrorData{Code: "model_not_found", Message: "model qwen3:4b is not installed in Ollama",
		Hint: "pull it", Text: &event.Line{Code: "error.ollama.modelMissing", Args: map[string]string{"model": "qwen3:4b"}},
		HintText: []event.Line{{Code: "error.ollama.modelMissing.hint", Args: map[string]string{"model": "qwen3:4b"}}},
		Detail:   "404 Not Found"}
	mustAppend(t, s, m.ID, MessageRecord("r1", user("Hello")),
		RunRecord(Run{ID: "r1", Status: StatusError, Error: fail.Message, Model: "ollama/qwen3:4b", Failure: fail}),
		MessageRecord("r2", user("Again")),
		RunRecord(Run{ID: "r2", Status: StatusOK, Final: "Hi", Model: "ollama/llama3.2:3b"}))
	runs := fresh(t, s, m.ID).Runs
	if len(runs) != 2 || runs[0].Model != "ollama/qwen3:4b" || !reflect.DeepEqual(runs[0].Failure, fail) ||
		runs[1].Model != "ollama/llama3.2:3b" || runs[1].Failure != nil {
		t.Fatalf("runs = %+v", runs)
	}
}

// A run a budget ended keeps the budget's name, so a chat opened again offers
// Continue; a name the window does not know, written by hand or by damage, is dropped.
func TestRunKeepsItsLimit(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("Loop")),
		RunRecord(Run{ID: "r1", Status: StatusOK, Final: "Summed up", Limit: "time"}),
		MessageRecord("r2", user("Again")),
		RunRecord(Run{ID: "r2", Status: StatusOK, Final: "Hi", Limit: "<script>"}))
	runs := fresh(t, s, m.ID).Runs
	if len(runs) != 2 || runs[0].Limit != "time" || runs[1].Limit != "" {
		t.Fatalf("runs = %+v", runs)
	}
}

// A run keeps the notes it told about the message's attachments, so the chat opened
// again shows them on the turn; a run without notes writes none.
func TestRunKeepsItsAttachmentNotes(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{Model: "ollama/qwen3:4b"})
	notes := []event.NoticeData{
		{Level: event.LevelInfo, Message: "report.pdf: 412 passages, searched", Code: "notice.attachSearched",
			Args: map[string]string{"name": "report.pdf", "passages": "412"}},
		{Level: event.LevelInfo, Message: "memo.txt: whole", Code: "notice.attachWhole", Args: map[string]string{"name": "memo.txt"}},
	}
	mustAppend(t, s, m.ID, MessageRecord("r1", user("Read these")),
		RunRecord(Run{ID: "r1", Status: StatusOK, Final: "Done", Notes: notes}),
		MessageRecord("r2", user("And?")),
		RunRecord(Run{ID: "r2", Status: StatusOK, Final: "More"}))
	runs := fresh(t, s, m.ID).Runs
	if len(runs) != 2 || !reflect.DeepEqual(runs[0].Notes, notes) || runs[1].Notes != nil {
		t.Fatalf("runs = %+v", runs)
	}
}
