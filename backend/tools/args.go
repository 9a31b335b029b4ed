package tools

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/kaptinlin/jsonrepair"

	"hearth/backend/internal/clip"
)

// ParseArgs turns a model's raw arguments into a JSON object: it accepts an empty
// value as {}, unwraps a double-encoded JSON string, and repairs malformed JSON
// (single quotes, trailing commas, missing braces, code fences). The repaired
// object must still be unambiguous: a key given twice, or twice in different
// case, is an error (checkKeys).
func ParseArgs(raw json.RawMessage) (map[string]any, error) {
	return parseObject(raw, 0)
}

func parseObject(raw json.RawMessage, depth int) (map[string]any, error) {
	text := []byte(strings.TrimSpace(string(raw)))
	if len(text) == 0 || string(text) == "null" {
		return map[string]any{}, nil
	}
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		fixed, rerr := jsonrepair.Repair(string(text))
		if rerr != nil {
			return nil, fmt.Errorf("arguments are not valid JSON and could not be repaired (%v); send one JSON object", err)
		}
		if err := json.Unmarshal([]byte(fixed), &v); err != nil {
			return nil, fmt.Errorf("arguments are not valid JSON even after repair (%v); send one JSON object", err)
		}
		text = []byte(fixed)
	}
	// Checked on the very text decoded: repair must not pick one of two keys.
	if err := checkKeys(text); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case map[string]any:
		return x, nil
	case string: // some models encode the object twice: "{\"path\": \"a\"}"
		if depth > 0 || !strings.HasPrefix(strings.TrimSpace(x), "{") {
			return nil, fmt.Errorf("arguments must be a JSON object, got the string %q", clip.Runes(x, 80))
		}
		inner, err := parseObject(json.RawMessage(x), depth+1)
		if err != nil && strings.Contains(err.Error(), "not valid JSON") {
			return nil, fmt.Errorf("arguments are a string, not a JSON object: %q", clip.Runes(x, 80))
		}
		return inner, err
	}
	return nil, fmt.Errorf("arguments must be a JSON object, got %s", jsonKind(v))
}

// CastArgs converts values to the types the schema asks for, where that is
// lossless: "60" → 60, "true" → true, 1 → "1" for strings, a JSON string holding an
// array or object → that array or object, and drops nulls for optional fields.
// Values it cannot convert are left as they are for validation to report.
func CastArgs(s *jsonschema.Schema, args map[string]any) map[string]any {
	out, _ := castValue(args, s).(map[string]any)
	if out == nil {
		return args
	}
	return out
}

func schemaTypes(s *jsonschema.Schema) []string {
	if s.Type != "" {
		return []string{s.Type}
	}
	return s.Types
}

func castValue(v any, s *jsonschema.Schema) any {
	if s == nil {
		return v
	}
	types := schemaTypes(s)
	if len(types) == 0 {
		return v
	}
	for _, t := range types { // already right: only recurse into containers
		if hasType(v, t) {
			return castChildren(v, t, s)
		}
	}
	for _, t := range types {
		if c, ok := castTo(v, t); ok {
			return castChildren(c, t, s)
		}
	}
	return v
}

func castChildren(v any, t string, s *jsonschema.Schema) any {
	switch t {
	case "object":
		m, _ := v.(map[string]any)
		out := make(map[string]any, len(m))
		for k, val := range m {
			ps := s.Properties[k]
			if val == nil && ps != nil && !slices.Contains(schemaTypes(ps), "null") {
				continue // an explicit null for an optional field means "not given"
			}
			out[k] = castValue(val, ps)
		}
		return out
	case "array":
		a, _ := v.([]any)
		if s.Items == nil {
			return a
		}
		out := make([]any, len(a))
		for i, x := range a {
			out[i] = castValue(x, s.Items)
		}
		return out
	}
	return v
}

func hasType(v any, t string) bool {
	k := jsonKind(v)
	return k == t || t == "number" && k == "integer"
}

func castTo(v any, t string) (any, bool) {
	switch t {
	case "integer", "number":
		switch x := v.(type) {
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, false
			}
			if t == "integer" && f != math.Trunc(f) {
				return nil, false
			}
			return f, true
		case bool: // never guess numbers from booleans
			return nil, false
		}
	case "boolean":
		switch x := v.(type) {
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true", "yes", "1", "on":
				return true, true
			case "false", "no", "0", "off":
				return false, true
			}
		case float64:
			if x == 1 {
				return true, true
			}
			if x == 0 {
				return false, true
			}
		}
	case "string":
		switch x := v.(type) {
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64), true
		case bool:
			return strconv.FormatBool(x), true
		}
	case "array", "object":
		if x, ok := v.(string); ok {
			var d any
			if json.Unmarshal([]byte(x), &d) == nil && hasType(d, t) {
				return d, true
			}
		}
		if t == "array" && v != nil { // a lone value where a list is wanted
			if _, isObj := v.(map[string]any); !isObj {
				return []any{v}, true
			}
		}
	}
	return nil, false
}

