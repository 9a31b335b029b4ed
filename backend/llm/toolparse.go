package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kaptinlin/jsonrepair"
)

// ParseToolCalls applies the tool-call text fallback to a whole reply: it
// returns the visible text (without call text and <think> blocks), the
// reasoning found in <think> blocks, and the calls printed as text.
// offered names the tools the request offered; with none offered only
// <think> blocks are separated.
func ParseToolCalls(text string, offered []string) (visible, reasoning string, calls []ToolCall) {
	f := newTextFilter(toolSet(offered))
	chunks := append(f.write(text), f.flush()...)
	var vb, rb strings.Builder
	for _, c := range chunks {
		switch c.Kind {
		case ChunkText:
			vb.WriteString(c.Text)
		case ChunkReasoning:
			rb.WriteString(c.Text)
		case ChunkToolCall:
			calls = append(calls, *c.ToolCall)
		}
	}
	return vb.String(), rb.String(), calls
}

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

// parseCallPayload reads a call (or a list of calls) printed as JSON. Inside
// <tool_call> tags (tagged) any name is accepted and unknown ones are marked;
// untagged JSON counts as a call only when every name is an offered tool.
func parseCallPayload(s string, offered map[string]bool, tagged bool) ([]ToolCall, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, false
	}
	var v any
	repaired := false
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		fixed, ok := repairJSON(s)
		if !ok || json.Unmarshal([]byte(fixed), &v) != nil {
			return nil, false
		}
		repaired = true
	}
	var objs []map[string]any
	switch t := v.(type) {
	case map[string]any:
		objs = []map[string]any{t}
	case []any:
		for _, e := range t {
			o, ok := e.(map[string]any)
			if !ok {
				return nil, false
			}
			objs = append(objs, o)
		}
	default:
		return nil, false
	}
	if len(objs) == 0 {
		return nil, false
	}
	calls := make([]ToolCall, 0, len(objs))
	for _, o := range objs {
		name, args, ok := callFields(o)
		if !ok || (!tagged && !offered[name]) {
			return nil, false
		}
		tc := ToolCall{Name: name, FromText: true, Repaired: repaired, Unknown: !offered[name]}
		raw, fixed, err := normalizeArgValue(args)
		if err != nil {
			return nil, false
		}
		tc.Arguments, tc.Repaired = raw, tc.Repaired || fixed
		calls = append(calls, tc)
	}
	return calls, true
}

// callFields finds the tool name and arguments in the shapes models print:
// {"name","arguments"|"parameters"}, {"function":{…}}, {"tool","args"}, …
func callFields(o map[string]any) (string, any, bool) {
	if fn, ok := o["function"].(map[string]any); ok {
		return callFields(fn)
	}
	var name string
	for _, k := range []string{"name", "tool_name", "tool", "function", "action"} {
		if s, ok := o[k].(string); ok && strings.TrimSpace(s) != "" {
			name = strings.TrimSpace(s)
			break
		}
	}
	if name == "" {
		return "", nil, false
	}
	for _, k := range []string{"arguments", "parameters", "args", "input", "action_input"} {
		if a, ok := o[k]; ok {
			return name, a, true
		}
	}
	return name, nil, true
}

// normalizeArgValue turns a decoded argument value (object, JSON string or
// nothing) into a JSON object.
func normalizeArgValue(a any) (json.RawMessage, bool, error) {
	switch t := a.(type) {
	case nil:
		return json.RawMessage("{}"), false, nil
	case map[string]any:
		b, err := json.Marshal(t)
		if err != nil {
			return nil, false, fmt.Errorf("encode arguments: %w", err)
		}
		return b, false, nil
	case string:
		raw, fixed, err := NormalizeArguments(t)
		return raw, fixed, err
	default:
		return nil, false, fmt.Errorf("arguments are a %T, not an object", a)
	}
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
	if json.Valid([]byte(s)) {
		if s[0] != '{' {
			return nil, false, fmt.Errorf("arguments are not a JSON object: %.60s", s)
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(s)); err != nil {
			return nil, false, fmt.Errorf("compact arguments: %w", err)
		}
		return buf.Bytes(), false, nil
	}
	out, ok := repairJSON(s)
	if !ok || !json.Valid([]byte(out)) || !strings.HasPrefix(strings.TrimSpace(out), "{") {
		return nil, false, fmt.Errorf("arguments are not valid JSON and could not be repaired: %.60s", s)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(out)); err != nil {
		return nil, false, fmt.Errorf("compact repaired arguments: %w", err)
	}
	return buf.Bytes(), true, nil
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
