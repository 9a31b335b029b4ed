package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kaptinlin/jsonrepair"
)

func toolSet(names []string) map[string]bool {
	if len(names) == 0 {
		return nil
	}
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func toolNames(defs []ToolDef) []string {
	names := make([]string, 0, len(defs))
	for _, d := range defs {
		names = append(names, d.Name)
	}
	return names
}

// readCalls is a reader of calls printed as text. explicit says the text
// came after a model's own tool-call token.
type readCalls func(s string, explicit bool) ([]rawCall, bool)

// plain is a reader that reads alike with or without a tool-call token.
func plain(read func(string) ([]rawCall, bool)) readCalls {
	return func(s string, _ bool) ([]rawCall, bool) { return read(s) }
}

// calls reads s with read and turns what it finds into ToolCalls (callsFrom).
func (f *textFilter) calls(read readCalls, s string, explicit bool) ([]ToolCall, bool) {
	raw, ok := read(s, explicit)
	if !ok {
		return nil, false
	}
	return callsFrom(raw, f.offered, explicit)
}

// jsonCalls reads a call, a list of calls or an echoed OpenAI
// {"tool_calls": […]} object printed as JSON. After a model's own tool-call
// token broken JSON is repaired; anywhere else it is more likely prose or
// code than a call.
func jsonCalls(s string, explicit bool) ([]rawCall, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, false
	}
	var v any
	repaired := false
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		if !explicit {
			return nil, false
		}
		fixed, ok := repairJSON(s)
		if !ok || json.Unmarshal([]byte(fixed), &v) != nil {
			return nil, false
		}
		repaired = true
	}
	raw, ok := collectCalls(v, 0, !explicit)
	for i := range raw {
		raw[i].repaired = repaired
	}
	return raw, ok
}

// collectCalls finds the calls in a decoded JSON value: an object or a list
// of objects in the shapes models print ({"name","arguments"|"parameters"},
// {"function":{…}}, {"tool_calls":[…]}, {"tool","args"}, …). needArgs asks
// each call to carry an arguments key: without a tool-call token, an object
// with just a name is more likely data (`{"id": 3, "name": "web_search"}`).
func collectCalls(v any, depth int, needArgs bool) ([]rawCall, bool) {
	if depth > 3 {
		return nil, false
	}
	switch t := v.(type) {
	case []any:
		var out []rawCall
		for _, e := range t {
			if _, ok := e.(map[string]any); !ok {
				return nil, false
			}
			calls, ok := collectCalls(e, depth+1, needArgs)
			if !ok {
				return nil, false
			}
			out = append(out, calls...)
		}
		return out, len(out) > 0
	case map[string]any:
		if list, ok := t["tool_calls"].([]any); ok {
			return collectCalls(list, depth+1, needArgs)
		}
		if one, ok := t["tool_call"].(map[string]any); ok {
			return collectCalls(one, depth+1, needArgs)
		}
		name, args, hasArgs := callFields(t)
		if name == "" || needArgs && !hasArgs || isDefinition(t, args) {
			return nil, false
		}
		return []rawCall{{name: name, args: args}}, true
	}
	return nil, false
}

// callFields finds the tool name and arguments of one call object, and
// whether it had an arguments key. The name is "" when there is none.
func callFields(o map[string]any) (string, any, bool) {
	if fn, ok := o["function"].(map[string]any); ok {
		return callFields(fn)
	}
	var name string
	for _, k := range nameKeys {
		if s, ok := o[k].(string); ok && strings.TrimSpace(s) != "" {
			name = strings.TrimSpace(s)
			break
		}
	}
	if name == "" {
		return "", nil, false
	}
	for _, k := range argKeys {
		if a, ok := o[k]; ok {
			return name, a, true
		}
	}
	return name, nil, false
}

// isDefinition reports a tool definition rather than a call: models asked
// what they can do echo their tools in the request's own format, with a
// description and a JSON schema where a call has its arguments.
func isDefinition(o map[string]any, args any) bool {
	if fn, ok := o["function"].(map[string]any); ok {
		o = fn
	}
	if _, ok := o["description"]; ok {
		return true
	}
	schema, ok := args.(map[string]any)
	if !ok {
		return false
	}
	_, props := schema["properties"].(map[string]any)
	return schema["type"] == "object" && props
}

// callsFrom turns raw calls into ToolCalls. Outside an explicit tool-call
// token every name must be an offered tool, or none of them counts: a
// command the user did not mean must never run from prose or an example.
// Inside one, any name is accepted and unknown ones are marked.
func callsFrom(raw []rawCall, offered map[string]bool, explicit bool) ([]ToolCall, bool) {
	if len(raw) == 0 {
		return nil, false
	}
	calls := make([]ToolCall, 0, len(raw))
	for _, r := range raw {
		if r.name == "" || (!explicit || r.offeredOnly) && !offered[r.name] {
			return nil, false
		}
		args, fixed, err := normalizeArgValue(r.args)
		if err != nil {
			return nil, false
		}
		calls = append(calls, ToolCall{Name: r.name, Arguments: args, FromText: true,
			Repaired: r.repaired || fixed, Unknown: !offered[r.name]})
	}
	return calls, true
}

// normalizeArgValue turns a decoded argument value (object, JSON string or
// nothing) into a JSON object.
func normalizeArgValue(a any) (json.RawMessage, bool, error) {
	switch t := a.(type) {
	case nil:
		return json.RawMessage("{}"), false, nil
	case map[string]any:
		// Without HTML escaping, so that a command like `a && b` reaches the
		// tool as the model wrote it.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(t); err != nil {
			return nil, false, fmt.Errorf("encode arguments: %w", err)
		}
		return bytes.TrimRight(buf.Bytes(), "\n"), false, nil
	case string:
		return NormalizeArguments(t)
	}
	return nil, false, fmt.Errorf("arguments are a %T, not an object", a)
}

// NormalizeArguments turns argument text (as OpenAI-style APIs stream it) into
// a compact JSON object, repairing malformed JSON (single quotes, trailing
// commas, missing braces, …). fixed reports a repair; an error means the text
// could not be made into an object.
func NormalizeArguments(s string) (raw json.RawMessage, fixed bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return json.RawMessage("{}"), false, nil
	}
	text := s
	if fixed = !json.Valid([]byte(s)); fixed {
		if text, _ = repairJSON(s); !json.Valid([]byte(text)) {
			return nil, false, fmt.Errorf("arguments are not valid JSON and could not be repaired: %.60s", s)
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(text)) != nil || !bytes.HasPrefix(buf.Bytes(), []byte("{")) {
		return nil, false, fmt.Errorf("arguments are not a JSON object: %.60s", s)
	}
	return buf.Bytes(), fixed, nil
}

// setArguments sets tc's arguments from their text as a provider streamed
// it (NormalizeArguments). Text that is no object becomes ArgsError, which
// the agent answers by asking the model for an object.
func (tc *ToolCall) setArguments(text string) {
	raw, fixed, err := NormalizeArguments(text)
	if err != nil {
		tc.Arguments, tc.ArgsError = json.RawMessage("{}"), err.Error()
		return
	}
	tc.Arguments, tc.Repaired = raw, fixed
}

// repairJSON wraps jsonrepair so that a panic in it can never cross into the
// agent.
func repairJSON(s string) (out string, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = "", false
		}
	}()
	r, err := jsonrepair.Repair(s)
	if err != nil {
		return "", false
	}
	return r, true
}
