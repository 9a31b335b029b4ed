package subagent

import (
	"context"
	"strings"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/llm"
)

// Fifteen rounds of big tool results still fit a small window: the helper's
// context is fitted like the main agent's, not sent as it grew.
func TestContextFitsTheWindow(t *testing.T) {
	c := NewContext(func() string { return "/ws" })
	hist := []llm.Message{{Role: llm.RoleUser, Content: "Summarize every file."}}
	for i := range 15 {
		id := string(rune('a' + i))
		hist = append(hist,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "read_file", Arguments: []byte(`{"path":"f"}`)}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: "read_file", Content: strings.Repeat("word ", 3000)})
	}
	out, err := c.Build(context.Background(), agent.ContextInput{Model: "m", History: hist, ContextLimit: 4096, ReplyTokens: 512})
	if err != nil {
		t.Fatal(err)
	}
	if out.Messages[0].Role != llm.RoleSystem || !strings.Contains(out.Messages[0].Content, "helper agent") {
		t.Errorf("system %+v", out.Messages[0])
	}
	total := 0
	for _, m := range out.Messages {
		total += prompt.EstimateMessage(m)
	}
	if out.Tokens > 4096-512 || total > 4096 {
		t.Errorf("request is %d tokens (estimate %d), over the window", out.Tokens, total)
	}
	if !out.Shed.CurrentTurn {
		t.Errorf("the cut turn is not reported: %+v", out.Shed)
	}
}