// argProblems lists what is wrong with args, one line per field, in words a
// model can act on. It covers the keywords Hearth's tools use; the jsonschema
// validator remains the final judge.
func argProblems(s *jsonschema.Schema, args map[string]any) []string {
	var out []string
	for _, r := range s.Required {
		if _, ok := args[r]; !ok {
			out = append(out, fmt.Sprintf("%s: required field is missing (%s)", r, typeWords(s.Properties[r])))
		}
	}
	keys := slices.Sorted(maps.Keys(args))
	for _, k := range keys {
		ps, ok := s.Properties[k]
		if !ok {
			continue
		}
		out = append(out, valueProblems(k, ps, args[k])...)
	}
	// A schema that forbids extra fields (every tool built with New) makes an
	// unknown key an error of its own; otherwise it is only worth naming
	// next to another problem, as a likely misspelling.
	if strict := forbidsExtra(s); len(out) > 0 || strict {
		for _, k := range keys {
			if _, ok := s.Properties[k]; ok || (s.Properties == nil && !strict) {
				continue
			}
			out = append(out, unknownField(k, s.Properties))
		}
	}
	return out
}

func unknownField(k string, props map[string]*jsonschema.Schema) string {
	if len(props) == 0 {
		return fmt.Sprintf("%s: unknown field (this tool takes no arguments)", k)
	}
	for p := range props {
		if strings.EqualFold(p, k) {
			return fmt.Sprintf("%s: unknown field; did you mean %q? Field names are case-sensitive", k, p)
		}
	}
	return fmt.Sprintf("%s: unknown field (valid fields: %s)", k, strings.Join(slices.Sorted(maps.Keys(props)), ", "))
}

func valueProblems(path string, s *jsonschema.Schema, v any) []string {
	if s == nil {
		return nil
	}
	types := schemaTypes(s)
	if len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return hasType(v, t) }) {
		return []string{fmt.Sprintf("%s: expected %s, got %s %s", path, strings.Join(types, " or "), jsonKind(v), clip.Runes(compactJSON(v), 60))}
	}
	var out []string
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(v) }) {
		out = append(out, fmt.Sprintf("%s: %s is not one of %s", path, compactJSON(v), compactJSON(s.Enum)))
	}
	if f, ok := v.(float64); ok {
		if s.Minimum != nil && f < *s.Minimum {
			out = append(out, fmt.Sprintf("%s: %v is below the minimum %v", path, f, *s.Minimum))
		}
		if s.Maximum != nil && f > *s.Maximum {
			out = append(out, fmt.Sprintf("%s: %v is above the maximum %v", path, f, *s.Maximum))
		}
	}
	if str, ok := v.(string); ok && s.MinLength != nil && len([]rune(str)) < *s.MinLength {
		out = append(out, fmt.Sprintf("%s: must have at least %d characters", path, *s.MinLength))
	}
	if a, ok := v.([]any); ok && s.Items != nil {
		for i, x := range a {
			out = append(out, valueProblems(fmt.Sprintf("%s[%d]", path, i), s.Items, x)...)
		}
	}
	if m, ok := v.(map[string]any); ok && s.Properties != nil {
		for _, p := range argProblems(s, m) {
			out = append(out, path+"."+p)
		}
	}
	return out
}

// signature describes a schema's fields compactly: "path (string, required), offset (integer)".
func signature(s *jsonschema.Schema) string {
	if s == nil || len(s.Properties) == 0 {
		return "no fields"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		w := typeWords(s.Properties[k])
		if slices.Contains(s.Required, k) {
			w += ", required"
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", k, w))
	}
	return strings.Join(parts, ", ")
}

func typeWords(s *jsonschema.Schema) string {
	if s == nil {
		return "any"
	}
	t := strings.Join(schemaTypes(s), " or ")
	t = cmp.Or(t, "any")
	if len(s.Enum) > 0 {
		t += " " + compactJSON(s.Enum)
	}
	return t
}

func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
