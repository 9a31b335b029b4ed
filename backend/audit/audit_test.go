package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/tools"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

func newLog(t *testing.T, start time.Time) (*Log, *clock, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "audit")
	c := &clock{t: start}
	m := tools.NewMasker("sk-live-SECRET-42")
	return New(Options{Dir: dir, Mask: m.Mask, Now: c.now, OnError: func(err error) { t.Error(err) }}), c, dir
}

func ev(run, sess string, seq int64, typ event.Type, data any) event.Event {
	return event.Event{RunID: run, SessionID: sess, Seq: seq, Type: typ, Data: data}
}

func TestObserveWritesOneLinePerCall(t *testing.T) {
	day := time.Date(2026, 11, 23, 10, 0, 0, 0, time.Local)
	l, _, dir := newLog(t, day)
	args := `{"command":"curl -H 'Authorization: sk-live-SECRET-42' x","apiKey":"plain-value","content":"` + strings.Repeat("a", 5000) + `"}`
	for _, e := range []event.Event{
		ev("r1", "s1", 1, event.RunStarted, event.StartedData{}),
		ev("r1", "s1", 2, event.ToolCall, event.ToolCallData{CallID: "c1", Name: "exec", Args: json.RawMessage(args)}),
		ev("r1", "s1", 3, event.Approval, event.ApprovalData{CallID: "c1", State: "requested"}),
		ev("r1", "s1", 4, event.Approval, event.ApprovalData{CallID: "c1", State: "allowed", Scope: "chat"}),
		ev("r1", "s1", 5, event.ToolResult, event.ToolResultData{CallID: "c1", Name: "exec", OK: true, Content: "hello", DurationMs: 12}),
		ev("r1", "s1", 6, event.ToolCall, event.ToolCallData{CallID: "c2", Name: "exec", Args: json.RawMessage(`{"command":"rm x"}`)}),
		ev("r1", "s1", 7, event.Approval, event.ApprovalData{CallID: "c2", State: "requested"}),
		ev("r1", "s1", 8, event.Approval, event.ApprovalData{CallID: "c2", State: "denied", Scope: "user"}),
		ev("r1", "s1", 9, event.ToolResult, event.ToolResultData{CallID: "c2", Name: "exec", Content: "Error: denied by the user — do not retry this call\nmore"}),
		ev("r1", "s1", 10, event.ToolCall, event.ToolCallData{CallID: "c3", Name: "read_file", Args: json.RawMessage(`{"path":"a.md"}`)}),
		ev("r1", "s1", 11, event.ToolResult, event.ToolResultData{CallID: "c3", Name: "read_file", OK: true, Content: "12345"}),
		ev("r1", "s1", 12, event.RunFinished, event.FinishedData{Status: event.StatusOK}),
	} {
		l.Observe(e)
	}
	data, err := os.ReadFile(filepath.Join(dir, "2026-11-23.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), data)
	}
	for _, leak := range []string{"sk-live-SECRET-42", "plain-value", strings.Repeat("a", 2001)} {
		if strings.Contains(string(data), leak) {
			t.Errorf("the log holds %.40q", leak)
		}
	}
	got, err := l.Query(Filter{})
	if err != nil || len(got) != 3 {
		t.Fatalf("query: %v %+v", err, got)
	}
	e := got[0]
	if e.Tool != "exec" || e.SessionID != "s1" || e.RunID != "r1" || e.CallID != "c1" || e.Approval != Chat || !e.Asked || !e.OK ||
		e.DurationMs != 12 || e.ResultSize != 5 || !e.Time.Equal(day) || !strings.Contains(string(e.Args), "[redacted]") {
		t.Errorf("entry %+v", e)
	}
	if e := got[1]; e.Approval != Denied || !e.Asked || e.OK || e.Error != "Error: denied by the user — do not retry this call" {
		t.Errorf("denied entry %+v", e)
	}
	if e := got[2]; e.Approval != Auto || e.Asked || e.ResultSize != 5 {
		t.Errorf("auto entry %+v", e)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "2026-11-23.jsonl"): 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v (%v)", path, fi.Mode().Perm(), want, err)
		}
	}
}

