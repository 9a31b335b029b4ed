package subagent

import (
	"context"
	"errors"

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
	fit, err := c.Estimator.Counter(in.Model).Fit(system, in.Tools, msgs, in.ContextLimit, in.ReplyTokens)
	if err != nil {
		if errors.Is(err, prompt.ErrNoRoom) {
			return out, &llm.Error{Kind: llm.KindContextOverflow, Message: "the task does not fit the model's context window", Err: err,
				Hint: "give the helper a shorter task or raise agents.defaults.contextTokens"}
		}
		return out, err
	}
	out.Messages = append([]llm.Message{{Role: llm.RoleSystem, Content: system}}, fit.Messages...)
	out.EstimatedTokens, out.Tokens, out.FirstKept = fit.RawTokens, fit.Tokens, fit.FirstKept
	if fit.Omitted > 0 || fit.Truncated {
		out.Notices = append(out.Notices, "The helper's work is too long for the model's context window: older tool results were left out or shortened.")
	}
	return out, nil
}
