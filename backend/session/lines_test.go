package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"hearth/backend/internal/safefile/safefiletest"
	"hearth/backend/llm"
)

// linesOf is what readLinesBy must amount to: every line of data, the last one
// without its newline, with those over limit given as their sizes only.
func linesOf(data []byte, limit int) []string {
	var out []string
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(line) > limit {
			out = append(out, fmt.Sprintf("long %d", len(line)))
		} else {
			out = append(out, "line "+string(line))
		}
	}
	return out
}

func readAllLines(t testing.TB, data []byte, chunk, limit int) (got []string, n int64) {
	var held int
	n, _, err := readLinesBy(iotest.HalfReader(bytes.NewReader(data)), int64(len(data)/2), chunk, limit, func(b []byte) {
		held = max(held, cap(b))
		got = append(got, linesOf(b, limit)...)
	}, func(size int64, _ bool) {
		got = append(got, fmt.Sprintf("long %d", size))
	})
	if err != nil {
		t.Fatal(err)
	}
	// A piece holds at most a line of limit bytes and a chunk, or two limits'
	// worth while a line grows, or what followed a skipped line in one read of
	// skipLine's 64 kB: never a long line whole.
	if bound := max(2*max(chunk, limit)+2, 64<<10); held > bound {
		t.Fatalf("a piece of %d bytes was held (chunk %d, limit %d)", held, chunk, limit)
	}
	return got, n
}

func TestReadLinesSkipsLongLines(t *testing.T) {
	data := []byte("short\n" + strings.Repeat("x", 100) + "\nmid-" + strings.Repeat("y", 20) + "\n\ntail " + strings.Repeat("z", 60))
	for _, chunk := range []int{1, 7, 32, 4096} {
		got, n := readAllLines(t, data, chunk, 40)
		want := linesOf(data, 40)
		if strings.Join(got, "|") != strings.Join(want, "|") || n != int64(len(data)) {
			t.Errorf("chunk %d: got %q (%d bytes), want %q", chunk, got, n, want)
		}
	}
}

// FuzzReadLines checks the line reader against a plain split for any data, chunk
// size and bound: the same lines in the same order, long ones by size only, and
// no piece holding more than about two bounds. Seeds: testdata/fuzz/FuzzReadLines.
func FuzzReadLines(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), uint8(2), uint8(2))
	f.Add([]byte(strings.Repeat("x", 300)+"\nend\n"), uint8(16), uint8(1))
	f.Add([]byte("\n\n\n"), uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, chunk, limit uint8) {
		c, l := int(chunk)%64+1, int(limit)
		got, n := readAllLines(t, data, c, l)
		if want := linesOf(data, l); strings.Join(got, "\x00") != strings.Join(want, "\x00") || n != int64(len(data)) {
			t.Fatalf("chunk %d limit %d: got %q, want %q", c, l, got, want)
		}
	})
}

// writeHugeLineSession writes, through a small buffer, a chat whose third line is
// one message of size bytes between two ordinary ones.
func writeHugeLineSession(t *testing.T, s *Store, id string, size int) {
	t.Helper()
	p, err := s.Path(id)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 64<<10)
	fmt.Fprintf(w, `{"type":"meta","v":1,"id":%q,"title":"big","created":"2026-11-22T04:00:01Z","updated":"2026-11-22T04:00:01Z","model":"","lastConsolidated":-1,"archived":false}`+"\n", id)
	fmt.Fprintln(w, `{"type":"message","at":"2026-11-22T04:00:02Z","runId":"r1","role":"user","content":"before"}`)
	fmt.Fprint(w, `{"type":"message","at":"2026-11-22T04:00:03Z","runId":"r1","role":"tool","content":"`)
	block := bytes.Repeat([]byte("a"), 64<<10)
	for left := size; left > 0; left -= len(block) {
		_, _ = w.Write(block[:min(left, len(block))])
	}
	fmt.Fprintln(w, `"}`)
	fmt.Fprintln(w, `{"type":"message","at":"2026-11-22T04:00:04Z","runId":"r1","role":"assistant","content":"after"}`)
	fmt.Fprintln(w, `{"type":"run","at":"2026-11-22T04:00:05Z","runId":"r1","status":"ok","final":"after","usage":{},"durationMs":5}`)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// allocated is how many bytes fn allocated on the heap (all goroutines: the
