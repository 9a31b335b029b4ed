package prompt

import "hearth/backend/llm"

// Reach is the index of the first history message that Fit with this
// counter could still send in a window of window tokens: the messages before
// it would not fit even at a lower bound of their estimate. A caller leaves
// them out before it copies and compacts the history, so a turn of a long
// chat costs what it sends rather than what the chat holds; Fit of
// history[Reach:] keeps what Fit of history keeps. The result is 0 or the
// index of a user message (a turn boundary), never after the last one.
func (c Counter) Reach(history []llm.Message, window int) int {
	last := -1
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == llm.RoleUser {
			last = i
			break
		}
	}
	if window <= 0 || last <= 0 {
		return 0
	}
	ratio := c.Ratio
	if ratio <= 0 {
		ratio = 1
	}
	// Calibrated tokens are at least raw × ratio; past this many raw
	// tokens, nothing fits.
	limit := float64(window) / ratio
	sum := 0
	for i := len(history) - 1; i >= 0; i-- {
		sum += minTokens(history[i])
		if float64(sum) <= limit {
			continue
		}
		// history[i:] cannot fit, so Fit starts at a turn after i at the
		// earliest, and never after the current turn.
		for j := i + 1; j < last; j++ {
			if history[j].Role == llm.RoleUser {
				return j
			}
		}
		return last
	}
	return 0
}

// minTokens is a lower bound of EstimateMessage for m as Fit may send it:
// reasoning left out (earlier turns), a tool result compacted to its
// placeholder. EstimateText counts at least two quarter tokens for three
// bytes (a three-byte character outside the CJK blocks), so it is at least
// len/6.
func minTokens(m llm.Message) int {
	content := len(m.Content) / 6
	if m.Role == llm.RoleTool {
		content = min(content, 10) // a placeholder is longer than 40 bytes
	}
	n := messageOverhead + content + (len(m.ToolName)+len(m.ToolCallID))/6 + imageTokens*len(m.Images)
	for _, tc := range m.ToolCalls {
		n += toolCallOverhead + (len(tc.Name)+len(tc.Arguments))/6
	}
	return n
}