func TestRotationAndRetention(t *testing.T) {
	start := time.Date(2026, 10, 1, 12, 0, 0, 0, time.Local)
	l, c, dir := newLog(t, start)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		c.set(start.AddDate(0, 0, i))
		if err := l.Write(Entry{Tool: "exec", OK: true}); err != nil {
			t.Fatal(err)
		}
	}
	days, _ := l.days()
	if len(days) != 30 || days[0] != "2026-10-11" || days[29] != "2026-11-09" {
		t.Errorf("kept %d days: %v", len(days), days)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Error("a file that is not a daily log was removed")
	}
	got, _ := l.Query(Filter{Since: time.Date(2026, 11, 1, 0, 0, 0, 0, time.Local), Until: time.Date(2026, 11, 3, 0, 0, 0, 0, time.Local)})
	if len(got) != 2 {
		t.Errorf("range query: %d entries", len(got))
	}
}

func TestFilters(t *testing.T) {
	l, _, _ := newLog(t, time.Date(2026, 11, 23, 9, 0, 0, 0, time.Local))
	for _, e := range []Entry{
		{SessionID: "a", RunID: "r1", Tool: "exec", Approval: Once, Asked: true, OK: true, Args: json.RawMessage(`{"command":"ls"}`)},
		{SessionID: "a", RunID: "r1", Tool: "read_file", Approval: Auto, OK: true},
		{SessionID: "b", RunID: "r2", Tool: "exec", Approval: Denied, Asked: true, Error: "denied"},
		{SessionID: "b", RunID: "r2", Tool: "exec", Approval: Unattended, Error: "needs approval"},
	} {
		if err := l.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		f    Filter
		want int
	}{
		{Filter{}, 4}, {Filter{SessionID: "a"}, 2}, {Filter{RunID: "r2"}, 2}, {Filter{Tool: "exec"}, 3},
		{Filter{Failed: true}, 2}, {Filter{Approval: "asked"}, 2}, {Filter{Approval: Unattended}, 1},
		{Filter{Text: "LS"}, 1}, {Filter{Limit: 3}, 3}, {Filter{Tool: "exec", Failed: true, SessionID: "a"}, 0},
	} {
		if got, err := l.Query(c.f); err != nil || len(got) != c.want {
			t.Errorf("%+v: %d entries (%v), want %d", c.f, len(got), err, c.want)
		}
	}
	if got, _ := l.Query(Filter{Limit: 1}); got[0].Approval != Unattended {
		t.Errorf("limit keeps the newest: %+v", got)
	}
}

