package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"hearth/backend/i18n"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/jsonschema-go/jsonschema"
)

// maxArgDepth bounds how deeply arguments may nest; no tool needs more, and
// a model (or a prompt injection) sending 100 000 nested arrays must not cost
// the decoder a stack or gigabytes.
const maxArgDepth = 64

// Prepared is one call ready to run: the tool and its arguments decoded once.
// When Err is set the arguments were refused; Run then returns Err to the
// model and the call must not be offered to the approval gate.
type Prepared struct {
	Name string
	Args Args
	// Err says what is wrong with the call, in words the model can act on.
	Err error
	// Refused is set when the tool's own safety rules refused the call (Prechecker):
	// Err says which rule and why; nobody is asked to approve it.
	Refused bool
	// Preview is what an approval card shows of the call (where it runs, whether it
	// destroys data); zero for tools that say nothing.
	Preview Preview
	tool    Tool
}

// Prepare decodes a call's arguments once, strictly: repair malformed JSON,
// refuse keys given twice or in two spellings of case, cast values losslessly
// to the schema's types, validate (unknown keys are errors where the schema
// forbids them, as it does for every tool built with New), then decode into
// the tool's own parameter type. The returned Args are what the gate judges,
// the audit log records and the tool runs with.
func (r *Registry) Prepare(name string, raw json.RawMessage) Prepared {
	name = strings.TrimSpace(name)
	r.mu.RLock()
	e, ok := r.tools[name]
	r.mu.RUnlock()
	if !ok {
		hint := ""
		if near := r.nearName(name); near != "" {
			hint = fmt.Sprintf(" Did you mean %q?", near)
		}
		return Prepared{Name: name, Err: fmt.Errorf("unknown tool %q.%s Valid tools: %s. Call one of these by its exact name.",
			name, hint, strings.Join(r.Names(), ", "))}
	}
	args, probs := decodeArgs(e, raw)
	if len(probs) > 0 {
		// One problem goes on the first line, which is all an audit entry or
		// a one-line hint keeps of the message.
		what := ": " + probs[0]
		if len(probs) > 1 {
			what = ":\n- " + strings.Join(probs, "\n- ")
		}
		return Prepared{Name: name, Err: fmt.Errorf("invalid arguments for tool %q%s\nExpected: %s.\nValid tools: %s.",
			name, what, signature(e.tool.Parameters()), strings.Join(r.Names(), ", "))}
	}
	p := Prepared{Name: name, Args: args, tool: e.tool}
	if pc, ok := e.tool.(Prechecker); ok {
		var err error
		if p.Preview, err = pc.Precheck(args); err != nil {
			p.Err, p.Refused = fmt.Errorf("%s: %w", name, err), true
		}
	}
	if n, ok := e.tool.(interface{ SandboxNote() i18n.Message }); ok && p.Err == nil {
		if m := n.SandboxNote(); m.Code != "" {
			p.Preview.Sandbox = &m
		}
	}
	return p
}

// decodeArgs returns the Args, or the problems with raw, one per line.
func decodeArgs(e entry, raw json.RawMessage) (Args, []string) {
	obj, err := ParseArgs(raw)
	if err != nil {
		return Args{}, []string{err.Error()}
	}
	s := e.resolved.Schema()
	obj = CastArgs(s, obj)
	if probs := argProblems(s, obj); len(probs) > 0 {
		return Args{}, probs
	}
	if err := e.resolved.Validate(obj); err != nil {
		return Args{}, []string{err.Error()}
	}
	canon, err := json.Marshal(obj)
	if err != nil {
		return Args{}, []string{err.Error()}
	}
	if e.decode == nil {
		return Args{value: obj, json: canon}, nil
	}
	v, err := e.decode(canon)
	if err != nil {
		return Args{}, []string{err.Error()}
	}
	// The record is the decoded value itself, not what the model sent: what
	// the struct does not hold cannot reach the tool, so it is not shown.
	js, err := json.Marshal(v)
	if err != nil {
		return Args{}, []string{err.Error()}
	}
	return Args{value: v, json: js}, nil
}

