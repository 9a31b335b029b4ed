package recall

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

type searchTool struct {
	index *Index
	opts  ToolOptions
}

type searchArgs struct {
	Query string `json:"query" jsonschema:"words or a question to look for"`
	// Also are words the model adds: other words for what the query asks
	// (synonyms, the names a thing goes by, a word in the other language).
	Also []string `json:"also,omitempty" jsonschema:"other words the answer may use: synonyms, related names, the same words in another language (optional)"`
	K    int      `json:"k,omitempty" jsonschema:"most results; default: as many as fit" min:"1" max:"100"`
	Skip int      `json:"skip,omitempty" jsonschema:"leave out this many of the best results: the next page of an earlier search" min:"0"`
}

// resultMargin is kept below the spill limit for the result's own lines
// (the note, the "more" line).
const resultMargin = 400

// searchPerHit is the most of one chunk memory_search hands over: the
// lines around the query's words.
const searchPerHit = 600

// maxAlso bounds the words a call adds: a longer list only dilutes the query.
const maxAlso = 24

func (t *searchTool) run(ctx context.Context, a searchArgs) (tools.Result, error) {
	q := strings.TrimSpace(a.Query)
	if q == "" {
		return tools.Errorf("query is empty (hint: give words or a question to search for)"), nil
	}
	sid, from := "", -1
	tokens, limit := cmp.Or(t.opts.Tokens, SearchTokens(0)), tools.DefaultMaxResultChars
	if call, ok := tools.CallFrom(ctx); ok {
		sid = call.SessionID
		if t.opts.InWindow != nil {
			from = t.opts.InWindow(sid)
		}
		if call.RoomTokens > 0 {
			// Three quarters of what the window leaves this turn: the
			// model's next steps need the rest.
			tokens = call.RoomTokens * 3 / 4
		}
		limit = cmp.Or(call.MaxResultChars, limit)
	}
	// Never more than fits under the spill limit: a spilled result costs the
	// model the text it asked for.
	tokens = max(1, min(tokens, (limit-resultMargin)/bytesPerToken))
	skip := InPrompt(sid, from)
	// MEMORY.md and USER.md are in the prompt, but the model asks for them by
	// name often enough: only the current chat's window is left out here.
	query := Query{Text: withAlso(q, a.Also), K: a.K, Offset: max(0, a.Skip), Tokens: tokens, PerHit: searchPerHit, Distinct: true,
		Likings: likingsFor(tokens * bytesPerToken), Skip: func(source string, pos int) bool {
			return source != MemoryFile && source != userProfile && skip(source, pos)
		}, SkipSources: InPromptSources(sid, false)}
	res, err := t.index.Find(ctx, query)
	if err != nil {
		return tools.Result{}, fmt.Errorf("memory_search: %w", err)
	}
	return tools.Text(fitResults(res, limit-resultMargin/2, query.Offset)), nil
}

// withAlso is the query with the model's extra words, a bounded number.
func withAlso(q string, also []string) string {
	if len(also) > maxAlso {
		also = also[:maxAlso]
	}
	for _, w := range also {
		if w = strings.TrimSpace(w); w != "" {
			q += " " + clip(w, 80)
		}
	}
	return q
}

// fitResults renders res within limit bytes, leaving out whole passages
// from the end when the rendering is longer than the budget's estimate, and
// says how many more there are and how to get them.
func fitResults(res Results, limit, offset int) string {
	out := FormatResults(res)
	for len(out) > limit && len(res.Hits) > 0 {
		res.Hits = res.Hits[:len(res.Hits)-1]
		res.More++
		out = FormatResults(res)
	}
	if res.More > 0 && len(res.Hits) > 0 {
		out += fmt.Sprintf("\n(%d more passages: search again with narrower words, or with \"skip\": %d for the next ones)",
			res.More, offset+len(res.Hits))
	}
	return out
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
		fmt.Fprintf(&b, "%d. %s", i+1, hitWhere(h))
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

// SearchTool returns memory_search over index.
func SearchTool(index *Index, opts ToolOptions) tools.Tool {
	s := &searchTool{index: index, opts: opts}
	return tools.New(tools.Def[searchArgs]{Name: "memory_search", Short: "Search past chats and notes.", ReadOnly: true, Run: s.run,
		Description: "Search memory, history, daily notes, notes, knowledge folders and past chats. Returns dated, sourced passages, best first."})
}