func TestTornLineSkipped(t *testing.T) {
	l, _, dir := newLog(t, time.Date(2026, 11, 23, 9, 0, 0, 0, time.Local))
	if err := l.Write(Entry{Tool: "a"}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(dir, "2026-11-23.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.WriteString("garbage\n{\"tool\":\"to")
	_ = f.Close()
	if got, err := l.Query(Filter{}); err != nil || len(got) != 1 {
		t.Errorf("%+v %v", got, err)
	}
}

func TestTailFollow(t *testing.T) {
	start := time.Date(2026, 11, 23, 23, 59, 0, 0, time.Local)
	l, c, _ := newLog(t, start)
	for i := range 5 {
		if err := l.Write(Entry{Tool: fmt.Sprint("t", i)}); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var seen []string
	got := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), seen...) }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- l.Tail(ctx, 2, true, func(e Entry) { mu.Lock(); seen = append(seen, e.Tool); mu.Unlock() })
	}()
	waitFor := func(n int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for len(got()) < n {
			if time.Now().After(deadline) {
				t.Fatalf("saw %v, want %d entries", got(), n)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor(2)
	// Another writer (another process in real life) appends; then midnight.
	other := New(Options{Dir: l.Dir(), Now: c.now})
	if err := other.Write(Entry{Tool: "later"}); err != nil {
		t.Fatal(err)
	}
	waitFor(3)
	c.set(start.Add(2 * time.Minute))
	if err := other.Write(Entry{Tool: "tomorrow"}); err != nil {
		t.Fatal(err)
	}
	waitFor(4)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got(), " "); s != "t3 t4 later tomorrow" {
		t.Errorf("tail saw %q", s)
	}
	var all []string
	_ = l.Tail(context.Background(), 0, false, func(e Entry) { all = append(all, e.Tool) })
	if len(all) != 7 {
		t.Errorf("tail 0 = all: %v", all)
	}
}

func TestConcurrentWriters(t *testing.T) {
	l, _, _ := newLog(t, time.Date(2026, 11, 23, 9, 0, 0, 0, time.Local))
	other := New(Options{Dir: l.Dir(), Now: l.opts.Now})
	var wg sync.WaitGroup
	for i := range 20 {
		w := l
		if i%2 == 1 {
			w = other
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = w.Write(Entry{Tool: "t", Args: json.RawMessage(`{"content":"` + strings.Repeat("x", 3000) + `"}`)})
		}()
	}
	wg.Wait()
	if got, _ := l.Query(Filter{}); len(got) != 20 {
		t.Errorf("%d of 20 lines parse", len(got))
	}
}

// Entries are synced when their run ends, not one fsync per tool call.
func TestRunEndSyncs(t *testing.T) {
	day := time.Date(2026, 11, 23, 10, 0, 0, 0, time.Local)
	l, _, dir := newLog(t, day)
	unsynced := func() int {
		l.mu.Lock()
		defer l.mu.Unlock()
		return len(l.unsynced)
	}
	for i, e := range []event.Event{
		ev("r1", "s1", 1, event.ToolCall, event.ToolCallData{CallID: "c1", Name: "read_file", Args: json.RawMessage(`{"path":"a.md"}`)}),
		ev("r1", "s1", 2, event.ToolResult, event.ToolResultData{CallID: "c1", Name: "read_file", OK: true, Content: "x"}),
		ev("r1", "s1", 3, event.ToolCall, event.ToolCallData{CallID: "c2", Name: "read_file", Args: json.RawMessage(`{"path":"b.md"}`)}),
		ev("r1", "s1", 4, event.ToolResult, event.ToolResultData{CallID: "c2", Name: "read_file", OK: true, Content: "y"}),
	} {
		l.Observe(e)
		if i == 1 {
			// Written for every reader at once, durable later.
			if data, err := os.ReadFile(filepath.Join(dir, "2026-11-23.jsonl")); err != nil || !strings.Contains(string(data), `"c1"`) {
				t.Fatalf("the first entry is not in the file yet: %q %v", data, err)
			}
		}
	}
	if n := unsynced(); n != 1 {
		t.Fatalf("%d files waiting for a sync during the run, want 1", n)
	}
	l.Observe(ev("r1", "s1", 5, event.RunFinished, event.FinishedData{Status: event.StatusOK}))
	if n := unsynced(); n != 0 {
		t.Errorf("%d files still unsynced after the run ended", n)
	}
}

// Every write goes to the file at the day's path: a file removed or replaced
// between writes is written anew, and the next day gets its own file.
func TestWriteFollowsTheFileAtItsPath(t *testing.T) {
	day := time.Date(2026, 11, 23, 10, 0, 0, 0, time.Local)
	l, c, dir := newLog(t, day)
	path := filepath.Join(dir, "2026-11-23.jsonl")
	write := func(call string) {
		t.Helper()
		if err := l.Write(Entry{CallID: call, Tool: "read_file", OK: true}); err != nil {
			t.Fatal(err)
		}
	}
	calls := func(p string) []string {
		t.Helper()
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var e Entry
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			out = append(out, e.CallID)
		}
		return out
	}
	write("c1")
	write("c2")
	if got := calls(path); strings.Join(got, ",") != "c1,c2" {
		t.Fatalf("after two writes: %v", got)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	write("c3")
	if got := calls(path); strings.Join(got, ",") != "c3" {
		t.Fatalf("after the file was removed: %v", got)
	}
	if err := os.Rename(path, path+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	write("c4")
	if got := calls(path); strings.Join(got, ",") != "c4" {
		t.Fatalf("after the file was replaced: %v", got)
	}
	if got := calls(path + ".old"); strings.Join(got, ",") != "c3" {
		t.Fatalf("the replaced file was written to: %v", got)
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	write("c5") // opened again after Sync closed it
	c.set(day.AddDate(0, 0, 1))
	write("c6")
	if got := calls(path); strings.Join(got, ",") != "c4,c5" {
		t.Fatalf("today's file: %v", got)
	}
	if got := calls(filepath.Join(dir, "2026-11-24.jsonl")); strings.Join(got, ",") != "c6" {
		t.Fatalf("the next day's file: %v", got)
	}
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
}
