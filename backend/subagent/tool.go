package subagent

import (
	"context"
	"errors"
	"fmt"

	"hearth/backend/tools"
)

// Tool returns the spawn tool over m.
func (m *Manager) Tool() tools.Tool {
	return tools.New(tools.Def[spawnArgs]{Name: "spawn", Short: "Run a task in the background.", Run: spawnTool{m}.run,
		Description: "Run a self-contained task in the background; the result is posted to this chat later."})
}

type spawnTool struct{ m *Manager }

type spawnArgs struct {
	Task  string `json:"task" jsonschema:"full instructions"`
	Label string `json:"label,omitempty" jsonschema:"short name"`
}

func (t spawnTool) run(ctx context.Context, a spawnArgs) (tools.Result, error) {
	call, ok := tools.CallFrom(ctx)
	if !ok || call.SessionID == "" {
		return tools.Result{}, errors.New("spawn: no chat session to report back to")
	}
	info, err := t.m.Spawn(call.SessionID, a.Task, a.Label)
	if errors.Is(err, ErrTooMany) {
		return tools.Errorf("%v", err), nil
	}
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Text(fmt.Sprintf("Started background task %q (%s). Its result will be posted to this chat when it is done; do not wait for it.",
		info.Label, info.ID)), nil
}
