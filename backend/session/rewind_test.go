package session

import (
	"os"
	"strings"
	"testing"

	"hearth/backend/llm"
)

func userMsg(s string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: s} }
func botMsg(s string) llm.Message  { return llm.Message{Role: llm.RoleAssistant, Content: s} }

// A chat whose last reply was regenerated, then whose question was edited: the live
// conversation is the newest version; each earlier one is a Branch with its runs.
func TestRewindKeepsEarlierVersions(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID,
		MessageRecord("r1", userMsg("Hi")), MessageRecord("r1", botMsg("Hello")), RunRecord(Run{ID: "r1", Status: StatusOK}),
		MessageRecord("r2", userMsg("Tell a joke")), MessageRecord("r2", botMsg("Joke one")), RunRecord(Run{ID: "r2", Status: StatusOK, Final: "Joke one"}))

	// Regenerate: keep the question (3 messages), answer again.
	if err := s.Rewind(m.ID, 3); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, m.ID, MessageRecord("r3", botMsg("Joke two")), RunRecord(Run{ID: "r3", Status: StatusOK}))
	sess := mustLoad(t, s, m.ID)
	if got := contents(sess.Entries); got != "Hi|Hello|Tell a joke|Joke two" {
		t.Fatalf("live after regenerate: %s", got)
	}
	if len(sess.Branches) != 1 || sess.Branches[0].At != 3 || contents(sess.Branches[0].Entries) != "Joke one" {
		t.Fatalf("branches %+v", sess.Branches)
	}
	if runIDs(sess.Runs) != "r1,r3" || runIDs(sess.Branches[0].Runs) != "r2" {
		t.Errorf("runs live %s, earlier %s", runIDs(sess.Runs), runIDs(sess.Branches[0].Runs))
	}

	// Edit the question: drop it (rewind to 2) and ask again; both earlier answers stay
	// as versions from message 2 (the one at 3 belonged to the edited question).
	if err := s.Rewind(m.ID, 2); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, m.ID, MessageRecord("r4", userMsg("Tell a pun")), MessageRecord("r4", botMsg("Pun")), RunRecord(Run{ID: "r4", Status: StatusOK}))
	sess = mustLoad(t, s, m.ID)
	if got := contents(sess.Entries); got != "Hi|Hello|Tell a pun|Pun" {
		t.Fatalf("live after edit: %s", got)
	}
	if len(sess.Branches) != 1 || sess.Branches[0].At != 2 || contents(sess.Branches[0].Entries) != "Tell a joke|Joke two" {
		t.Fatalf("branches after edit %+v", sess.Branches)
	}
	if runIDs(sess.Runs) != "r1,r4" {
		t.Errorf("live runs %s", runIDs(sess.Runs))
	}
	sum, err := s.List()
	if err != nil || len(sum) != 1 || sum[0].Messages != 4 {
		t.Errorf("list %+v %v", sum, err)
	}
}

// Retry of a failed reply is a regenerate: the failed run (no message of its own)
// leaves the conversation with its question's old answer.
func TestRewindMovesFailedRun(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", userMsg("Hi")), RunRecord(Run{ID: "r1", Status: StatusError, Error: "Ollama is down"}))
	if err := s.Rewind(m.ID, 1); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, m.ID, MessageRecord("r2", botMsg("Hello")), RunRecord(Run{ID: "r2", Status: StatusOK}))
	sess := mustLoad(t, s, m.ID)
	if runIDs(sess.Runs) != "r2" || len(sess.Branches) != 1 || runIDs(sess.Branches[0].Runs) != "r1" || len(sess.Branches[0].Entries) != 0 {
		t.Errorf("runs %s, branches %+v", runIDs(sess.Runs), sess.Branches)
	}
	if contents(sess.Entries) != "Hi|Hello" || sess.Meta.Title != "Hi" {
		t.Errorf("entries %s title %q", contents(sess.Entries), sess.Meta.Title)
	}
}

// A rewind past the end (a damaged file) is skipped with a warning; an interrupted
// turn that is rewound away is no longer offered to continue; a session written
// before versions existed loads as before.
func TestRewindDamageAndOldFiles(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", userMsg("Hi")), MessageRecord("r1", botMsg("Hel")))
	if sess := mustLoad(t, s, m.ID); len(sess.Interrupted) != 1 {
		t.Fatalf("interrupted %+v", sess.Interrupted)
	}
	if err := s.Rewind(m.ID, 9); err != nil {
		t.Fatal(err)
	}
	sess := mustLoad(t, s, m.ID)
	if len(sess.Warnings) != 1 || !strings.Contains(sess.Warnings[0].Message, "rewind") || len(sess.Entries) != 2 {
		t.Errorf("warnings %+v entries %d", sess.Warnings, len(sess.Entries))
	}
	if err := s.Rewind(m.ID, 1); err != nil {
		t.Fatal(err)
	}
	if sess := mustLoad(t, s, m.ID); len(sess.Interrupted) != 0 || len(sess.Entries) != 1 {
		t.Errorf("after rewind: interrupted %+v entries %d", sess.Interrupted, len(sess.Entries))
	}
	if sum, _ := s.List(); sum[0].Messages != 1 {
		t.Errorf("list counts %d messages", sum[0].Messages)
	}
	if err := s.Rewind(m.ID, -1); err == nil {
		t.Error("negative rewind accepted")
	}

	// A file of the first format version, written by hand.
	old := `{"type":"meta","v":1,"id":"old","title":"","created":"2026-11-22T04:00:01Z","updated":"2026-11-22T04:00:01Z","model":"","lastConsolidated":-1,"archived":false}
{"type":"message","at":"2026-11-22T04:00:02Z","runId":"r1","role":"user","content":"Hi"}
{"type":"message","at":"2026-11-22T04:00:03Z","runId":"r1","role":"assistant","content":"Hello"}
{"type":"run","at":"2026-11-22T04:00:04Z","runId":"r1","status":"ok","final":"Hello","usage":{},"durationMs":5}
`
	p, _ := s.Path("old")
	if err := os.WriteFile(p, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	sess = mustLoad(t, s, "old")
	if contents(sess.Entries) != "Hi|Hello" || len(sess.Branches) != 0 || len(sess.Warnings) != 0 || runIDs(sess.Runs) != "r1" {
		t.Errorf("old file: %+v", sess)
	}
}

func contents(es []Entry) string {
	var out []string
	for _, e := range es {
		out = append(out, e.Content)
	}
	return strings.Join(out, "|")
}

func runIDs(rs []Run) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return strings.Join(out, ",")
}
