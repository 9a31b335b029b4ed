package prompt

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"hearth/backend/internal/clip"
	"hearth/backend/llm"
)

// coreTools are never left out to fit a window: with them the model can
// still read, write and edit files, look around, run a command and use its
// memory, which is most of what a personal assistant does. Every other tool
// can be left out for one request when the window is too small for all.
var coreTools = map[string]bool{
	"read_file": true, "write_file": true, "edit_file": true, "list_dir": true,
	"exec": true, "memory_search": true, "remember": true,
}

// IsCoreTool reports whether the named tool is always sent, however small
// the window.
func IsCoreTool(name string) bool { return coreTools[name] }

// maxDerivedShort bounds a short description derived from a long one (a
// tool that has no short form of its own, such as an MCP server's).
const maxDerivedShort = 80

// ShortDescription is the description a tool is sent with when the window
// is tight: its own short form when it has one, else the first sentence of
// the long one, cut to about 80 characters at a word boundary.
func ShortDescription(t llm.ToolDef) string {
	if s := strings.TrimSpace(t.Short); s != "" {
		return s
	}
	d := strings.Join(strings.Fields(t.Description), " ")
	// A sentence ends at a stop followed by a capital ("e.g. a" goes on).
	for i := 0; i+2 < len(d); i++ {
		if (d[i] == '.' || d[i] == '!' || d[i] == '?') && d[i+1] == ' ' && unicode.IsUpper(rune(d[i+2])) {
			d = d[:i+1]
			break
		}
	}
	return clip.Words(d, maxDerivedShort+1)
}

// shortTool is a tool in its short form: the short description, and a
// parameter schema without the descriptions and titles of its properties
// (MCP servers often document each parameter at length; the names and
// types stay, which is what a call needs).
func shortTool(t llm.ToolDef) llm.ToolDef {
	out := llm.ToolDef{Name: t.Name, Description: ShortDescription(t), Short: t.Short, Parameters: t.Parameters}
	if len(t.Parameters) == 0 {
		return out
	}
	var schema any
	if err := json.Unmarshal(t.Parameters, &schema); err != nil {
		return out // not ours to repair; sent as it is
	}
	stripDocs(schema)
	// Without HTML escaping: "<" in an enum or pattern stays one character.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(schema); err == nil {
		out.Parameters = bytes.TrimRight(b.Bytes(), "\n")
	}
	return out
}

// stripDocs removes "description", "title" and "examples" from a JSON Schema
// node and the schemas below it. Property names are map keys under
// "properties", so a property called "description" stays.
func stripDocs(node any) {
	m, ok := node.(map[string]any)
	if !ok {
		return
	}
	delete(m, "description")
	delete(m, "title")
	delete(m, "examples")
	for _, k := range []string{"properties", "$defs", "definitions", "patternProperties"} {
		if props, ok := m[k].(map[string]any); ok {
			for _, p := range props {
				stripDocs(p)
			}
		}
	}
	for _, k := range []string{"items", "additionalProperties", "not"} {
		stripDocs(m[k])
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if list, ok := m[k].([]any); ok {
			for _, p := range list {
				stripDocs(p)
			}
		}
	}
}

// toolPrior ranks built-in tools that are not core but close to it (finding
// files; the web) above others that share as few words with the message.
var toolPrior = map[string]int{"grep": 2, "glob": 2, "web_search": 1, "web_fetch": 1}

// toolRank orders the tools that may be left out, most likely needed first:
// tools already called in this turn are pinned (they stay like the core),
// then the more words of the user's message a tool's name and description
// share, the higher it ranks; then toolPrior. Remaining ties go to the
// smaller tool, so the biggest of equally unrelated tools is left out
// first. It returns the indexes of droppable tools, most wanted first.
func toolRank(tools []llm.ToolDef, turn []llm.Message) []int {
	used := map[string]bool{}
	query := ""
	for _, m := range turn {
		for _, tc := range m.ToolCalls {
			used[tc.Name] = true
		}
		if m.Role == llm.RoleUser && query == "" {
			query = m.Content
		}
	}
	query, _, _ = strings.Cut(query, "[Runtime Context]")
	words := keywords(query)
	type cand struct {
		i, score, prior, size int
	}
	var cs []cand
	for i, t := range tools {
		if coreTools[t.Name] || used[t.Name] {
			continue
		}
		score := 0
		for _, w := range keywords(strings.ReplaceAll(t.Name, "_", " ")) {
			if matchesAny(w, words) {
				score += 3
			}
		}
		for _, w := range keywords(t.Description) {
			if matchesAny(w, words) {
				score++
			}
		}
		cs = append(cs, cand{i, score, toolPrior[t.Name], len(t.Description) + len(t.Parameters)})
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].score != cs[b].score {
			return cs[a].score > cs[b].score
		}
		if cs[a].prior != cs[b].prior {
			return cs[a].prior > cs[b].prior
		}
		return cs[a].size < cs[b].size
	})
	out := make([]int, len(cs))
	for k, c := range cs {
		out[k] = c.i
	}
	return out
}

// stopWords are too common to say which tool a message needs.
var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "what": true, "you": true, "your": true,
	"this": true, "that": true, "from": true, "are": true, "was": true, "can": true, "how": true,
	"have": true, "has": true, "not": true, "all": true, "any": true, "one": true, "its": true,
	"please": true, "into": true, "out": true, "about": true, "mine": true, "there": true,
}

// keywords are the lower-case words of s of three letters or more, without
// stop words, each once.
func keywords(s string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	}) {
		if utf8.RuneCountInString(w) < 3 || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// matchesAny reports whether w is one of words or shares a stem of five
// letters or more with one ("reminders" and "remind", "searching" and
// "search").
func matchesAny(w string, words []string) bool {
	for _, q := range words {
		if q == w {
			return true
		}
		n := 0
		for n < len(q) && n < len(w) && q[n] == w[n] {
			n++
		}
		if n >= 5 && (n == len(q) || n == len(w) || n >= 6) {
			return true
		}
	}
	return false
}
