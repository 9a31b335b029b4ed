package subagent

import (
	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
)

// NewContext returns a helper's request builder: SystemPrompt for the workspace that
// workspace returns (read at every request: the workspace can move) and the helper's
// history (its task and tool rounds), compacted and fitted to the model's window like
// the main agent's, so fifteen rounds of large results do not overflow a small local
// model.
func NewContext(workspace func() string) *agent.PromptContext {
	return &agent.PromptContext{Estimator: prompt.NewEstimator(),
		System: func() (string, error) { return SystemPrompt(workspace()), nil }}
}
