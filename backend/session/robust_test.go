package session

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"hearth/backend/internal/flock"
	"hearth/backend/llm"
)

func TestTornLastLine(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("one")), MessageRecord("r1", assistant("two")))
	p, _ := s.Path(m.ID)
	// Half of a record, as left by a process killed mid-write.
	whole, err := encodeRecord(nil, MessageRecord("r1", assistant("three is long enough to tear")), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	torn := string(whole[:len(whole)/2])
	appendRaw(t, p, torn)

	got := mustLoad(t, s, m.ID)
	if len(got.Entries) != 2 || got.Entries[1].Content != "two" {
		t.Fatalf("entries = %+v", got.Entries)
	}
	if len(got.Warnings) != 1 || !warningsContain(got.Warnings, 4, "incomplete last line") {
		t.Fatalf("warnings = %v", got.Warnings)
	}
	if l, _ := s.List(); l[0].Messages != 2 {
		t.Errorf("list counts %d messages", l[0].Messages)
	}

	// The next append starts on a fresh line instead of gluing onto the tear.
	mustAppend(t, s, m.ID, MessageRecord("r1", assistant("four")), RunRecord(Run{ID: "r1", Status: StatusOK, Final: "four"}))
	if raw := readFile(t, p); !strings.Contains(raw, torn+"\n{\"type\":\"message\"") {
		t.Fatalf("append glued onto the torn line:\n%s", raw)
	}
	got = mustLoad(t, s, m.ID)
	var texts []string
	for _, e := range got.Entries {
		texts = append(texts, e.Content)
	}
	if strings.Join(texts, ",") != "one,two,four" || len(got.Runs) != 1 || got.Interrupted != nil {
		t.Fatalf("after append: %v, runs %v, interrupted %v", texts, got.Runs, got.Interrupted)
	}
	if len(got.Warnings) != 1 || !warningsContain(got.Warnings, 4, "corrupt message line") {
		t.Fatalf("warnings after append = %v", got.Warnings)
	}
	if l, _ := s.List(); l[0].Messages != 3 || l[0].Interrupted {
		t.Errorf("list after append = %+v", l[0])
	}
}

func TestCompleteLastLineWithoutNewline(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	p, _ := s.Path(m.ID)
	whole, _ := encodeRecord(nil, MessageRecord("", user("kept")), time.Now())
	appendRaw(t, p, strings.TrimSuffix(string(whole), "\n"))
	got := mustLoad(t, s, m.ID)
	if len(got.Entries) != 1 || len(got.Warnings) != 0 {
		t.Fatalf("entries %+v warnings %v", got.Entries, got.Warnings)
	}
	mustAppend(t, s, m.ID, MessageRecord("", user("next")))
	if got := mustLoad(t, s, m.ID); len(got.Entries) != 2 || len(got.Warnings) != 0 {
		t.Fatalf("entries %+v warnings %v", got.Entries, got.Warnings)
	}
}

func TestCorruptMiddleLines(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{Model: "m"})
	p, _ := s.Path(m.ID)
	mustAppend(t, s, m.ID, MessageRecord("r1", user("before")))
	appendRaw(t, p, "this is not json\n")
	appendRaw(t, p, `{"type":"message","at":"2026-11-22T04:00:00Z","role":"assistant","content":"bro`+"\n")
	appendRaw(t, p, `{"type":"message","at":"2026-11-22T04:00:00Z","content":"no role"}`+"\n")
	appendRaw(t, p, `{"type":"sticker","at":"2026-11-22T04:00:00Z"}`+"\n")
	appendRaw(t, p, "\n")
	mustAppend(t, s, m.ID, MessageRecord("r1", assistant("after")), RunRecord(Run{ID: "r1", Status: StatusOK}))

	got := mustLoad(t, s, m.ID)
	if len(got.Entries) != 2 || got.Entries[0].Content != "before" || got.Entries[1].Content != "after" {
		t.Fatalf("entries = %+v", got.Entries)
	}
	for _, w := range []struct {
		line int
		sub  string
	}{{3, "corrupt unknown line"}, {4, "corrupt message line"}, {5, "no role"}, {6, `unknown record type "sticker"`}} {
		if !warningsContain(got.Warnings, w.line, w.sub) {
			t.Errorf("no warning %q for line %d in %v", w.sub, w.line, got.Warnings)
		}
	}
	if len(got.Warnings) != 4 || got.Meta.Model != "m" || got.Interrupted != nil {
		t.Errorf("warnings %v meta %+v interrupted %v", got.Warnings, got.Meta, got.Interrupted)
	}
}

