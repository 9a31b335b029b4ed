package attach

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"hearth/backend/extract"
	"hearth/backend/internal/testdocs"
)

func viewCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Msg.Code
	}
	var x *extract.Error
	if errors.As(err, &x) {
		return x.Why.Text.Code
	}
	return ""
}

func TestViewShowsTheCitedLine(t *testing.T) {
	s, _ := newStore(t)
	s.Add("c", []Source{{Name: "notes.md", Data: []byte("# Notes\n\nThe key is under the blue pot.\n")}})
	v, err := s.View("c", "notes.md", 3)
	if err != nil {
		t.Fatal(err)
	}
	if v.Total != 3 || v.First != 1 || v.Line != 3 || v.Lines[2] != "The key is under the blue pot." || v.Kind != "markdown" {
		t.Fatalf("got %+v", v)
	}
}

// The lines the view numbers are the lines passages are cited at, whatever the
// format: each passage's first line is the view's cited line.
func TestViewLinesAreThePassagesLines(t *testing.T) {
	s, _ := newStore(t)
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "Paragraph %d about the mill.\r\nIts second line.\n\n", i)
	}
	docx := testdocs.DocxTable([]string{"First paragraph.", "Second."}, [][]string{{"name", "qty"}, {"apples", "3"}})
	sections, order := map[string]string{}, []string{}
	var rows [][]string
	for i := range 80 {
		h := fmt.Sprintf("Heading %d", i)
		sections[h], order = fmt.Sprintf("A paragraph of section %d, with words enough to make passages.", i), append(order, h)
		rows = append(rows, []string{fmt.Sprintf("row %d", i), "a field\nover two lines", "and some more words"})
	}
	html := testdocs.HTML("Title", sections, order)
	s.Add("c", []Source{
		{Name: "mill.txt", Data: []byte(b.String())},
		{Name: "r.docx", Data: docx},
		{Name: "p.html", Data: html},
		{Name: "t.csv", Data: testdocs.CSV(rows)},
	})
	later := map[string]bool{}
	n := 0
	for _, p := range s.index("c").passages {
		v, err := s.View("c", p.File, p.Line)
		if err != nil {
			t.Fatalf("%s: %v", p.Where(), err)
		}
		first, _, _ := strings.Cut(p.Text, "\n")
		if got := strings.TrimSpace(v.Lines[v.Line-v.First]); got != strings.TrimSpace(first) {
			t.Fatalf("%s: the view's line is %q, the passage starts %q", p.Where(), got, first)
		}
		n++
		later[p.File] = later[p.File] || p.Line > 20
	}
	if n < 10 || !later["mill.txt"] || !later["p.html"] || !later["t.csv"] {
		t.Fatalf("%d passages; past line 20 in %v", n, later)
	}
}

func TestViewRefusesWhatIsNotTheChatsCopy(t *testing.T) {
	s, dir := newStore(t)
	s.Add("c", []Source{{Name: "notes.txt", Data: []byte("one\n")}})
	s.Add("other", []Source{{Name: "theirs.txt", Data: []byte("theirs\n")}})
	write(t, filepath.Join(dir, "c"), "stray.txt", "not attached")
	for _, f := range []string{"../other/theirs.txt", "theirs.txt", "stray.txt", ".notes.txt.passages.json", "", "/etc/passwd", "a/../notes.txt"} {
		if _, err := s.View("c", f, 1); viewCode(err) != "attach.view.notChat" {
			t.Errorf("View(%q): %v", f, err)
		}
	}
	if _, err := s.View("../c", "notes.txt", 1); err == nil {
		t.Error("a chat id leading out was read")
	}
}

