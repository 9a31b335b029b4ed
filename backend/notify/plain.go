package notify

import (
	"regexp"
	"strings"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/clip"
)

// The buttons of a missed reminder that asks (Notification.Actions keys).
const (
	ActionRun  = "run"
	ActionSkip = "skip"
)

// MaxBody bounds a notification's body: a couple of lines, the rest is in the chat a
// click opens.
const MaxBody = 160

var (
	fence    = regexp.MustCompile("(?s)```[^\n]*\n?(.*?)(```|$)")
	image    = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	link     = regexp.MustCompile(`\[([^\]]+)\]\([^)]*\)`)
	emphasis = regexp.MustCompile(`(\*\*|__|\*|_|~~|` + "`" + `)([^*_~` + "`" + `\n]+?)(\*\*|__|\*|_|~~|` + "`" + `)`)
	lineMark = regexp.MustCompile(`(?m)^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+)`)
	rule     = regexp.MustCompile(`(?m)^\s*([-*_]\s*){3,}$|^\s*\|?[\s:|-]+\|[\s:|-]*$`)
	html     = regexp.MustCompile(`</?[a-zA-Z][^>]*>`)
)

// Plain turns a model's Markdown into the short plain text a notification shows:
// no headings, emphasis, links, code fences or tables, at most two lines and MaxBody
// characters (cut at a word, with "…"). Notification servers render little or no
// markup, and a page of raw Markdown is not what anyone wants on their screen.
func Plain(s string) string {
	s = fence.ReplaceAllString(s, "$1")
	s = image.ReplaceAllString(s, "$1")
	s = link.ReplaceAllString(s, "$1")
	s = html.ReplaceAllString(s, "")
	s = rule.ReplaceAllString(s, "")
	s = lineMark.ReplaceAllString(s, "")
	for range 3 { // nested emphasis: **_x_**
		s = emphasis.ReplaceAllString(s, "$2")
	}
	s = strings.ReplaceAll(s, "|", " ")
	var lines []string
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	out := strings.Join(lines[:min(len(lines), 2)], "\n")
	if short := clip.Words(out, MaxBody+1); short != out || len(lines) <= 2 {
		return short
	}
	return strings.TrimRight(out, " .,;:") + clip.Mark
}

// FromBackground is the notification of background news in locale l: Hearth's own
// words (a title or body with a catalog code) in the UI language, the person's words
// (a reminder's name and message) as written, the model's Markdown made plain and short.
func FromBackground(ev event.Background, l i18n.Locale) Notification {
	title, body := ev.Title, ev.Text
	if ev.TitleCode != "" {
		title = i18n.Message{Code: ev.TitleCode, Args: ev.Args}.In(l)
	}
	if ev.Code != "" && i18n.Has(ev.Code) {
		body = i18n.Message{Code: ev.Code, Args: ev.Args}.In(l)
	}
	n := Notification{Title: strings.Join(strings.Fields(title), " "), Body: Plain(body), SessionID: ev.SessionID,
		Quiet: ev.Kind == event.BackgroundReminderAnswer}
	if ev.Ask == event.AskMissed && ev.NoticeID != "" {
		n.Ref = ev.NoticeID
		n.Actions = []Action{{Key: ActionRun, Label: i18n.T(l, "notify.action.run")}, {Key: ActionSkip, Label: i18n.T(l, "notify.action.skip")}}
	}
	return n
}