func TestMissingMetadata(t *testing.T) {
	s, _ := newTestStore(t)
	if err := os.MkdirAll(s.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	rec, _ := encodeRecord(nil, MessageRecord("r1", user("hello there")), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	for _, tc := range []struct {
		name, id, content, warn string
		entries                 int
	}{
		{"empty", "cron:empty", "", "file is empty", 0},
		{"no header", "cron:noheader", string(rec), "metadata line missing", 1},
		{"corrupt header", "heartbeat", `{"type":"meta","id":` + "\n" + string(rec), "metadata line unreadable", 1},
		{"garbage header", "g", "\x00\x01garbage\n" + string(rec), "metadata line unreadable", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := s.Path(tc.id)
			if err := os.WriteFile(p, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			got := mustLoad(t, s, tc.id)
			if got.Meta.ID != tc.id || got.Meta.LastConsolidated != NoneConsolidated || got.Meta.Created.IsZero() || len(got.Entries) != tc.entries {
				t.Errorf("meta %+v, %d entries", got.Meta, len(got.Entries))
			}
			if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0].Message, tc.warn) {
				t.Errorf("warnings = %v", got.Warnings)
			}
			if tc.entries == 1 && (got.Meta.Title != "hello there" || len(got.Interrupted) != 1) {
				t.Errorf("title %q interrupted %v", got.Meta.Title, got.Interrupted)
			}
			// Appending to a rebuilt session works.
			mustAppend(t, s, tc.id, MessageRecord("r1", assistant("hi")), RunRecord(Run{ID: "r1", Status: StatusOK}))
			if got := mustLoad(t, s, tc.id); len(got.Entries) != tc.entries+1 || got.Interrupted != nil {
				t.Errorf("after append: %+v", got)
			}
		})
	}
	l, err := s.List()
	if err != nil || len(l) != 4 {
		t.Fatalf("list = %+v, %v", l, err)
	}
	for _, x := range l {
		sess := mustLoad(t, s, x.ID)
		if x.Messages != len(sess.Entries) || !x.Created.Equal(sess.Meta.Created) || !x.Updated.Equal(sess.Meta.Updated) {
			t.Errorf("list %+v disagrees with load %+v", x, sess.Meta)
		}
	}
}

// pattern is a checkable payload: n bytes derived from tag.
func pattern(tag string, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(tag)
		b.WriteByte(' ')
	}
	return b.String()[:n]
}

// checkPattern reports whether content is pattern(tag, len) for the tag it
// starts with.
func checkPattern(content string) bool {
	tag, _, ok := strings.Cut(content, " ")
	return ok && content == pattern(tag, len(content))
}

