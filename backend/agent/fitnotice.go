package agent

import (
	"slices"
	"strconv"
	"strings"

	"hearth/backend/agent/prompt"
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
	if m, ok := fitMessage(l.shed, l.limit); ok {
		l.em.say(event.LevelInfo, m)
	}
}

// fitMessage words what s left out of a window of limit tokens: each part a message of
// its own, so the window words the whole list in its language.
func fitMessage(s prompt.Shed, limit int) (i18n.Message, bool) {
	var parts []i18n.Message
	if s.Turns == 1 {
		parts = append(parts, i18n.M("notice.fit.turn"))
	} else if s.Turns > 1 {
		parts = append(parts, i18n.M("notice.fit.turns", "n", strconv.Itoa(s.Turns)))
	}
	if s.Recall {
		parts = append(parts, i18n.M("notice.fit.recall"))
	}
	if n := len(s.Tools); n > 0 {
		names := s.Tools
		if n > maxNamedTools {
			names = append(names[:maxNamedTools:maxNamedTools], "…")
		}
		if n == 1 {
			parts = append(parts, i18n.M("notice.fit.tool", "names", strings.Join(names, ", ")))
		} else {
			parts = append(parts, i18n.M("notice.fit.tools", "n", strconv.Itoa(n), "names", strings.Join(names, ", ")))
		}
	}
	if s.CurrentTurn {
		parts = append(parts, i18n.M("notice.fit.currentTurn"))
	}
	var too, advice []i18n.Message
	switch {
	case hasMCP(s.Tools):
		advice = append(advice, i18n.M("notice.fit.adviceMCP"))
	case len(s.Tools) > 0 || s.Turns > 0:
		advice = append(advice, i18n.M("notice.fit.adviceWindow"))
	}
	args := map[string]string{"limit": strconv.Itoa(limit)}
	switch {
	case len(parts) > 0:
		if len(s.Shortened) > 0 {
			too = append(too, i18n.M("notice.fit.shortenedToo"))
		}
		return i18n.Message{Code: "notice.fit.leftOut", Args: args,
			Lists: map[string][]i18n.Message{"parts": parts, "too": too, "advice": advice}}, true
	case len(s.Shortened) > 0:
		return i18n.Message{Code: "notice.fit.shortened", Args: args, Lists: map[string][]i18n.Message{"advice": advice}}, true
	}
	return i18n.Message{}, false
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