// package's tests do not run in parallel).
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A 200 MB line in a chat is skipped with a warning that says so, the rest of
// the chat is read, and neither loading nor listing it ever holds the line: what
// they allocate in all stays well under its size (it took 2.7 GB).
func TestHugeLineIsSkippedInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 200 MB file")
	}
	const size = 200 << 20
	dir := t.TempDir()
	s := NewStore(dir, Options{})
	writeHugeLineSession(t, s, "big", size)

	var sess *Session
	var err error
	if n := allocated(func() { sess, err = s.Load("big") }); n > size/2 {
		t.Errorf("loading allocated %d MB for a %d MB line", n>>20, size>>20)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Entries) != 2 || sess.Entries[0].Content != "before" || sess.Entries[1].Content != "after" ||
		len(sess.Runs) != 1 || sess.Meta.Title != "big" {
		t.Fatalf("session %+v", sess.Meta)
	}
	if len(sess.Warnings) != 1 || sess.Warnings[0].Line != 3 || !strings.Contains(sess.Warnings[0].Message, "skipped") ||
		!strings.Contains(sess.Warnings[0].Message, "32.0 MB") {
		t.Errorf("warnings %+v", sess.Warnings)
	}
	var list []Summary
	if n := allocated(func() { list, err = NewStore(dir, Options{}).List() }); n > size/2 {
		t.Errorf("listing allocated %d MB for a %d MB line", n>>20, size>>20)
	}
	if err != nil || len(list) != 1 || list[0].Messages != 2 || list[0].Interrupted || list[0].Title != "big" {
		t.Errorf("list %+v: %v", list, err)
	}
	// The recall index's reader (ReadFile) does not hold it either: it refuses the
	// file, and the index reads it with Load instead.
	var data []byte
	if n := allocated(func() { data, _, err = s.ReadFile("big") }); n > size/2 || !errors.Is(err, ErrTooLarge) || data != nil {
		t.Errorf("ReadFile of a %d MB chat: %d MB allocated, %v", size>>20, n>>20, err)
	}
	// The chat goes on: an append after the line is read with it.
	if err := s.Append("big", MessageRecord("r2", llm.Message{Role: llm.RoleUser, Content: "more"})); err != nil {
		t.Fatal(err)
	}
	if c, err := s.LoadConversation("big"); err != nil || len(c.Messages) != 3 || c.Messages[2].Content != "more" {
		t.Errorf("after an append: %+v, %v", c, err)
	}
}

// Hearth never writes a line its own reader would skip: an Append of a record
// over MaxLineBytes fails with an error that says the bound, and writes nothing.
func TestAppendRefusesLineOverBound(t *testing.T) {
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{})
	mustAppend(t, s, m.ID, MessageRecord("r1", user("hello")))
	before := fileSize(t, s, m.ID)
	big := MessageRecord("r1", llm.Message{Role: llm.RoleTool, Content: strings.Repeat("a", MaxLineBytes)})
	err := s.Append(m.ID, MessageRecord("r1", assistant("ok")), big)
	if !errors.Is(err, ErrLineTooLong) || !strings.Contains(err.Error(), "32.0 MB") || !strings.Contains(err.Error(), "record 1") {
		t.Fatalf("append: %v", err)
	}
	if got := fileSize(t, s, m.ID); got != before {
		t.Errorf("the file grew from %d to %d bytes", before, got)
	}
	if got := mustLoad(t, s, m.ID); len(got.Entries) != 1 || len(got.Warnings) != 0 {
		t.Errorf("after a refused append: %+v", got)
	}
}

// A pipe or /dev/zero in a session's place does not hang trimming or deleting it.
func TestTrimAndDeleteAnswerOnBadFiles(t *testing.T) {
	dir := t.TempDir()
	st := NewStore(dir, Options{})
	for name, p := range safefiletest.Make(t, t.TempDir(), MaxFileBytes) {
		if name == "folder" {
			continue
		}
		if err := os.Rename(p, dir+"/"+name+".jsonl"); err != nil {
			t.Fatal(err)
		}
		safefiletest.Answers(t, "trim "+name, func() {
			if _, err := st.KeepRecent(name, 1); err == nil {
				t.Errorf("%s: trimmed", name)
			}
		})
		safefiletest.Answers(t, "delete "+name, func() { _ = st.Delete(name, "") })
	}
	_ = time.Second
}
