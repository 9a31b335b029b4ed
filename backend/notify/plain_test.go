package notify

import (
	"strings"
	"testing"
	"unicode/utf8"

	"hearth/backend/event"
	"hearth/backend/i18n"
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

// A reminder's notification keeps the person's words in any language; Hearth's own
// words follow the UI language; a helper's Markdown report becomes a plain summary.
func TestFromBackground(t *testing.T) {
	rem := event.Background{Kind: event.BackgroundReminder, Title: "Tea", Text: "Make **green** tea", SessionID: "cron:1"}
	if n := FromBackground(rem, i18n.Chinese); n.Title != "Tea" || n.Body != "Make green tea" || n.SessionID != "cron:1" || n.Quiet {
		t.Errorf("reminder: %+v", n)
	}
	answer := event.Background{Kind: event.BackgroundReminderAnswer, Title: "Tea", Text: "Steep it 3 minutes", SessionID: "cron:1"}
	if n := FromBackground(answer, i18n.Chinese); n.Body != "Steep it 3 minutes" || !n.Quiet {
		t.Errorf("the reminder's answer is not a quiet follow-up: %+v", n)
	}
	late := event.Background{Kind: event.BackgroundReminder, Title: "Tea", Code: "notify.reminder.late",
		Args: map[string]string{"message": "Make tea", "due": "Mon 09:00"}}
	if n := FromBackground(late, i18n.Chinese); n.Body != "Make tea\n（原定 Mon 09:00）" {
		t.Errorf("late in zh-CN: %q", n.Body)
	}
	unnamed := event.Background{Title: "Reminder", TitleCode: "notify.reminder.title", Text: "call Anna"}
	if n := FromBackground(unnamed, i18n.Chinese); n.Title != "提醒" || n.Body != "call Anna" {
		t.Errorf("unnamed in zh-CN: %+v", n)
	}
	failed := event.Background{Title: "pills", Code: "notify.reminder.failed", Args: map[string]string{"message": "Take your pills", "error": "model down"},
		Text: "english"}
	if n := FromBackground(failed, i18n.Chinese); !strings.Contains(n.Body, "Take your pills") || !strings.Contains(n.Body, "无法运行") {
		t.Errorf("failed in zh-CN: %+v", n)
	}
	helper := event.Background{TitleCode: "notify.subagent.finished", Args: map[string]string{"label": "weather"},
		Text: "# Weather\n\n| day | sky |\n|---|---|\n| Mon | **sun** |"}
	if n := FromBackground(helper, i18n.English); n.Title != `Background task "weather" finished` || strings.ContainsAny(n.Body, "#*|") {
		t.Errorf("helper: %+v", n)
	}
}
