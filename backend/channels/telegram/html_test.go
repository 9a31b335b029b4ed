package telegram

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"hearth/backend/internal/fakebot"
)

func TestToHTML(t *testing.T) {
	cases := map[string]string{
		"plain & <simple>":                 "plain &amp; &lt;simple&gt;",
		"**b** *i* ~~s~~ `c`":              "<b>b</b> <i>i</i> <s>s</s> <code>c</code>",
		"# Title\n\ntext":                  "<b>Title</b>\n\ntext",
		"- one\n- two\n  - deep":           "• one\n• two\n  • deep",
		"3. a\n4. b":                       "3. a\n4. b",
		"```go\nx := 1 < 2\n```":           `<pre><code class="language-go">x := 1 &lt; 2</code></pre>`,
		"```\nplain\n```":                  "<pre>plain</pre>",
		"```bad lang\"x\nk\n```":           `<pre><code class="language-bad">k</code></pre>`,
		"> quoted **bold**\n> > inner `c`": "<blockquote>quoted <b>bold</b>\n\ninner c</blockquote>",
		"[x](javascript:alert(1))":         "x",
		"[x](/relative)":                   "x",
		"[**x**](https://a.example)":       `<a href="https://a.example"><b>x</b></a>`,
		"**`code` in bold**":               "<b>code in bold</b>",
		"![cat](https://a.example/c.png)":  `<a href="https://a.example/c.png">cat</a>`,
		"[![cat](https://i.example/c.png)](https://a.example)": `<a href="https://a.example">cat</a>`,
		"<b onclick=x>raw</b>":                                 "&lt;b onclick=x&gt;raw&lt;/b&gt;",
		"<div>\nblock\n</div>":                                 "&lt;div&gt;\nblock\n&lt;/div&gt;",
		"| a | b |\n|---|---|\n| 1 | 2 |":                      "<pre>a | b\n1 | 2</pre>",
		"- [x] done\n- [ ] todo":                               "• ☑ done\n• ☐ todo",
		"line one\nline two":                                   "line one\nline two",
		"***":                                                  "———",
		"   ":                                                  "   ",
	}
	for in, want := range cases {
		if got := ToHTML(in); got != want {
			t.Errorf("%q:\n got %q\nwant %q", in, got, want)
		}
		if _, err := fakebot.ParseHTML(ToHTML(in)); err != nil {
			t.Errorf("%q: Telegram would refuse %q: %v", in, ToHTML(in), err)
		}
	}
}

var tagRE = regexp.MustCompile(`</?([a-zA-Z-]+)`)

// checkTelegramHTML fails unless s parses as Telegram's HTML and uses only
// the tags Hearth writes.
func checkTelegramHTML(t *testing.T, md, s string) {
	if _, err := fakebot.ParseHTML(s); err != nil {
		t.Fatalf("%q became %q, which Telegram refuses: %v", md, s, err)
	}
	for _, m := range tagRE.FindAllStringSubmatch(s, -1) {
		switch m[1] {
		case "b", "i", "s", "u", "code", "pre", "a", "blockquote":
		default:
			t.Fatalf("%q became %q with tag %q", md, s, m[1])
		}
	}
}

func FuzzToHTML(f *testing.F) {
	for _, s := range []string{"**b** _i_ `c`", "> a\n> > b\n```go\nx\n```", "[a](https://x.y) ![i](http://z)", "- a\n  - b\n1. c",
		"| a |\n|---|\n| `b` |", "<b>x</b> &amp; &#0; &", "**[`x`](https://q)**", "~~**x**~~", "*a **b** c*", "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		out := ToHTML(md)
		checkTelegramHTML(t, md, out)
		if utf8.ValidString(md) && !utf8.ValidString(out) {
			t.Fatalf("%q became invalid UTF-8", md)
		}
		if strings.TrimSpace(md) != "" && strings.TrimSpace(out) == "" {
			t.Fatalf("%q became empty", md)
		}
	})
}
