package recall

import (
	"context"
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
	if !slices.IsSorted(tsFrom[:]) || len(tsFrom) != len(tsTo) {
		t.Fatal("tsFrom must be ascending and as long as tsTo")
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