// checkKeys refuses JSON whose objects name a key twice, or name it in two
// spellings that differ only in case ("path" and "Path"). encoding/json keeps
// the last of two equal keys and matches struct fields case-insensitively,
// so either would let one reader see a different value than another — the
// approval gate judging one path while the tool writes another. text must
// be valid JSON (json.Unmarshal has accepted it).
func checkKeys(text []byte) error { return scanKeys(text, true) }

// scanKeys walks valid JSON once and checks each object's keys; with folded,
// keys equal under case folding count as repeated too. encoding/json (v1)
// has no option for this; jsontext reads keys as encoding/json does
// (escapes decoded, invalid UTF-8 as U+FFFD).
func scanKeys(text []byte, folded bool) error {
	d := jsontext.NewDecoder(bytes.NewReader(text), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var seen []map[string]string // per open container: folded key → key as first given
	for {
		depth := d.StackDepth()
		kind, n := d.StackIndex(depth)
		tok, err := d.ReadToken()
		if err != nil {
			return nil // the end of the text, which json.Valid has accepted
		}
		switch tok.Kind() {
		case '{', '[':
			if depth > maxArgDepth {
				return fmt.Errorf("arguments nest more than %d levels deep; send a flatter object", maxArgDepth)
			}
			seen = append(seen, map[string]string{})
		case '}', ']':
			seen = seen[:len(seen)-1]
		case '"':
			if kind != '{' || n%2 != 0 {
				continue // a value, not a key
			}
			key, keys := tok.String(), seen[len(seen)-1]
			fold := key
			if folded {
				fold = foldKey(key)
			}
			prev, dup := keys[fold]
			switch {
			case !dup:
				keys[fold] = key
			case prev == key:
				return fmt.Errorf("%sthe key %q is given twice; give each field once", where(d), key)
			default:
				return fmt.Errorf("%sthe keys %q and %q differ only in case; give each field once, spelled exactly as in the schema (names are case-sensitive)",
					where(d), prev, key)
			}
		}
	}
}

// where names the object holding the key just read ("opts.list[2]: "), or
// nothing at the top.
func where(d *jsontext.Decoder) string {
	var b strings.Builder
	level := 0
	for tok := range d.StackPointer().Parent().Tokens() {
		level++
		if k, _ := d.StackIndex(level); k == '[' {
			b.WriteString("[" + tok + "]")
		} else {
			b.WriteString("." + tok)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return strings.TrimPrefix(b.String(), ".") + ": "
}

// foldKey maps each rune to the smallest rune of its case-folding orbit, so
// two keys fold equal exactly when strings.EqualFold (and encoding/json's
// field matching) would call them equal.
func foldKey(s string) string {
	return strings.Map(func(r rune) rune {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		return m
	}, s)
}

// forbidsExtra reports whether s allows no properties beyond its own
// ("additionalProperties": false).
func forbidsExtra(s *jsonschema.Schema) bool {
	ap := s.AdditionalProperties
	return ap != nil && ap.Not != nil && isEmptySchema(ap.Not)
}

func isEmptySchema(s *jsonschema.Schema) bool {
	b, err := json.Marshal(s)
	return err == nil && (string(b) == "true" || string(b) == "{}")
}

// Faithful returns raw as JSON that every reader decodes the same way: raw
// itself when it is one JSON value with no key given twice (keys differing
// in case are kept apart by every JSON reader), else raw as a JSON string. A log line or a tool card then shows what the model sent,
// not what a lenient decoder kept of it.
func Faithful(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}")
	}
	if json.Valid(raw) && scanKeys(raw, false) == nil {
		return raw
	}
	b, _ := json.Marshal(string(raw))
	return b
}
