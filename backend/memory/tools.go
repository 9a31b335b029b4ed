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
	res, err := t.store.Remember(a.Text)
	if err != nil {
		return tools.Result{}, fmt.Errorf("remember: %w", err)
	}
	if res.Proposed {
		// "Review memory changes" is on: the fact waits for the user, and the model
		// must not tell them it is saved.
		return tools.Text("Not saved yet: the fact waits for the user's review (Review memory changes). " +
			"It reaches " + MemoryFile + " only if the user approves it; tell the user it is waiting for their review."), nil
	}
	return tools.Text("Saved to " + MemoryFile + "."), nil
}
