package agent

import (
	"context"

	"hearth/backend/agent/prompt"
	"hearth/backend/i18n"
	"hearth/backend/llm"
)

// ContextBuilder turns the conversation into the messages of one request:
// system prompt, runtime context, history fitted to the window and old tool
// results compacted (each part and why: docs/design/prompt-size.md). The
// implementation lives in backend/agent/prompt; the runner only needs this
// seam, so it can be tested and benchmarked with any builder.
type ContextBuilder interface {
	Build(ctx context.Context, in ContextInput) (ContextOutput, error)
}

// Estimator is the token estimator behind a builder, told what the provider counted:
// Observe after every call that reports its prompt tokens (the estimate calibrates
// itself), Overflowed when the provider refused a request the estimate said fits (it
// returns true when it raised the estimate, and the loop then rebuilds the request
// smaller). prompt.Estimator is the one the app uses.
type Estimator interface {
	Observe(model string, estimated, reported int) bool
	Overflowed(model string) bool
}

// ContextInput is everything a builder needs for one request.
type ContextInput struct {
	SessionID string
	// RunID names the run the request belongs to: a builder may keep what
	// it built for the run's first request (the system prompt) for the rest.
	RunID string
	// Model is the configured name ("ollama/qwen3:4b").
	Model string
	// History is the whole conversation, oldest first, ending with this run's
	// user message and the tool batches the run has completed so far.
	History []llm.Message
	// Tools are the definitions the request will offer (nil for the final
	// summary call), so the builder can count them against the budget.
	Tools []llm.ToolDef
	// ContextLimit is the window in tokens (num_ctx); ReplyTokens is reserved
	// for the reply (maxTokens).
	ContextLimit int
	ReplyTokens  int
	// ModelContext is the model's own maximum window when known (0 when
	// not): advice never suggests a window beyond it.
	ModelContext int
	// Channel says where the user is ("desktop", "cli", "cron", …).
	Channel string
}

// ContextOutput is one request's messages and what fitting them cost.
type ContextOutput struct {
	Messages []llm.Message
	// EstimatedTokens is the builder's estimate of the prompt (messages and
	// tools); the runner reports the provider's count back for calibration.
	EstimatedTokens int
	// Tokens is the calibrated estimate of the request (0 when unknown).
	Tokens int
	// LeftOutTurns counts the oldest turns left out to fit the window; the
	// runner tells the user with a notice. FirstKept is the history index of
	// the first message sent (Result.FirstKept: what memory may consolidate).
	LeftOutTurns int
	FirstKept    int
	// Notices are things the user should know about this request (a file
	// of the system prompt unreadable).
	Notices []i18n.Message
	// Notes are told as information, once per run (what was done with the
	// message's attachments: "report.pdf: 412 passages, searched").
	Notes []i18n.Message
	// Tools are the tool definitions to send when the builder fitted them
	// to the window (fewer, or in their short form); nil means
	// ContextInput.Tools as they are.
	Tools []llm.ToolDef
	// ReplyTokens is the reply limit to ask for when the builder lowered it
	// to fit the window; 0 means ContextInput.ReplyTokens.
	ReplyTokens int
	// Shed says what was left out or shortened to fit the window; the
	// runner tells the user once per run.
	Shed prompt.Shed
	// TurnRoom is the tokens this turn's tool results can still take
	// (prompt.Fit.TurnRoom); 0 when unknown. Tools read it from CallInfo.
	TurnRoom int
}

// PlainContext is the builder used when none is configured: an optional
// system prompt followed by the history as is. It fits nothing to the
// window: it is for tests and benchmarks of the loop itself; the app uses
// PromptContext.
type PlainContext struct {
	System string
}

// Build implements ContextBuilder.
func (p PlainContext) Build(_ context.Context, in ContextInput) (ContextOutput, error) {
	msgs := make([]llm.Message, 0, len(in.History)+1)
	if p.System != "" {
		msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: p.System})
	}
	msgs = append(msgs, in.History...)
	return ContextOutput{Messages: msgs, EstimatedTokens: estimateChars(msgs, in.Tools)}, nil
}

// estimateChars is the chars/4 rule of thumb, only for PlainContext's
// reports; real budgeting is the prompt package's estimator.
func estimateChars(msgs []llm.Message, defs []llm.ToolDef) int {
	n := 0
	for _, m := range msgs {
		n += len(m.Content) + len(m.Reasoning) + 16
		for _, tc := range m.ToolCalls {
			n += len(tc.Name) + len(tc.Arguments)
		}
	}
	for _, d := range defs {
		n += len(d.Name) + len(d.Description) + len(d.Parameters)
	}
	return n / 4
}
