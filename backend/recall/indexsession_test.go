package recall

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"hearth/backend/llm"
	"hearth/backend/session"
)

// indexedChunks lists what the index holds of source, one line a chunk.
func indexedChunks(t *testing.T, x *Index, source string) []string {
	t.Helper()
	x.mu.Lock()
	defer x.mu.Unlock()
	rows, err := x.db.Query(`SELECT id, pos, title, date, text FROM chunks WHERE source = ? ORDER BY id`, source)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, title, date, text string
		var pos int
		if err := rows.Scan(&id, &pos, &title, &date, &text); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %d %s %s %q", id, pos, title, date, text))
	}
	return out
}

// A chat that grows is indexed from its bookmark, and what the index then holds is
// what a whole read makes of the same file: through short and long exchanges, tool
// traffic, a repeated message, a turn in two appends, a consolidation mark. A rewind,
// a new title, a file rewritten with the same length and one cut short are read
// whole, and still agree.
func TestGrowingChatIndexedFromItsBookmark(t *testing.T) {
	ws, sessions := t.TempDir(), t.TempDir()
	st := session.NewStore(sessions, session.Options{})
	if _, err := st.Create(session.CreateOptions{ID: "live", Title: "Plans"}); err != nil {
		t.Fatal(err)
	}
	x := NewIndex(IndexOptions{Workspace: ws, SessionsDir: sessions, Dir: t.TempDir()})
	t.Cleanup(func() { x.Close() })
	check := func(step string, wantTail bool) {
		t.Helper()
		before := x.chatTails
		if _, err := x.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := x.chatTails > before; got != wantTail {
			t.Errorf("%s: read from the bookmark %v, want %v", step, got, wantTail)
		}
		whole := NewIndex(IndexOptions{Workspace: ws, SessionsDir: sessions})
		defer whole.Close()
		if _, err := whole.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		if a, b := indexedChunks(t, x, "sessions/live"), indexedChunks(t, whole, "sessions/live"); !slices.Equal(a, b) {
			t.Fatalf("%s: the grown index holds\n%s\na whole read\n%s", step, strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
	}
	turn := func(run, q, a string) []session.Record {
		call := llm.ToolCall{ID: run + "-1", Name: "read_file", Arguments: []byte(`{"path":"notes.md"}`)}
		return []session.Record{
			session.MessageRecord(run, llm.Message{Role: llm.RoleUser, Content: q}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, ToolName: "read_file", Content: "1\tnotes"}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleAssistant, Content: a}),
			session.RunRecord(session.Run{ID: run, Status: session.StatusOK, Final: a}),
		}
	}
	app := func(recs ...session.Record) {
		t.Helper()
		if err := st.Append("live", recs...); err != nil {
			t.Fatal(err)
		}
	}
	app(turn("r0", "hi", "hello")...)
	check("first read", false)
	app(turn("r1", "short one", "ok")...)
	check("a short exchange joins the last chunk", true)
	for i := range 6 {
		app(turn(fmt.Sprintf("r%d", i+2), fmt.Sprintf("Question %d about the garden plan and the plum tree?", i), strings.Repeat("A long answer about plums. ", 12))...)
		check(fmt.Sprintf("long exchange %d", i), true)
	}
	app(turn("r9", "Question 2 about the garden plan and the plum tree?", strings.Repeat("A long answer about plums. ", 12))...)
	check("an exchange said again", true)
	app(session.MessageRecord("r10", llm.Message{Role: llm.RoleUser, Content: "and the pears?"}))
	check("the question before its answer", true)
	app(session.MessageRecord("r10", llm.Message{Role: llm.RoleAssistant, Content: "Pears ripen later."}), session.RunRecord(session.Run{ID: "r10", Status: session.StatusOK}))
	check("the answer", true)
	if err := st.MarkConsolidated("live", 3); err != nil {
		t.Fatal(err)
	}
	app(turn("r11", "one more", "fine")...)
	check("after a consolidation mark", true)
	if err := st.Rename("live", "Garden"); err != nil {
		t.Fatal(err)
	}
	check("a new title", false)
	app(turn("r12", "after the title", "yes")...)
	check("grown after the title", true)
	if err := st.Rewind("live", 4); err != nil {
		t.Fatal(err)
	}
	check("a rewind", false)
	app(turn("r13", "after the rewind", "sure")...)
	check("grown after a rewind", false) // its messages are no longer its message lines
	p, _ := st.Path("live")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// Rewritten in place: the same length, one earlier byte changed, then grown.
	data = []byte(strings.Replace(string(data), "hi", "ho", 1))
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	check("rewritten", false)
	if err := os.WriteFile(p, data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	check("cut short", false)
}

// A chat's new lines that are damaged or cut off, or a bookmark pointing past the
// file, are read whole: the index never trusts what it cannot check.
func TestGrowingChatDamagedTailReadWhole(t *testing.T) {
	ws, sessions := t.TempDir(), t.TempDir()
	st := session.NewStore(sessions, session.Options{})
	if _, err := st.Create(session.CreateOptions{ID: "c", Title: "T"}); err != nil {
		t.Fatal(err)
	}
	if err := st.Append("c", session.MessageRecord("r", llm.Message{Role: llm.RoleUser, Content: "the first question"})); err != nil {
		t.Fatal(err)
	}
	x := NewIndex(IndexOptions{Workspace: ws, SessionsDir: sessions, Dir: t.TempDir()})
	t.Cleanup(func() { x.Close() })
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	p, _ := st.Path("c")
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","role":"user","content":"torn`) // no newline: a write cut off
	f.Close()
	before := x.chatTails
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if x.chatTails != before {
		t.Error("a torn last line was read from the bookmark")
	}
	if got := indexedChunks(t, x, "sessions/c"); len(got) != 1 || !strings.Contains(got[0], "the first question") {
		t.Errorf("chunks %v", got)
	}
	// A bookmark past the file's end (planted, or left by another version).
	x.mu.Lock()
	_, err = x.db.Exec(`UPDATE marks SET off = 1 << 40`)
	x.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Append("c", session.MessageRecord("r2", llm.Message{Role: llm.RoleUser, Content: "second"})); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := indexedChunks(t, x, "sessions/c"); len(got) != 1 || !strings.Contains(got[0], "second") {
		t.Errorf("after a bad bookmark: %v", got)
	}
}

// A chat too large to hold whole (a planted 200 MB line) is indexed the way the chat
// view reads it, a piece at a time with the line skipped: its other messages are
// found, and the sync neither fails nor holds the line (what it allocates in all
// stays well under the line's size).
func TestHugeChatIndexedWithoutHoldingIt(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 200 MB chat")
	}
	ws, sdir := t.TempDir(), t.TempDir()
	st := session.NewStore(sdir, session.Options{})
	newChat(t, st, "big", "The spare key hangs behind the blue cupboard door.", "Noted: behind the blue cupboard door.")
	p, err := st.Path("big")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(`{"type":"message","run":"r","role":"user","content":"`)
	for range hugeChat / 4096 {
		w.WriteString(strings.Repeat("z", 4096))
	}
	w.WriteString("\"}\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	x := NewIndex(IndexOptions{Workspace: ws, SessionsDir: sdir})
	defer x.Close()
	var res Results
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err = x.Search(context.Background(), "where is the spare key", 3)
	runtime.ReadMemStats(&after)
	if err != nil || len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Snippet, "blue cupboard") {
		t.Fatalf("%+v %v", res, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > hugeChat/2 {
		t.Errorf("indexing a %d MB chat allocated %d MB", hugeChat>>20, n>>20)
	}
}

const hugeChat = 200 << 20
