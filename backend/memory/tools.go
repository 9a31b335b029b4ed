package memory

import (
	"context"
	"fmt"
	"strings"

	"hearth/backend/recall"
	"hearth/backend/tools"
)

// Tools returns memory_search and remember.
func Tools(store *Store, index *recall.Index, opts recall.ToolOptions) []tools.Tool {
	r := &rememberTool{store: store}
	return []tools.Tool{
		recall.SearchTool(index, opts),
		tools.New(tools.Def[rememberArgs]{Name: "remember", Short: "Save a fact to memory.", Run: r.run,
			Description: "Save a lasting fact to memory/MEMORY.md."}),
	}
}

type rememberTool struct{ store *Store }

type rememberArgs struct {
	Text string `json:"text"`
}

func (t *rememberTool) run(_ context.Context, a rememberArgs) (tools.Result, error) {
	if strings.TrimSpace(a.Text) == "" {
		return tools.Errorf("text is empty (hint: give the fact to remember)"), nil
	}
	if _, err := t.store.Remember(a.Text); err != nil {
		return tools.Result{}, fmt.Errorf("remember: %w", err)
	}
	return tools.Text("Saved to " + MemoryFile + "."), nil
}
