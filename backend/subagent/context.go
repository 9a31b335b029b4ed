package subagent

import (
	"context"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/llm"
)

// Context is a subagent's own short context: SystemPrompt and the helper's
// history (its task and tool rounds), with old tool results compacted and
// the whole fitted to the model's window like the main agent's, so fifteen
// rounds of large results do not overflow a small local model.
type Context struct {
	// Workspace is read at every request: the workspace can move while Hearth runs.
	Workspace func() string
	Estimator *prompt.Estimator
}

var _ agent.ContextBuilder = (*Context)(nil)

// NewContext returns the builder for the workspace workspace returns.
func NewContext(workspace func() string) *Context {
	return &Context{Workspace: workspace, Estimator: prompt.NewEstimator()}
}

// Build implements agent.ContextBuilder.
func (c *Context) Build(_ context.Context, in agent.ContextInput) (agent.ContextOutput, error) {
	var out agent.ContextOutput
	system := SystemPrompt(c.Workspace())
	msgs := prompt.CompactToolResults(in.History, prompt.KeepToolResults)
	fit, err := c.Estimator.Counter(in.Model).Fit(prompt.Request{System: system, Tools: in.Tools, History: msgs,
		Window: in.ContextLimit, Reply: in.ReplyTokens})
	if err != nil {
		return out, agent.OverflowError(err, "the task does not fit the model's context window", in)
	}
	out.Messages = append([]llm.Message{{Role: llm.RoleSystem, Content: system}}, fit.Messages...)
	out.EstimatedTokens, out.Tokens, out.FirstKept = fit.RawTokens, fit.Tokens, fit.FirstKept
	out.Tools, out.ReplyTokens, out.Shed = fit.Tools, fit.Reply, fit.Shed
	return out, nil
}
