package prompt

import (
	"fmt"
	"unicode/utf8"

	"hearth/backend/llm"
)

// shrink cuts the current turn (all of f.Messages) down to f.Budget: first
// older tool results become placeholders (the newest stays, it is what the
// model is working on), then reasoning is left out, then the middle of the
// largest content is cut, again and again, down to minKeepTokens per message.
func (c Counter) shrink(f *Fit, tok, raw []int) error {
	msgs := f.Messages
	// Content estimates are kept so picking the largest content is one cheap
	// pass per cut, not a re-scan of every message.
	ctok := make([]int, len(msgs))
	for i := range msgs {
		ctok[i] = c.Text(msgs[i].Content)
	}
	update := func(i int) {
		ctok[i] = c.Text(msgs[i].Content)
		nr := EstimateMessage(msgs[i])
		nt := c.scale(nr)
		f.Tokens += nt - tok[i]
		f.RawTokens += nr - raw[i]
		tok[i], raw[i] = nt, nr
	}
	set := func(i int, content string) {
		msgs[i].Content = content
		update(i)
	}
	newest := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleTool {
			newest = i
			break
		}
	}
	var names map[string]string
	for i := 0; i < len(msgs) && f.Tokens > f.Budget; i++ {
		m := &msgs[i]
		if m.Role != llm.RoleTool || i == newest {
			continue
		}
		name := m.ToolName
		if name == "" {
			if names == nil {
				names = toolNames(msgs)
			}
			name = names[m.ToolCallID]
		}
		if p := ToolPlaceholder(name, utf8.RuneCountInString(m.Content)); len(p) < len(m.Content) {
			set(i, p)
			f.Omitted++
		}
	}
	// Then the reasoning of the turn, oldest first: the model's own notes
	// matter less than what the user and the tools said.
	for i := 0; i < len(msgs) && f.Tokens > f.Budget; i++ {
		if msgs[i].Reasoning != "" {
			msgs[i].Reasoning = ""
			update(i)
			f.Truncated = true
		}
	}
	// Each pass cuts the largest content by the whole excess (or to the
	// floor), always from its uncut text so the marker counts every cut
	// character. Rounding in the calibrated estimate can leave a token or two
	// over, so a message may be cut again; the loop ends because each pass
	// shrinks a message or marks it as done.
	done := make([]bool, len(msgs))
	orig := make([]string, len(msgs))
	cut := make([]bool, len(msgs))
	for f.Tokens > f.Budget {
		big, bigTok := -1, 0
		for i, t := range ctok {
			if !done[i] && t > bigTok {
				big, bigTok = i, t
			}
		}
		if big < 0 || bigTok <= minKeepTokens {
			return ErrNoRoom
		}
		if !cut[big] {
			orig[big], cut[big] = msgs[big].Content, true
		}
		target := max(bigTok-(f.Tokens-f.Budget), minKeepTokens)
		nc := truncateMiddle(orig[big], target, c)
		if c.Text(nc) >= bigTok {
			done[big] = true
			continue
		}
		set(big, nc)
		f.Truncated = true
	}
	return nil
}

// truncateMiddle cuts the middle of s so that it estimates at most maxTokens,
// keeping its head and tail (a question's start and the runtime context at
// its end; a file's start and the end of a log) and saying how much was cut.
func truncateMiddle(s string, maxTokens int, c Counter) string {
	build := func(keep int) string {
		h := keep / 2
		for h > 0 && !utf8.RuneStart(s[h]) {
			h--
		}
		t := len(s) - (keep - keep/2)
		for t < len(s) && !utf8.RuneStart(s[t]) {
			t++
		}
		t = max(t, h)
		cut := utf8.RuneCountInString(s[h:t])
		return s[:h] + fmt.Sprintf("\n[… %d chars cut from the middle to fit the context window …]\n", cut) + s[t:]
	}
	// Binary search for the most bytes kept that still fit.
	lo, hi := 0, len(s)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if c.Text(build(mid)) <= maxTokens {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return build(lo)
}
