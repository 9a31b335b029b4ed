package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/longbridgeapp/opencc"
)

// The committed table is OpenCC's t2s, character by character, over every
// Han character Go knows (regenerate with scripts/tsfold when this fails
// after an upgrade of either).
func TestTSFoldMatchesOpenCC(t *testing.T) {
	tab, err := decodeTSFold(tsfoldFile)
	if err != nil || len(tab.from) < 4000 || !slices.IsSorted(tab.from) || len(tab.from) != len(tab.to) {
		t.Fatalf("the embedded table: %v", err)
	}
	cc, err := opencc.New("t2s")
	if err != nil {
		t.Fatal(err)
	}
	check := func(r rune) {
		s, err := cc.Convert(string(r))
		if err != nil {
			t.Fatal(err)
		}
		want := r
		if rs := []rune(s); len(rs) == 1 {
			want = rs[0]
		}
		if got := foldTS(r); got != want {
			t.Errorf("foldTS(%q) = %q, OpenCC says %q", r, got, s)
		}
	}
	for _, rt := range unicode.Han.R16 {
		for r := rune(rt.Lo); r <= rune(rt.Hi); r += rune(rt.Stride) {
			check(r)
		}
	}
	for _, rt := range unicode.Han.R32 {
		for r := rune(rt.Lo); r <= rune(rt.Hi); r += rune(rt.Stride) {
			check(r)
		}
	}
	for _, r := range "aé会ミ회\uFFFD" {
		check(r)
	}
}

// The embedded table decodes to the pairs it was written from: written again
// as scripts/tsfold writes it, it is the same file, and the pairs recall's
// tests rely on are there.
func TestTSFoldRoundTrips(t *testing.T) {
	tab, err := decodeTSFold(tsfoldFile)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range tab.from {
		fmt.Fprintf(&b, "%c%c\n", tab.from[i], tab.to[i])
	}
	if b.String() != tsfoldFile {
		t.Error("the decoded table does not write back to tsfold.txt")
	}
	for _, p := range []string{"會会", "議议", "週周", "圖图", "書书", "們们", "討讨", "論论", "預预", "開开"} {
		rs := []rune(p)
		if got := foldTS(rs[0]); got != rs[1] {
			t.Errorf("foldTS(%q) = %q, want %q", rs[0], got, rs[1])
		}
	}
}

// A damaged table is refused with the line it broke on, and folds nothing.
func TestTSFoldRefusesDamage(t *testing.T) {
	for _, file := range []string{"會\n", "會会议\n", "会会\n", "議议\n會会\n", "會会\n會会\n", "\xff会\n", "\n", "會会\n\n"} {
		if _, err := decodeTSFold(file); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("%q: %v", file, err)
		}
	}
	if tab, err := decodeTSFold("會会"); err != nil || len(tab.from) != 1 {
		t.Errorf("a last line without its newline: %v %v", tab, err)
	}
}

// FuzzDecodeTSFold gives the decoder arbitrary text: it refuses it or returns
// a table foldTS can bisect (ascending, the two sides as long).
func FuzzDecodeTSFold(f *testing.F) {
	f.Add(tsfoldFile[:600])
	f.Add("會会\n議议\n")
	f.Add("\xff\n")
	f.Fuzz(func(t *testing.T, file string) {
		tab, err := decodeTSFold(file)
		if err != nil {
			return
		}
		if len(tab.from) != len(tab.to) || !slices.IsSorted(tab.from) {
			t.Fatalf("%q: a table out of order", file)
		}
		for i, r := range tab.from {
			if j, ok := slices.BinarySearch(tab.from, r); !ok || j != i || tab.to[i] == r {
				t.Fatalf("%q: pair %d", file, i)
			}
		}
	})
}

func TestTokenizeFoldsTraditional(t *testing.T) {
	if got, want := tokenize("會議改到週二"), tokenize("会议改到周二"); !slices.Equal(got, want) {
		t.Errorf("Traditional %q, Simplified %q", got, want)
	}
}

// A question in one script finds a note written in the other, in the
// index as the agent searches it.
func TestChineseScriptsFindEachOther(t *testing.T) {
	for _, c := range []struct{ note, question, other string }{
		{"我們下週二在圖書館開會，討論預算。", "图书馆开会是哪天", "周末去公园散步，天气很好。"},
		{"我们下周二在图书馆开会，讨论预算。", "圖書館開會是哪天", "週末去公園散步，天氣很好。"},
	} {
		ws, dir := t.TempDir(), t.TempDir()
		writeFile(t, ws, HistoryFile, history(c.other, c.note))
		x := NewIndex(IndexOptions{Workspace: ws, Dir: dir})
		r, err := x.Search(context.Background(), c.question, 1)
		x.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Hits) != 1 || !strings.Contains(r.Hits[0].Snippet, c.note) {
			t.Errorf("%q: want the note %q, got %+v", c.question, c.note, r.Hits)
		}
	}
}
