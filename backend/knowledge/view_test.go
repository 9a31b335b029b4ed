package knowledge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"hearth/backend/config"
	"hearth/backend/internal/testdocs"
)

func TestViewShowsTheCitedLine(t *testing.T) {
	root := filepath.Join(t.TempDir(), "Manuals")
	write(t, root, "kilns/kiln.md", "# Kiln\n\nFire at 1240 degrees.\n")
	s, opened := openRig(t, root)
	v, err := s.View("Manuals/kilns/kiln.md line 3")
	if err != nil {
		t.Fatal(err)
	}
	if v.Line != 3 || v.Total != 3 || v.Lines[2] != "Fire at 1240 degrees." || v.Name != "kiln.md" {
		t.Fatalf("got %+v", v)
	}
	// No line: the file from its start; a line past the end: its last line.
	if v, _ := s.View("Manuals/kilns/kiln.md"); v.Line != 1 {
		t.Fatalf("no line: %+v", v)
	}
	if v, _ := s.View("Manuals/kilns/kiln.md line 99999999999999999999999"); v.Line != 3 {
		t.Fatalf("past the end: %+v", v)
	}
	if len(*opened) != 0 {
		t.Fatalf("the system's viewer was asked: %q", *opened)
	}
}

func TestViewTriesEachFolderOfTheName(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "Notes"), filepath.Join(t.TempDir(), "Notes")
	write(t, a, "one.md", "one")
	write(t, b, "two.md", "two")
	s, _ := openRig(t, a, b)
	if v, err := s.View("Notes/two.md line 1"); err != nil || v.Lines[0] != "two" {
		t.Fatalf("%+v %v", v, err)
	}
}

func TestViewOfAPDFAndAHugeFile(t *testing.T) {
	root := filepath.Join(t.TempDir(), "Docs")
	var b strings.Builder
	for i := 1; i <= 40000; i++ {
		fmt.Fprintf(&b, "entry %d\n", i)
	}
	write(t, root, "big.log", b.String()+strings.Repeat("w", 2<<20)+"\n")
	write(t, root, "paged.pdf", "%PDF-1.4 not really")
	s, _ := openRig(t, root)
	v, err := s.View("Docs/big.log line 39000")
	if err != nil {
		t.Fatal(err)
	}
	if v.Total != 40001 || len(v.Lines) > 2000 || v.Lines[v.Line-v.First] != "entry 39000" {
		t.Fatalf("total %d, %d lines", v.Total, len(v.Lines))
	}
	if v, _ := s.View("Docs/big.log line 40001"); v.Cut != 1 {
		t.Fatalf("the huge line was not cut: %d", v.Cut)
	}
	if _, err := s.View("Docs/paged.pdf p. 2"); err == nil {
		t.Fatal("a PDF was shown as lines")
	}
}

