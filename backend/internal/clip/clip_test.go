package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	for _, c := range []struct{ name, got, want string }{
		{"runes short", Runes("tea", 3), "tea"},
		{"runes cut", Runes("teapot", 4), "tea…"},
		{"runes CJK", Runes("你好世界朋友", 3), "你好…"},
		{"runes n<1", Runes("tea", 0), "tea"},
		{"prefix boundary", Prefix("a你b", 3), "a"},
		{"prefix exact", Prefix("a你b", 4), "a你"},
		{"prefix zero", Prefix("你", 0), ""},
		{"bytes cut", Bytes("héllo", 2), "h…"},
		{"bytes fits", Bytes("héllo", 6), "héllo"},
		{"line first", Line("  one\ntwo", 10), "one"},
		{"line only", Line("one line\n", 20), "one line"},
		{"line long", Line("你好世界朋友\nmore", 4), "你好世…"},
		{"squash", Squash("a\n\n b\tc", 10), "a b c"},
		{"squash cut", Squash("alpha   beta gamma", 9), "alpha be…"},
		{"words fits", Words("tea for two", 11), "tea for two"},
		{"words at a word", Words("tea for two, please", 14), "tea for two…"},
		{"words mid-word", Words("a teapot", 6), "a tea…"},
		{"words CJK", Words("你好世界朋友", 4), "你好世…"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}

// FuzzClip: whatever the input, every cut is valid UTF-8 (when the input is) and within
// its limit.
func FuzzClip(f *testing.F) {
	for _, s := range []string{"", "tea", "你好世界", "a\nb", "e\u0301\u0301", strings.Repeat("ü", 50)} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if !utf8.ValidString(s) || n > 1000 || n < -5 {
			return
		}
		for name, out := range map[string]string{"Runes": Runes(s, n), "Bytes": Bytes(s, n), "Prefix": Prefix(s, n), "Line": Line(s, n), "Squash": Squash(s, n), "Words": Words(s, n)} {
			if !utf8.ValidString(out) {
				t.Fatalf("%s(%q, %d) = %q: invalid UTF-8", name, s, n, out)
			}
		}
		if n >= 1 {
			for name, out := range map[string]string{"Runes": Runes(s, n), "Line": Line(s, n), "Squash": Squash(s, n), "Words": Words(s, n)} {
				if utf8.RuneCountInString(out) > n {
					t.Fatalf("%s(%q, %d) = %q: longer than %d runes", name, s, n, out, n)
				}
			}
			if b := Bytes(s, n); len(b) > n+len(Mark) {
				t.Fatalf("Bytes(%q, %d) = %q: too long", s, n, b)
			}
		}
		if p := Prefix(s, n); len(p) > max(n, 0) || !strings.HasPrefix(s, p) {
			t.Fatalf("Prefix(%q, %d) = %q", s, n, p)
		}
	})
}
