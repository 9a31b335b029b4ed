package prompt_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"hearth/backend/agent/prompt"
	"hearth/backend/llm"
	"hearth/backend/workspace"
)

// The agent's side of one model call: system prompt, user message with its
// runtime context, compaction, fitting, and calibration from the reply.
func Example() {
	dir, err := os.MkdirTemp("", "hearth-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if _, err := workspace.Onboard(dir); err != nil {
		fmt.Println(err)
		return
	}
	b, err := prompt.New(prompt.Options{Workspace: dir, OS: "Linux", TimeZone: "UTC"})
	if err != nil {
		fmt.Println(err)
		return
	}
	system, err := b.SystemPrompt()
	if err != nil {
		fmt.Println(err)
		return
	}

	// An old turn with a big tool result, then the new question.
	history := []llm.Message{
		{Role: llm.RoleUser, Content: "What is in the log?"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: []byte(`{"path":"app.log"}`)}}},
		{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: strings.Repeat("GET /index.html 200\n", 2000)},
		{Role: llm.RoleAssistant, Content: "Only successful requests."},
	}
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	history = append(history, llm.Message{Role: llm.RoleUser,
		Content: prompt.AppendRuntimeContext("hello", now, time.UTC, prompt.ChannelDesktop)})

	est := prompt.NewEstimator()
	msgs := prompt.CompactToolResults(history, prompt.KeepToolResults)
	fit, err := est.Counter("qwen3:4b").Fit(prompt.Request{System: system, History: msgs, Window: 8192, Reply: 2048})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("send %d messages, %d left out, within budget: %v\n", len(fit.Messages), fit.Dropped, fit.Tokens <= fit.Budget)
	fmt.Println(fit.Messages[len(fit.Messages)-1].Content)

	// The provider counted more tokens than estimated: the next estimate grows.
	est.Observe("qwen3:4b", fit.RawTokens, fit.RawTokens*6/5)
	fmt.Printf("calibrated ratio %.2f\n", est.Ratio("qwen3:4b"))
	// Output:
	// send 1 messages, 4 left out, within budget: true
	// hello
	//
	// [Runtime Context]
	// Current time: 2026-11-22 09:00 (Sunday) UTC +00:00
	// Channel: desktop
	// calibrated ratio 1.10
}