// TestViewRefusesAttackers: what Open refuses, View refuses with the same
// codes; besides, nothing over the size bound or with other hard links is read.
func TestViewRefusesAttackers(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "Notes")
	write(t, root, "ok.md", "fine")
	secret := write(t, tmp, "secret.md", "outside the folder")
	if err := os.Symlink(secret, filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(tmp, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(secret, filepath.Join(root, "hard.md")); err != nil {
		t.Fatal(err)
	}
	write(t, root, "big.md", strings.Repeat("x\n", 600))
	set := &fakeSettings{cfg: config.Default()}
	set.cfg.Knowledge.Folders = []config.KnowledgeFolder{{Path: root, Mode: config.KnowledgeAlways}}
	s := New(Options{Settings: set, MaxBytes: 1000})
	for c, want := range map[string]string{
		"Notes/../secret.md line 1":  "knowledge.openBad",
		"Notes/sub/../../secret.md":  "knowledge.openBad",
		secret:                       "knowledge.openBad",
		"Notes/.hidden line 1":       "knowledge.openBad",
		"Notes/link.md line 1":       "knowledge.openLink",
		"Notes/out/secret.md line 1": "knowledge.openLink",
		"Notes/pipe.md line 1":       "knowledge.openSpecial",
		"Notes/hard.md line 1":       "knowledge.openHardLink",
		"Notes/big.md line 1":        "knowledge.openTooBig",
		"Notes/gone.md line 1":       "knowledge.openMissing",
		"Other/ok.md line 1":         "knowledge.openNoFolder",
	} {
		v, err := s.View(c)
		if got := code(err); got != want {
			t.Errorf("View(%q): %v, want %s", c, err, want)
		}
		if len(v.Lines) > 0 {
			t.Errorf("View(%q) read %q", c, v.Lines)
		}
	}
}

// FuzzView: whatever the citation, only a file inside the listed folder is
// read.
func FuzzView(f *testing.F) {
	for _, c := range []string{"Notes/ok.md line 1", "Notes/../x line 2", "/etc/passwd", "Notes/ok.md p. 2", "Notes//ok.md line 0", "Notes/ok.md line 99999999999999999999"} {
		f.Add(c)
	}
	tmp := f.TempDir()
	root := filepath.Join(tmp, "Notes")
	if err := os.MkdirAll(root, 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "ok.md"), []byte("fine\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "secret.md"), []byte("secret\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, c string) {
		s, _ := openRig(t, root)
		v, err := s.View(c)
		if err == nil && (len(v.Lines) != 1 || v.Lines[0] != "fine") {
			t.Fatalf("View(%q) read %q", c, v.Lines)
		}
	})
}

// The view numbers lines as the index numbered its passages, whatever the
// format: the line a hit cites is the first line of the passage it found.
func TestViewLineIsTheCitedPassagesFirstLine(t *testing.T) {
	r := newRig(t, Options{})
	dir := filepath.Join(t.TempDir(), "Shelf")
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "Filler paragraph %d about nothing.\r\nIts second line.\r\n\r\n", i)
	}
	b.WriteString("The walrus sleeps on the quay.\r\n")
	write(t, dir, "crlf.txt", b.String())
	write(t, dir, "report.docx", string(testdocs.DocxTable([]string{"Intro.", "The heron fishes at dawn."}, [][]string{{"name", "qty"}})))
	sections, order := map[string]string{}, []string{}
	for i := range 80 {
		h := fmt.Sprintf("Section %d", i)
		sections[h], order = fmt.Sprintf("Plain words of section %d, long enough to fill a passage of the index soon.", i), append(order, h)
	}
	sections["Birds"], order = "The kestrel hovers over the verge.", append(order, "Birds")
	write(t, dir, "page.html", string(testdocs.HTML("Page", sections, order)))
	var rows [][]string
	for i := range 150 {
		rows = append(rows, []string{fmt.Sprintf("row %d", i), "a field\nover two lines"})
	}
	write(t, dir, "table.csv", string(testdocs.CSV(append(rows, []string{"otter", "swims"}))))
	if _, err := r.svc.Add(context.Background(), dir, "always"); err != nil {
		t.Fatal(err)
	}
	for _, word := range []string{"walrus", "heron", "kestrel", "otter"} {
		h, ok := r.finds(word)
		if !ok {
			t.Fatalf("%s not found", word)
		}
		v, err := r.svc.View(h.Title)
		if err != nil {
			t.Fatalf("%s: %v", h.Title, err)
		}
		first, _, _ := strings.Cut(strings.TrimSpace(h.Snippet), "\n")
		if word == "kestrel" {
			// A page's text has no blank lines: its paragraph is one run, cut into
			// passages that all cite the line the run starts on.
			at := slices.IndexFunc(v.Lines, func(l string) bool { return strings.TrimSpace(l) == strings.TrimSpace(first) })
			if at < 0 || v.First+at < v.Line {
				t.Errorf("%s: the passage's first line %q is not at or below the cited line", h.Title, first)
			}
			continue
		}
		if v.Line < 20 && word != "heron" {
			t.Errorf("%s: a passage near the start proves little", h.Title)
		}
		if got := strings.TrimSpace(v.Lines[v.Line-v.First]); got != strings.TrimSpace(first) {
			t.Errorf("%s: the view's line is %q, the passage starts %q", h.Title, got, first)
		}
	}
}
