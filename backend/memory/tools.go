package memory

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"hearth/backend/tools"
)

// Tools returns memory_search and remember (docs/design/memory.md#memory-tools).
func Tools(store *Store, index *Index) []tools.Tool {
	s, r := &searchTool{index: index}, &rememberTool{store: store}
	return []tools.Tool{
		tools.New(tools.Def[searchArgs]{Name: "memory_search", Short: "Search past chats and notes.", ReadOnly: true, Run: s.run,
			Description: "Search past history, daily notes, notes and archived chats. Returns dated snippets with scores."}),
		tools.New(tools.Def[rememberArgs]{Name: "remember", Short: "Save a fact to memory.", Run: r.run,
			Description: "Save a lasting fact to memory/MEMORY.md."}),
	}
}

type searchTool struct{ index *Index }

type searchArgs struct {
	Query string `json:"query"`
	K     int    `json:"k,omitempty" jsonschema:"results, default 5" min:"1" max:"20"`
}

func (t *searchTool) run(ctx context.Context, a searchArgs) (tools.Result, error) {
	q := strings.TrimSpace(a.Query)
	if q == "" {
		return tools.Errorf("query is empty (hint: give words or a question to search for)"), nil
	}
	res, err := t.index.Search(ctx, q, cmp.Or(a.K, DefaultK))
	if err != nil {
		return tools.Result{}, fmt.Errorf("memory_search: %w", err)
	}
	return tools.Text(FormatResults(res)), nil
}

// String renders the hits for the model and the CLI.
func (res Results) String() string { return FormatResults(res) }

// FormatResults renders hits for the model and the CLI.
func FormatResults(res Results) string {
	var b strings.Builder
	if res.Note != "" {
		b.WriteString("(" + res.Note + ")\n")
	}
	if len(res.Hits) == 0 {
		b.WriteString("No matches in memory.")
		return b.String()
	}
	for i, h := range res.Hits {
		fmt.Fprintf(&b, "%d. %s", i+1, h.Source)
		if h.Date != "" {
			fmt.Fprintf(&b, " [%s]", h.Date)
		}
		if strings.HasPrefix(h.Source, "sessions/") && h.Title != "" {
			fmt.Fprintf(&b, " %q", h.Title)
		}
		fmt.Fprintf(&b, " score %.2f %s\n%s\n", h.Score, h.Mode, indentLines(h.Snippet, "   "))
	}
	return strings.TrimRight(b.String(), "\n")
}

func indentLines(s, pad string) string {
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
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