// TestViewRefusesAttackers: the copy swapped for a link (to a secret outside,
// or a folder), a FIFO or a device in its place, the chat's folder swapped
// for a link: nothing is followed and nothing hangs.
func TestViewRefusesAttackers(t *testing.T) {
	s, dir := newStore(t)
	s.Add("c", []Source{{Name: "a.txt", Data: []byte("a\n")}, {Name: "b.txt", Data: []byte("b\n")}, {Name: "d.txt", Data: []byte("d\n")}})
	chat := filepath.Join(dir, "c")
	secret := write(t, t.TempDir(), "secret.txt", "the secret\n")
	swap := func(name string, plant func(p string) error) {
		p := filepath.Join(chat, name)
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := plant(p); err != nil {
			t.Fatal(err)
		}
	}
	swap("a.txt", func(p string) error { return os.Symlink(secret, p) })
	swap("b.txt", func(p string) error { return syscall.Mkfifo(p, 0o600) })
	swap("d.txt", func(p string) error { return os.Symlink("/dev/zero", p) })
	for f, want := range map[string]string{"a.txt": "attach.view.link", "b.txt": "attach.view.special", "d.txt": "attach.view.link"} {
		v, err := s.View("c", f, 1)
		if viewCode(err) != want {
			t.Errorf("View(%s): %v, want %s", f, err, want)
		}
		if strings.Contains(strings.Join(v.Lines, "\n"), "secret") {
			t.Fatalf("%s: the secret was read", f)
		}
	}
	// The chat's folder itself swapped for a link to a folder holding a.txt.
	elsewhere := t.TempDir()
	write(t, elsewhere, "a.txt", "the secret\n")
	if err := os.Rename(chat, chat+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, chat); err != nil {
		t.Fatal(err)
	}
	// (Its passages are not read through the link either, so the file is not the chat's.)
	if v, err := s.View("c", "a.txt", 1); err == nil || viewCode(err) == "" || len(v.Lines) > 0 {
		t.Fatalf("a linked chat folder: %+v %v", v, err)
	}
}

func TestViewOfAGoneCopyOrAPDF(t *testing.T) {
	s, dir := newStore(t)
	s.Add("c", []Source{{Name: "a.txt", Data: []byte("a\n")}})
	if err := os.Remove(filepath.Join(dir, "c", "a.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.View("c", "a.txt", 1); viewCode(err) != "attach.view.gone" {
		t.Fatalf("gone: %v", err)
	}
	// A copy grown past the limit after it was attached is refused, not read whole.
	small := New(Options{Dir: func() string { return dir }, Limits: extract.Limits{MaxBytes: 64}})
	small.Add("d", []Source{{Name: "b.txt", Data: []byte("b\n")}})
	write(t, filepath.Join(dir, "d"), "b.txt", strings.Repeat("x", 1000))
	if _, err := small.View("d", "b.txt", 1); viewCode(err) != "attach.view.unreadable" {
		t.Fatalf("grown: %v", err)
	}
}

// A huge attachment comes as a window around the line, and a huge line cut.
func TestViewOfAHugeCopy(t *testing.T) {
	s, _ := newStore(t)
	var b strings.Builder
	for i := 1; i <= 30000; i++ {
		fmt.Fprintf(&b, "row %d\n", i)
	}
	b.WriteString(strings.Repeat("z", 3<<20) + "\n")
	s.Add("c", []Source{{Name: "big.log", Data: []byte(b.String())}})
	v, err := s.View("c", "big.log", 20000)
	if err != nil {
		t.Fatal(err)
	}
	if v.Total != 30001 || len(v.Lines) != extract.ViewLines || v.Lines[v.Line-v.First] != "row 20000" {
		t.Fatalf("total %d, %d lines from %d", v.Total, len(v.Lines), v.First)
	}
	v, _ = s.View("c", "big.log", 30001)
	if l := v.Lines[v.Line-v.First]; len(l) > extract.MaxViewLine+len(extract.CutMark) || v.Cut != 1 {
		t.Fatalf("the huge line is %d bytes", len(l))
	}
}

// FuzzView: whatever name and line a citation holds, only the chat's own copy
// is read, and its cited line is in the view.
func FuzzView(f *testing.F) {
	for _, c := range []string{"notes.txt", "../x/notes.txt", ".notes.txt.passages.json", "notes.txt/..", "/etc/passwd", "notes.txt\x00"} {
		f.Add(c, 2)
	}
	s, _ := newStore(f)
	s.Add("c", []Source{{Name: "notes.txt", Data: []byte("one\ntwo\n")}})
	f.Fuzz(func(t *testing.T, file string, line int) {
		v, err := s.View("c", file, line)
		if file != "notes.txt" {
			if err == nil {
				t.Fatalf("View(%q) read %+v", file, v)
			}
			return
		}
		if err != nil || v.Line < 1 || v.Lines[v.Line-v.First] == "" {
			t.Fatalf("View(%q, %d): %+v %v", file, line, v, err)
		}
	})
}
