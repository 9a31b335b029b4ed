package extract

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"hearth/backend/internal/testdocs"
)

func textDoc(t *testing.T, name, text string) *Doc {
	t.Helper()
	d, err := Bytes(name, []byte(text), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestWindowSmallFileComesWhole(t *testing.T) {
	d := textDoc(t, "notes.txt", "one\r\ntwo\nthree\n")
	v, err := Window(d, 2)
	if err != nil {
		t.Fatal(err)
	}
	if v.First != 1 || v.Line != 2 || v.Total != 3 || strings.Join(v.Lines, "|") != "one|two|three" || v.Cut != 0 {
		t.Fatalf("got %+v", v)
	}
}

func TestWindowClampsTheLine(t *testing.T) {
	d := textDoc(t, "a.md", "# A\nb\n")
	for _, c := range []struct{ in, want int }{{0, 1}, {-3, 1}, {99, 2}} {
		if v, _ := Window(d, c.in); v.Line != c.want {
			t.Errorf("line %d: got %d", c.in, v.Line)
		}
	}
	empty := &Doc{Name: "e.txt", Kind: "text", Pages: []Page{{Line: 1}}}
	if v, err := Window(empty, 5); err != nil || v.Total != 0 || v.Line != 0 || v.Lines == nil {
		t.Fatalf("empty: %+v %v", v, err)
	}
}

// A huge file comes as a window around the cited line, with the total.
func TestWindowOfAHugeFileAroundTheLine(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 50000; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	d := textDoc(t, "big.log", b.String())
	v, err := Window(d, 30000)
	if err != nil {
		t.Fatal(err)
	}
	if v.Total != 50000 || len(v.Lines) != ViewLines || v.Line != 30000 {
		t.Fatalf("total %d, %d lines, line %d", v.Total, len(v.Lines), v.Line)
	}
	if got := v.Lines[v.Line-v.First]; got != "line 30000" {
		t.Fatalf("the cited line is %q", got)
	}
	if v.First > 30000-ViewLines/2+1 || v.First+len(v.Lines) < 30000+ViewLines/2-1 {
		t.Fatalf("the line is not near the middle: first %d", v.First)
	}
	// At the end, the window is the last lines.
	v, _ = Window(d, 50000)
	if v.First+len(v.Lines)-1 != 50000 || len(v.Lines) != ViewLines {
		t.Fatalf("end: first %d, %d lines", v.First, len(v.Lines))
	}
}

// A huge line is cut at a rune's start with a mark; lines of a megabyte each
// keep the View within its bytes.
func TestWindowCutsHugeLines(t *testing.T) {
	huge := strings.Repeat("é", 600000) // 1.2 MB, one line
	d := textDoc(t, "one.txt", "before\n"+huge+"\nafter\n")
	v, err := Window(d, 2)
	if err != nil {
		t.Fatal(err)
	}
	l := v.Lines[v.Line-v.First]
	if v.Cut != 1 || !strings.HasSuffix(l, CutMark) || len(l) > MaxViewLine+len(CutMark) || !utf8.ValidString(l) {
		t.Fatalf("cut %d, line of %d bytes, valid %v", v.Cut, len(l), utf8.ValidString(l))
	}
	if strings.Join([]string{v.Lines[0], v.Lines[2]}, "|") != "before|after" {
		t.Fatalf("neighbours: %q %q", v.Lines[0], v.Lines[2])
	}
	var b strings.Builder
	for range 1000 {
		b.WriteString(strings.Repeat("x", 20000) + "\n")
	}
	v, _ = Window(textDoc(t, "wide.txt", b.String()), 500)
	if viewBytes(v) > ViewBytes || v.Line < v.First || v.Line >= v.First+len(v.Lines) {
		t.Fatalf("%d bytes in %d lines from %d", viewBytes(v), len(v.Lines), v.First)
	}
}

func TestWindowCountsExtractedLines(t *testing.T) {
	data := testdocs.DocxTable([]string{"First paragraph.", "Second."}, [][]string{{"name", "qty"}, {"apples", "3"}})
	d, err := Bytes("report.docx", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := Window(d, 4)
	if v.Kind != "docx" || v.Lines[v.Line-v.First] != "apples | 3" {
		t.Fatalf("got %+v", v)
	}
	// A page that starts further down keeps its lines' numbers.
	paged := &Doc{Name: "x.csv", Kind: "csv", Pages: []Page{{Line: 1, Text: "a\n"}, {Line: 4, Text: "d\ne\n"}}}
	v, _ = Window(paged, 5)
	if v.Total != 5 || v.Lines[4] != "e" || v.Lines[1] != "" {
		t.Fatalf("got %+v", v)
	}
}

func TestWindowRefusesAPagedDocument(t *testing.T) {
	d := &Doc{Name: "r.pdf", Kind: "pdf", Pages: []Page{{N: 1, Text: "x"}}}
	_, err := Window(d, 1)
	var e *Error
	if !errors.Is(err, ErrPaged) || !errors.As(err, &e) || e.Why.Text.Code != "extract.paged" {
		t.Fatalf("got %v", err)
	}
}

func viewBytes(v View) int {
	n := 0
	for _, l := range v.Lines {
		n += len(l) + 1
	}
	return n
}

// FuzzWindow: for any text and line, the View holds the cited line, stays in
// its bounds and numbers lines as the text does.
func FuzzWindow(f *testing.F) {
	f.Add("a\nb\r\nc", 2)
	f.Add("", 0)
	f.Add("\n\n\n", 7)
	f.Add(strings.Repeat("ü", 5000)+"\nx", 1)
	f.Fuzz(func(t *testing.T, text string, line int) {
		d := &Doc{Name: "f.txt", Kind: "text", Pages: []Page{{Line: 1, Text: text}}}
		v, err := Window(d, line)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Lines) > ViewLines || viewBytes(v) > ViewBytes+MaxViewLine {
			t.Fatalf("%d lines, %d bytes", len(v.Lines), viewBytes(v))
		}
		if v.Total == 0 {
			return
		}
		if v.Line < v.First || v.Line >= v.First+len(v.Lines) || v.Line > v.Total {
			t.Fatalf("line %d outside %d+%d of %d", v.Line, v.First, len(v.Lines), v.Total)
		}
		want := strings.Split(strings.TrimSuffix(text, "\n"), "\n")[v.Line-1]
		got := v.Lines[v.Line-v.First]
		if got != strings.TrimSuffix(want, "\r") && !strings.HasSuffix(got, CutMark) {
			t.Fatalf("line %d: %q, want %q", v.Line, got, want)
		}
	})
}
