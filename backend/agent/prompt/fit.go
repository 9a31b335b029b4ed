package prompt

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"hearth/backend/llm"
)

// ErrNoRoom says a request cannot fit the context window even with all
// history left out and the current turn cut down. Its wrapping error gives the
// figures and a hint.
var ErrNoRoom = errors.New("context window too small")

// minKeepTokens is the least a truncated message keeps of its content: below
// that a cut message says nothing useful and the request should fail instead.
const minKeepTokens = 48

// Fit is a request fitted to the context window.
type Fit struct {
	// Messages are the messages to send after the system prompt: a suffix of
	// the history starting at a turn boundary, without the reasoning of
	// earlier turns, possibly with the current turn's content shortened. They
	// are copies; the history is not modified.
	Messages []llm.Message
	// Dropped is how many of the oldest history messages were left out, and
	// FirstKept the history index of Messages[0] (they are equal because only
	// whole turns are dropped from the front). F-CONSOLIDATE consolidates
	// history[:FirstKept] into memory so they are not lost unseen.
	Dropped   int
	FirstKept int
	// Omitted counts tool results of the current turn replaced by their
	// placeholder, and Truncated is set when the current turn lost its
	// reasoning or had the middle of a message cut; both are worth a notice
	// to the user.
	Omitted   int
	Truncated bool
	// Tokens is the calibrated estimate of the whole request (system prompt,
	// tools and Messages); it is at most Budget.
	Tokens int
	// RawTokens is the same estimate before calibration: the figure to pass to
	// Estimator.Observe with the provider's reported prompt tokens.
	RawTokens int
	// Budget is contextTokens − replyTokens − the safety margin.
	Budget int
}

// sendable is a history message as Fit sends it. The reasoning of earlier
// turns is left out: reasoning models are trained without it (Qwen3's and
// DeepSeek-R1's templates drop it, their guides say not to send it back), and
// counting thousands of thinking tokens that a template then drops would cut
// history for nothing. Within the current turn it stays, because the model is
// still acting on it between tool calls.
func sendable(m llm.Message, earlierTurn bool) llm.Message {
	if earlierTurn {
		m.Reasoning = ""
	}
	return m
}

// safetyMargin is kept free below the budget because estimates are averages:
// a run of code or numbers tokenizes denser than prose.
func safetyMargin(avail int) int { return avail/25 + 16 }

// Fit chooses the messages to send so that the system prompt, the tools and
// the messages fit in contextTokens − replyTokens with a small margin. It
// drops the oldest whole turns first (a turn is a user message and everything
// up to the next one, so an assistant tool-call message always travels with
// its results) and never the current turn, the one starting at the last user
// message. If the current turn alone is too big, its older tool results are
// replaced by placeholders, its reasoning is left out, and then the middle of
// its largest contents is cut, saying so in the text. If even that cannot
// fit, Fit returns an error wrapping ErrNoRoom and no messages: it never
// returns a request that overflows by its own estimate. Its cost grows with
// what is sent, and only trivially (a scan of roles) with the length of the
// history.
func (c Counter) Fit(system string, tools []llm.ToolDef, history []llm.Message, contextTokens, replyTokens int) (Fit, error) {
	avail := contextTokens - replyTokens
	budget := avail - safetyMargin(avail)
	f := Fit{Budget: budget}
	sysRaw, toolsRaw := EstimateText(system), EstimateTools(tools)
	fixedRaw := requestOverhead + sysRaw + toolsRaw
	fixed := c.scale(requestOverhead) + c.scale(sysRaw) + c.scale(toolsRaw)
	if budget <= 0 || fixed > budget {
		return f, fmt.Errorf("fit request: system prompt and %d tools need ~%d tokens, budget is %d (context %d − reply %d − margin): %w (hint: raise contextTokens, lower maxTokens or offer fewer tools)",
			len(tools), fixed, budget, contextTokens, replyTokens, ErrNoRoom)
	}

	last := 0 // start of the current turn
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == llm.RoleUser {
			last = i
			break
		}
	}

	// Keep the longest suffix that starts at a turn boundary and fits: the
	// same as dropping the oldest turns one by one, in one backward pass.
	// Messages older than the first one that does not fit are never even
	// estimated, so the cost follows what is sent, not the session's length.
	raw := make([]int, len(history))
	tok := make([]int, len(history))
	start, sum := len(history), 0
	for i := len(history) - 1; i >= 0; i-- {
		raw[i] = EstimateMessage(sendable(history[i], i < last))
		tok[i] = c.scale(raw[i])
		sum += tok[i]
		if i > last {
			continue // inside the current turn: not a place to cut
		}
		if i < last && fixed+sum > budget {
			break
		}
		// A history that starts inside a turn (a window cut by the session)
		// may start with tool results whose call is gone; providers reject
		// those, so such a fragment is never a place to start.
		if i == last || history[i].Role == llm.RoleUser || (i == 0 && history[0].Role != llm.RoleTool) {
			start = i
		}
	}

	// Only a history without any user message can still start with orphan
	// tool results here (they are its current turn): they cannot be sent.
	for start < len(history) && history[start].Role == llm.RoleTool {
		start++
	}

	msgs := make([]llm.Message, len(history)-start)
	for i := range msgs {
		msgs[i] = sendable(history[start+i], start+i < last)
	}
	f.Messages, f.Dropped, f.FirstKept = msgs, start, start
	f.Tokens, f.RawTokens = fixed, fixedRaw
	for i := start; i < len(history); i++ {
		f.Tokens += tok[i]
		f.RawTokens += raw[i]
	}
	if f.Tokens <= budget {
		return f, nil
	}
	if err := c.shrink(&f, tok[start:], raw[start:]); err != nil {
		f.Messages = nil // half-cut messages must not be sent by mistake
		return f, fmt.Errorf("fit request (context %d − reply %d): %w", contextTokens, replyTokens, err)
	}
	return f, nil
}

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
			return fmt.Errorf("the current message needs ~%d tokens, budget is %d: %w (hint: start a new chat, send a shorter message or raise contextTokens)",
				f.Tokens, f.Budget, ErrNoRoom)
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
		if t < h {
			t = h
		}
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