// TestHelperProcess is not a test: the tests below start the test binary
// again with HEARTH_SESSION_HELPER set to write sessions from another process.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv("HEARTH_SESSION_HELPER")
	if mode == "" {
		return
	}
	s := NewStore(os.Getenv("HEARTH_SESSION_DIR"), Options{})
	id := os.Getenv("HEARTH_SESSION_ID")
	writer := os.Getenv("HEARTH_SESSION_WRITER")
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	switch mode {
	case "crash":
		// A run that keeps checkpointing tool batches until it is killed.
		if err := s.Append(id, MessageRecord("run-crash", user("do a long task"))); err != nil {
			fail(err)
		}
		if err := s.Sync(id); err != nil {
			fail(err)
		}
		for i := 0; ; i++ {
			call := "call-" + strconv.Itoa(i)
			if err := s.Append(id, toolBatch("run-crash", call, "exec", `{"cmd":"step"}`, pattern(call, 64<<10+i))...); err != nil {
				fail(err)
			}
			if i == 2 && writer == "tear" {
				// Killed between the two halves of a write.
				rec, _ := encodeRecord(nil, MessageRecord("run-crash", assistant("never finished")), time.Now())
				p, _ := s.Path(id)
				f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					fail(err)
				}
				if _, err := f.Write(rec[:len(rec)/2]); err != nil {
					fail(err)
				}
				fmt.Println("ready")
				time.Sleep(time.Hour)
			}
			if i == 2 {
				fmt.Println("ready")
			}
		}
	case "pending":
		// A waiting list that keeps growing, saved after every message, until killed.
		var list []Pending
		for i := 0; ; i++ {
			list = append(list, Pending{ID: "p" + strconv.Itoa(i), Mode: "queue", Text: pattern("wait-"+strconv.Itoa(i), 2000+i), At: "2026-12-07T10:00:00Z"})
			if err := s.SavePending(id, list); err != nil {
				fail(err)
			}
			if i == 2 {
				fmt.Println("ready")
			}
		}
	case "append":
		n, _ := strconv.Atoi(os.Getenv("HEARTH_SESSION_N"))
		for i := range n {
			tag := writer + "-" + strconv.Itoa(i)
			if err := s.Append(id, MessageRecord(writer, user(pattern(tag, len(tag)+1+(i*7919)%(96<<10))))); err != nil {
				fail(err)
			}
		}
		os.Exit(0)
	}
	fail(fmt.Errorf("unknown helper mode %q", mode))
}

func helper(t *testing.T, s *Store, mode, id, writer string, n int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "HEARTH_SESSION_HELPER="+mode, "HEARTH_SESSION_DIR="+s.Dir(),
		"HEARTH_SESSION_ID="+id, "HEARTH_SESSION_WRITER="+writer, "HEARTH_SESSION_N="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	return cmd
}

func TestCrashMidTurn(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	t.Run("killed while appending", func(t *testing.T) { testCrash(t, false) })
	t.Run("killed mid-write", func(t *testing.T) { testCrash(t, true) })
}

// testCrash kills a child process that checkpoints a long run and checks
// what Load makes of the file. With tear, the child dies between the two
// halves of a write, leaving a torn last line.
func testCrash(t *testing.T, tear bool) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("run-0", user("earlier")), MessageRecord("run-0", assistant("fine")),
		RunRecord(Run{ID: "run-0", Status: StatusOK, Final: "fine"}))

	writer := ""
	if tear {
		writer = "tear"
	}
	cmd := helper(t, s, "crash", m.ID, writer, 0)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "ready\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("child said %q, %v", line, err)
	}
	if !tear { // let it be in the middle of more appends: the file grows past its size now
		p, _ := s.Path(m.ID)
		size := func() int64 {
			if fi, err := os.Stat(p); err == nil {
				return fi.Size()
			}
			return -1
		}
		for at, deadline := size(), time.Now().Add(20*time.Second); size() == at; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				_ = cmd.Process.Kill()
				t.Fatal("the child stopped appending")
			}
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	got := mustLoad(t, s, m.ID)
	t.Logf("killed after %d messages; warnings: %v", len(got.Entries), got.Warnings)
	if tear && (len(got.Warnings) != 1 || len(got.Entries) != 9) {
		t.Fatalf("torn write: want 1 warning and 9 messages, got %v and %d", got.Warnings, len(got.Entries))
	}
	for _, w := range got.Warnings {
		if !strings.Contains(w.Message, "incomplete last line") {
			t.Errorf("unexpected warning %v", w)
		}
	}
	if len(got.Runs) != 1 || len(got.Interrupted) != 1 {
		t.Fatalf("runs %v, interrupted %d", got.Runs, len(got.Interrupted))
	}
	in := got.Interrupted[0]
	if in.RunID != "run-crash" || in.First != 2 || in.Entries[0].Content != "do a long task" || len(in.Entries) < 7 {
		t.Fatalf("interrupted run %s first %d with %d entries", in.RunID, in.First, len(in.Entries))
	}
	// Every checkpointed tool batch is complete and intact.
	for i, e := range in.Entries[1:] {
		call := "call-" + strconv.Itoa(i/2)
		switch {
		case i%2 == 0 && (len(e.ToolCalls) != 1 || e.ToolCalls[0].ID != call):
			t.Fatalf("entry %d: %+v", i+1, e)
		case i%2 == 1 && (e.ToolCallID != call || !checkPattern(e.Content)):
			t.Fatalf("entry %d: result of %s garbled", i+1, e.ToolCallID)
		}
	}
	if l, _ := s.List(); !l[0].Interrupted {
		t.Error("list does not flag the interrupted session")
	}

	// Continuing the run finishes it; nothing written before is lost.
	n := len(got.Entries)
	mustAppend(t, s, m.ID, MessageRecord("run-crash", assistant("continued")), RunRecord(Run{ID: "run-crash", Status: StatusOK}))
	got = mustLoad(t, s, m.ID)
	if got.Interrupted != nil || len(got.Entries) != n+1 || got.Entries[n].Content != "continued" {
		t.Fatalf("after continue: %d entries (had %d), interrupted %v, warnings %v", len(got.Entries), n, got.Interrupted, got.Warnings)
	}
	if l, _ := s.List(); l[0].Interrupted {
		t.Error("list still flags the continued session")
	}
}

