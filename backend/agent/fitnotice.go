package agent

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"hearth/backend/event"
	"hearth/backend/i18n"
)

// maxNamedTools is how many left-out tools a notice names.
const maxNamedTools = 5

// fitNotice tells the user what the run left out to fit the model's context
// window: one notice at the end of the run for all its requests, so a run of
// many tool rounds says it once and completely (a later round may leave out
// more than the first). A lowered reply limit alone is not worth a notice;
// cutOffNotice explains it if an answer is ever cut off.
func (l *loop) fitNotice() {
	s := l.shed
	var out []string
	if s.Turns > 0 {
		out = append(out, plural(s.Turns, "older turn", "older turns")+" of this chat")
	}
	if s.Recall {
		out = append(out, "the recalled memory")
	}
	if n := len(s.Tools); n > 0 {
		names := s.Tools
		if n > maxNamedTools {
			names = append(names[:maxNamedTools:maxNamedTools], "…")
		}
		out = append(out, fmt.Sprintf("%s (%s)", plural(n, "tool", "tools"), strings.Join(names, ", ")))
	}
	if s.CurrentTurn {
		out = append(out, "parts of this turn's longer tool results")
	}
	var b strings.Builder
	switch {
	case len(out) > 0:
		fmt.Fprintf(&b, "Left out to fit the model's context window (%d tokens): %s.", l.limit, strings.Join(out, ", "))
		if len(s.Shortened) > 0 {
			b.WriteString(" Tool descriptions were shortened too.")
		}
	case len(s.Shortened) > 0:
		fmt.Fprintf(&b, "To fit the model's context window (%d tokens), tool descriptions were shortened.", l.limit)
	default:
		return
	}
	switch {
	case hasMCP(s.Tools):
		b.WriteString(" Fewer MCP servers, or a model with a larger window, would keep them.")
	case len(s.Tools) > 0 || s.Turns > 0:
		b.WriteString(" A model with a larger context window would keep them; /new starts a fresh chat.")
	}
	l.em.notice(event.LevelInfo, "%s", b.String())
}

// cutOffNotice explains an answer cut off at the reply limit, saying when
// the limit was lowered to fit the window (raising maxTokens cannot help
// then).
func (l *loop) cutOffNotice() {
	if l.reply < l.t.MaxTokens {
		l.em.say(event.LevelWarning, i18n.M("notice.cutOffLowered", "reply", strconv.Itoa(l.reply),
			"max", strconv.Itoa(l.t.MaxTokens), "limit", strconv.Itoa(l.limit)))
		return
	}
	l.em.say(event.LevelWarning, i18n.M("notice.cutOff", "max", strconv.Itoa(l.t.MaxTokens)))
}

func hasMCP(names []string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "mcp_") })
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
