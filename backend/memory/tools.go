package memory

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"hearth/backend/tools"
)

// SearchTokens is memory_search's default budget for a context window of
// contextTokens: an eighth of it, from 500 to 4 000 tokens, so a small local
// model's window is not flooded and a big one gets enough evidence.
func SearchTokens(contextTokens int) int {
	if contextTokens <= 0 {
		return 2000
	}
	return min(max(contextTokens/8, 500), 4000)
}

// ToolOptions configure memory_search.
type ToolOptions struct {
	// Tokens is the default budget of a search's hits (SearchTokens).
	Tokens int
	// InWindow is the Recaller's: the calling chat's messages still in its
	// window are not returned to it.
	InWindow func(sessionID string) int
}

// Tools returns memory_search and remember.
func Tools(store *Store, index *Index, opts ToolOptions) []tools.Tool {
	s, r := &searchTool{index: index, opts: opts}, &rememberTool{store: store}
	return []tools.Tool{
		tools.New(tools.Def[searchArgs]{Name: "memory_search", Short: "Search past chats and notes.", ReadOnly: true, Run: s.run,
			Description: "Search memory, history, daily notes, notes and past chats. Returns dated, sourced passages, best first."}),
		tools.New(tools.Def[rememberArgs]{Name: "remember", Short: "Save a fact to memory.", Run: r.run,
			Description: "Save a lasting fact to memory/MEMORY.md."}),
	}
}

type searchTool struct {
	index *Index
	opts  ToolOptions
}

type searchArgs struct {
	Query string `json:"query"`
	K     int    `json:"k,omitempty" jsonschema:"most results; default: as many as fit the budget" min:"1" max:"40"`
}

func (t *searchTool) run(ctx context.Context, a searchArgs) (tools.Result, error) {
	q := strings.TrimSpace(a.Query)
	if q == "" {
		return tools.Errorf("query is empty (hint: give words or a question to search for)"), nil
	}
	sid, from := "", -1
	if call, ok := tools.CallFrom(ctx); ok {
		sid = call.SessionID
		if t.opts.InWindow != nil {
			from = t.opts.InWindow(sid)
		}
	}
	skip := InPrompt(sid, from)
	// MEMORY.md and USER.md are in the prompt, but the model asks for them by
	// name often enough: only the current chat's window is left out here.
	res, err := t.index.Find(ctx, Query{Text: q, K: a.K, Tokens: cmp.Or(t.opts.Tokens, SearchTokens(0)), Distinct: true,
		Skip: func(source string, pos int) bool {
			return source != MemoryFile && source != userProfile && skip(source, pos)
		}})
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