// checkWriters verifies that every writer's records are present, complete
// and in the writer's order.
func checkWriters(t *testing.T, sess *Session, writers []string, n int) {
	t.Helper()
	if len(sess.Warnings) != 0 || len(sess.Entries) != len(writers)*n {
		t.Fatalf("%d entries, want %d; warnings %v", len(sess.Entries), len(writers)*n, sess.Warnings)
	}
	next := map[string]int{}
	for _, e := range sess.Entries {
		want := e.RunID + "-" + strconv.Itoa(next[e.RunID]) + " "
		if !strings.HasPrefix(e.Content, want) || !checkPattern(e.Content) {
			t.Fatalf("writer %s record %d garbled or out of order: %.40q", e.RunID, next[e.RunID], e.Content)
		}
		next[e.RunID]++
	}
}

func TestConcurrentAppendGoroutines(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	other := NewStore(s.Dir(), Options{}) // a second store: separate opens, separate locks
	const n = 150
	var wg sync.WaitGroup
	for w, st := range map[string]*Store{"a": s, "b": other, "c": s} {
		wg.Go(func() {
			for i := range n {
				tag := w + "-" + strconv.Itoa(i)
				if err := st.Append(m.ID, MessageRecord(w, user(pattern(tag, len(tag)+1+(i*7919)%(48<<10))))); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	checkWriters(t, mustLoad(t, s, m.ID), []string{"a", "b", "c"}, n)
}

func TestConcurrentAppendProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{ID: "cron:shared"})
	const n = 150
	a, b := helper(t, s, "append", m.ID, "p1", n), helper(t, s, "append", m.ID, "p2", n)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	// This process reads while they write: a shared lock never sees half a record.
	for range 20 {
		if got := mustLoad(t, s, m.ID); len(got.Warnings) != 0 {
			t.Fatalf("load during appends: %v", got.Warnings)
		}
	}
	if err := a.Wait(); err != nil {
		t.Fatal(err)
	}
	if err := b.Wait(); err != nil {
		t.Fatal(err)
	}
	got := mustLoad(t, s, m.ID)
	checkWriters(t, got, []string{"p1", "p2"}, n)
	if got.Entries[0].Role != llm.RoleUser {
		t.Error(got.Entries[0])
	}
}

// TestWritersAndReadersTakeTheLock holds the file's flock the way another
// process would and checks that Append, the metadata writers and Load wait
// for it.
func TestWritersAndReadersTakeTheLock(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	p, _ := s.Path(m.ID)
	other, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for name, op := range map[string]func() error{
		"append":  func() error { return s.Append(m.ID, MessageRecord("", user("x"))) },
		"rename":  func() error { return s.Rename(m.ID, "t") },
		"load":    func() error { _, err := s.Load(m.ID); return err },
		"archive": func() error { return s.Archive(m.ID, true) },
	} {
		if err := flock.Lock(other, true); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- op() }()
		select {
		case err := <-done:
			t.Fatalf("%s finished while another writer held the lock: %v", name, err)
		case <-time.After(50 * time.Millisecond):
		}
		if err := flock.Unlock(other); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if got := mustLoad(t, s, m.ID); len(got.Entries) != 1 || got.Meta.Title != "t" || !got.Meta.Archived {
		t.Errorf("after locked writes: %+v", got.Meta)
	}
}

// TestDeleteWhileAppending races appends against Delete: every append either
// lands in the file that went to the trash or fails with ErrNotFound; none is
// lost in between.
func TestDeleteWhileAppending(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	const n = 40
	var wg sync.WaitGroup
	results := make([]error, n)
	for i := range n {
		wg.Go(func() { results[i] = s.Append(m.ID, MessageRecord("", user("m"+strconv.Itoa(i)))) })
		if i == n/2 {
			if err := s.Delete(m.ID, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	wg.Wait()
	ok := 0
	for i, err := range results {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, ErrNotFound):
			t.Errorf("append %d: %v", i, err)
		}
	}
	if err := s.Restore(m.ID); err != nil {
		t.Fatal(err)
	}
	if got := mustLoad(t, s, m.ID); len(got.Entries) != ok || len(got.Warnings) != 0 {
		t.Errorf("%d appends succeeded, %d entries in the file, warnings %v", ok, len(got.Entries), got.Warnings)
	}
}

// A well-formed line whose tool-call arguments are not an object (issue 19: stored as
// a JSON string, they made every later turn of the chat fail at the model provider)
// loads with the arguments as an object and a warning naming the line.
func TestToolCallArgumentsNotAnObject(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("one")))
	p, _ := s.Path(m.ID)
	appendRaw(t, p, `{"type":"message","runId":"r2","role":"assistant","content":"","toolCalls":[{"id":"c1","name":"read_file","arguments":"{\"path\":\"a.txt\"}"},{"id":"c2","name":"exec","arguments":[1,2]}]}`+"\n")
	appendRaw(t, p, `{"type":"message","runId":"r2","role":"tool","toolCallId":"c1","content":"ok"}`+"\n")
	got := mustLoad(t, s, m.ID)
	if len(got.Entries) != 3 {
		t.Fatalf("entries = %+v", got.Entries)
	}
	calls := got.Entries[1].ToolCalls
	if len(calls) != 2 || string(calls[0].Arguments) != `{"path":"a.txt"}` || string(calls[1].Arguments) != `{}` {
		t.Fatalf("tool calls = %+v", calls)
	}
	if !warningsContain(got.Warnings, 3, "read_file call were stored as a JSON string") || !warningsContain(got.Warnings, 3, "exec call are not a JSON object") {
		t.Errorf("warnings = %v", got.Warnings)
	}
}

// The waiting list survives a real kill -9 at any moment of its saving: the file read
// afterwards is one whole list the child saved (every message intact, in order), never a
// torn one, and nothing is moved aside as damaged.
func TestPendingSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	cmd := helper(t, s, "pending", m.ID, "", 0)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("child said %q, %v", line, err)
	}
	// Let it be in the middle of later saves: the list has grown past what it was.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
		if l, err := s.LoadPending(m.ID); err == nil && len(l) > 5 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("the child stopped saving")
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	got, err := s.LoadPending(m.ID)
	if err != nil || len(got) < 6 {
		t.Fatalf("after kill -9: %d messages, %v", len(got), err)
	}
	for i, p := range got {
		if want := "p" + strconv.Itoa(i); p.ID != want || !checkPattern(p.Text) {
			t.Fatalf("message %d: id %q (want %q), text intact %v", i, p.ID, want, checkPattern(p.Text))
		}
	}
	entries, _ := os.ReadDir(s.Dir())
	for _, e := range entries {
		if strings.Contains(e.Name(), ".bad-") {
			t.Errorf("a whole list was moved aside as damaged: %s", e.Name())
		}
	}
	t.Logf("killed with %d messages waiting", len(got))
}
