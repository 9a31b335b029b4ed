package memory

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"hearth/backend/tools"
)

// Tools returns memory_search and remember (F-MEMTOOLS).
func Tools(store *Store, index *Index) []tools.Tool {
	return []tools.Tool{&searchTool{index: index}, &rememberTool{store: store}}
}

type searchTool struct{ index *Index }

func (t *searchTool) Name() string             { return "memory_search" }
func (t *searchTool) ShortDescription() string { return "Search past chats and notes." }
func (t *searchTool) Description() string {
	return "Search past history, daily notes, notes and archived chats. Returns dated snippets with scores."
}
func (t *searchTool) Parameters() *jsonschema.Schema {
	one, twenty := 1.0, 20.0
	return &jsonschema.Schema{Type: "object", Required: []string{"query"}, Properties: map[string]*jsonschema.Schema{
		"query": {Type: "string"},
		"k":     {Type: "integer", Description: "results, default 5", Minimum: &one, Maximum: &twenty},
	}}
}
func (t *searchTool) ReadOnly() bool  { return true }
func (t *searchTool) Exclusive() bool { return false }

func (t *searchTool) Execute(ctx context.Context, args tools.Args) (tools.Result, error) {
	q := strings.TrimSpace(args.String("query"))
	if q == "" {
		return tools.Errorf("query is empty (hint: give words or a question to search for)"), nil
	}
	res, err := t.index.Search(ctx, q, args.Int("k", DefaultK))
	if err != nil {
		return tools.Result{}, fmt.Errorf("memory_search: %w", err)
	}
	return tools.Text(FormatResults(res)), nil
}

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

func (t *rememberTool) Name() string             { return "remember" }
func (t *rememberTool) ShortDescription() string { return "Save a fact to memory." }
func (t *rememberTool) Description() string      { return "Save a lasting fact to memory/MEMORY.md." }
func (t *rememberTool) Parameters() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Required: []string{"text"}, Properties: map[string]*jsonschema.Schema{
		"text": {Type: "string"},
	}}
}
func (t *rememberTool) ReadOnly() bool  { return false }
func (t *rememberTool) Exclusive() bool { return false }

func (t *rememberTool) Execute(_ context.Context, args tools.Args) (tools.Result, error) {
	if strings.TrimSpace(args.String("text")) == "" {
		return tools.Errorf("text is empty (hint: give the fact to remember)"), nil
	}
	if _, err := t.store.Remember(args.String("text")); err != nil {
		return tools.Result{}, fmt.Errorf("remember: %w", err)
	}
	return tools.Text("Saved to " + MemoryFile + "."), nil
}
