package session

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAutoTitle(t *testing.T) {
	long := "Please help me plan a three week trip through Japan in the spring with a small budget"
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", ""},
		{"blank", " \n\t ", ""},
		{"short", "Hello", "Hello"},
		{"trimmed", "  Hello there  ", "Hello there"},
		{"one line", "First line\nsecond  line\r\n\tthird", "First line second line third"},
		{"exactly 60", strings.Repeat("a", 60), strings.Repeat("a", 60)},
		{"word boundary", long, "Please help me plan a three week trip through Japan in the…"},
		{"trailing punctuation", "Summarise these, then compare them, and finally, write a short, report", "Summarise these, then compare them, and finally, write a…"},
		{"one long word", "https://example.com/" + strings.Repeat("x", 80), "https://example.com/" + strings.Repeat("x", 39) + "…"},
		{"late space only", strings.Repeat("b", 20) + " " + strings.Repeat("c", 60), strings.Repeat("b", 20) + " " + strings.Repeat("c", 38) + "…"},
		{"chinese", strings.Repeat("你好世界", 20), strings.Repeat("你好世界", 14) + "你好世…"},
		{"space at limit", strings.Repeat("d", 59) + " tail words here", strings.Repeat("d", 59) + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AutoTitle(tc.in)
			if got != tc.want {
				t.Errorf("AutoTitle(%q)\n = %q\nwant %q", tc.in, got, tc.want)
			}
			if n := utf8.RuneCountInString(got); n > MaxTitle || strings.Contains(got, "\n") {
				t.Errorf("title %q has %d runes", got, n)
			}
		})
	}
}
