package prompt

import (
	"cmp"
	"strconv"
	"unicode/utf8"

	"hearth/backend/llm"
)

// KeepToolResults is how many of the most recent tool results stay in full in
// the running context (docs/design/prompt-size.md#compaction).
const KeepToolResults = 10

// ToolPlaceholder is the one line that stands in for an omitted tool result.
// It names the tool and the size so the model knows what it no longer sees
// and that calling again brings it back.
func ToolPlaceholder(name string, chars int) string {
	name = cmp.Or(name, "a tool")
	return "[tool result of " + name + " omitted — " + strconv.Itoa(chars) + " chars; call again if needed]"
}

// CompactToolResults returns a copy of msgs in which every tool result older
// than the keep most recent ones is replaced by its placeholder. msgs is never
// modified: the session keeps every result as the model first saw it, and only
// the copy sent to the model is compacted. Results shorter than their
// placeholder are kept as they are.
func CompactToolResults(msgs []llm.Message, keep int) []llm.Message {
	out := make([]llm.Message, len(msgs))
	copy(out, msgs)
	keep = max(keep, 0)
	seen := 0
	var names map[string]string // call id → tool name, built only if needed
	for i := len(out) - 1; i >= 0; i-- {
		m := &out[i]
		if m.Role != llm.RoleTool {
			continue
		}
		seen++
		if seen <= keep {
			continue
		}
		name := m.ToolName
		if name == "" && m.ToolCallID != "" {
			if names == nil {
				names = toolNames(msgs)
			}
			name = names[m.ToolCallID]
		}
		if p := ToolPlaceholder(name, utf8.RuneCountInString(m.Content)); len(p) < len(m.Content) {
			m.Content = p
		}
	}
	return out
}

// toolNames maps the call ids of assistant tool calls to their tool names, for
// tool results stored without a name.
func toolNames(msgs []llm.Message) map[string]string {
	names := map[string]string{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			names[tc.ID] = tc.Name
		}
	}
	return names
}
