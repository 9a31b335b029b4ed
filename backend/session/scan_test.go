package session

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/backend/llm"
)

const scanHead = `{"type":"meta","v":1,"id":"x","title":"Plans","created":"2026-11-22T04:00:01Z","updated":"2026-11-22T04:00:01Z","model":"","archived":false}
{"type":"message","at":"2026-11-22T04:00:02Z","runId":"r1","role":"user","content":"Hi"}
`

// ScanMessages agrees with a whole Parse whenever it says it can: the messages it
// reads from the appended lines are the ones Parse adds, at the offsets of their lines.
func FuzzScanMessages(f *testing.F) {
	f.Add([]byte(`{"type":"message","at":"2026-11-22T04:00:03Z","runId":"r1","role":"assistant","content":"Hello \"you\""}
{"type":"run","at":"2026-11-22T04:00:04Z","runId":"r1","status":"ok","final":"Hello","usage":{},"durationMs":5}
{"type":"meta_update","at":"2026-11-22T04:00:05Z","lastConsolidated":1}
`))
	f.Add([]byte(`{"type":"meta_update","at":"2026-11-22T04:00:05Z","title":"New"}` + "\n"))
	f.Add([]byte(`{"type":"rewind","at":"2026-11-22T04:00:05Z","to":0}` + "\n"))
	f.Add([]byte("{\"type\":\"message\",\"role\":\"user\",\"content\":\"a\"}\n{\"type\":\"mess"))
	f.Add([]byte("\n\n{\"type\":\"message\",\"role\":\"\",\"content\":\"a\"}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs, offs, ok := ScanMessages(data, 0)
		if !ok {
			return
		}
		whole := Parse("x", append([]byte(scanHead), data...), time.Unix(0, 0))
		got := whole.Messages()[1:]
		if len(got) != len(msgs) || len(offs) != len(msgs) {
			t.Fatalf("scan read %d messages (%d offsets), Parse %d", len(msgs), len(offs), len(got))
		}
		for i := range msgs {
			if msgs[i].Role != got[i].Role || msgs[i].Content != got[i].Content {
				t.Fatalf("message %d: scan %+v, Parse %+v", i, msgs[i], got[i])
			}
			if offs[i] < 0 || offs[i] >= len(data) || lineKind(lineAt(data, offs[i])) != kindMessage {
				t.Fatalf("offset %d of message %d is not its line", offs[i], i)
			}
		}
		if whole.Meta.Title != "Plans" || len(whole.Branches) > 0 {
			t.Fatalf("lines scan accepted changed the chat: %+v", whole.Meta)
		}
	})
}

func lineAt(data []byte, off int) []byte {
	line, _, _ := strings.Cut(string(data[off:]), "\n")
	return []byte(line)
}

// MessageLines finds the line of every entry of a file written by the store.
func TestMessageLinesAreTheEntries(t *testing.T) {
	st := NewStore(t.TempDir(), Options{})
	if _, err := st.Create(CreateOptions{ID: "c", Title: "t"}); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := st.Append("c", MessageRecord("r", llm.Message{Role: llm.RoleUser, Content: strings.Repeat("x", i)}),
			MessageRecord("r", llm.Message{Role: llm.RoleAssistant, Content: "ok"}), RunRecord(Run{ID: "r", Status: StatusOK})); err != nil {
			t.Fatal(err)
		}
	}
	data, mod, err := st.ReadFile("c")
	if err != nil {
		t.Fatal(err)
	}
	s := Parse("c", data, mod)
	offs := MessageLines(data)
	if len(offs) != len(s.Entries) || len(s.Warnings) > 0 {
		t.Fatalf("%d lines for %d entries (%v)", len(offs), len(s.Entries), s.Warnings)
	}
	for i, off := range offs {
		msgs, _, ok := ScanMessages(data[off:], 0)
		if !ok || !slices.EqualFunc(msgs, s.Messages()[i:], func(a, b llm.Message) bool { return a.Content == b.Content }) {
			t.Fatalf("from line of entry %d: %v %+v", i, ok, msgs)
		}
	}
}

// ReadFile refuses what Load refuses: a FIFO planted as a chat, a symlink out.
func TestReadFileRefusesFIFOAndSymlink(t *testing.T) {
	dir := t.TempDir()
	st := NewStore(dir, Options{})
	p, _ := st.Path("fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, _, err := st.ReadFile("fifo"); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO was read")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadFile hangs on a FIFO")
	}
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte(scanHead), 0o600); err != nil {
		t.Fatal(err)
	}
	link, _ := st.Path("link")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.ReadFile("link"); err == nil {
		if _, lerr := st.Load("link"); lerr != nil {
			t.Errorf("ReadFile followed a symlink Load refuses: %v", lerr)
		}
	}
}

// readWhole refuses a file past MaxReadFileBytes by its size, and one that grew
// past it after the stat by what it read.
func TestReadWholeBounded(t *testing.T) {
	if _, err := readWhole(strings.NewReader("x"), MaxReadFileBytes+1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("by size: %v", err)
	}
	grown := io.MultiReader(strings.NewReader("x"), io.LimitReader(zeros{}, MaxReadFileBytes))
	if _, err := readWhole(grown, 1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("grown: %v", err)
	}
	if b, err := readWhole(strings.NewReader("a line\n"), 7); err != nil || string(b) != "a line\n" {
		t.Errorf("small: %q %v", b, err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
