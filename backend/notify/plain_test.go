package notify

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"Tea is ready":                      "Tea is ready",
		"## Summary\n\n**Tea** is _ready_.": "Summary\nTea is ready.",
		"See [the notes](http://x/y) `now`": "See the notes now",
		"- one\n- two\n- three":             "one\ntwo…",
		"```go\nfmt.Println(1)\n```":        "fmt.Println(1)",
		"> quoted\n\n| a | b |\n|---|---|":  "quoted\na b",
		"<b>bold</b> text":                  "bold text",
		"":                                  "",
	} {
		if got := Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("word ", 100)
	got := Plain(long)
	if utf8.RuneCountInString(got) > MaxBody+1 || !strings.HasSuffix(got, "…") || strings.Contains(got, "wor…") {
		t.Errorf("long: %q", got)
	}
	zh := strings.Repeat("茶已经好了", 60)
	if got := Plain(zh); utf8.RuneCountInString(got) > MaxBody+1 || !utf8.ValidString(got) {
		t.Errorf("zh: %q", got)
	}
}

func FuzzPlain(f *testing.F) {
	for _, s := range []string{"**a**", "[x](y)", "```\ncode", "# h\n> q", "茶 *好*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Plain(s)
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 from %q", s)
		}
		if n := utf8.RuneCountInString(out); n > MaxBody+1 {
			t.Fatalf("%d runes from %q", n, s)
		}
		if strings.Count(out, "\n") > 1 {
			t.Fatalf("more than two lines from %q", s)
		}
	})
}
