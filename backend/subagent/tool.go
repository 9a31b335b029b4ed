package subagent

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"hearth/backend/tools"
)

// Tool returns the spawn tool over m.
func (m *Manager) Tool() tools.Tool { return spawnTool{m} }

type spawnTool struct{ m *Manager }

func (spawnTool) Name() string             { return "spawn" }
func (spawnTool) ShortDescription() string { return "Run a task in the background." }
func (spawnTool) Description() string {
	return "Run a self-contained task in the background; the result is posted to this chat later."
}
func (spawnTool) Parameters() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Required: []string{"task"}, Properties: map[string]*jsonschema.Schema{
		"task":  {Type: "string", Description: "full instructions"},
		"label": {Type: "string", Description: "short name"},
	}}
}
func (spawnTool) ReadOnly() bool  { return false }
func (spawnTool) Exclusive() bool { return false }

func (t spawnTool) Execute(ctx context.Context, args tools.Args) (tools.Result, error) {
	call, ok := tools.CallFrom(ctx)
	if !ok || call.SessionID == "" {
		return tools.Result{}, errors.New("spawn: no chat session to report back to")
	}
	info, err := t.m.Spawn(call.SessionID, args.String("task"), args.String("label"))
	if errors.Is(err, ErrTooMany) {
		return tools.Errorf("%v", err), nil
	}
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Text(fmt.Sprintf("Started background task %q (%s). Its result will be posted to this chat when it is done; do not wait for it.",
		info.Label, info.ID)), nil
}
