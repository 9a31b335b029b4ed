package llm

import (
	"cmp"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file reads the non-JSON bodies of tool calls printed as text: Python
// style call lists, the XML-ish parameter forms and Gemma's own object
// syntax. Each returns rawCalls; callsFrom turns them into ToolCalls.

// rawCall is one call as read from text, before its arguments are encoded.
type rawCall struct {
	name string
	args any // map[string]any, a JSON string, or nil
	// repaired: the call's JSON was broken and repaired; offeredOnly: the
	// call counts only for an offered tool, even after a tool-call token.
	repaired, offeredOnly bool
}

var errSyntax = errors.New("not a call")

// isNameByte reports whether c may appear in a tool name: the characters
// providers accept in function names (MCP tools bring dashes along).
func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// maxNameLen bounds a tool name a model may print after its own tool-call
// token (providers allow 64): a longer run of name bytes is not a call, and
// the bound keeps re-reading it on every delta cheap.
const maxNameLen = 128

// nameEnd returns the end of the tool name starting at s[i].
func nameEnd(s string, i int) int {
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	return i
}

// litParser reads Python-style literals and calls: `name(a=1, b="x")`,
// lists, dicts, True/False/None (and their JSON spellings). With bareKeys
// set, dict keys may be bare words (Gemma's `{city:…}`); delims are extra
// string delimiters that open and close a string (Gemma's `<|"|>`).
type litParser struct {
	s        string
	i        int
	bareKeys bool
	delims   []string
}

func (p *litParser) ws() { p.i = skipSpaceNL(p.s, p.i) }

func (p *litParser) eat(c byte) bool {
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *litParser) done() bool {
	p.ws()
	return p.i == len(p.s)
}

// items reads comma-separated items up to closer; a trailing comma is
// allowed.
func (p *litParser) items(closer byte, item func() error) error {
	for n := 0; !p.eat(closer); n++ {
		if n > 0 && !p.eat(',') {
			return errSyntax
		}
		if p.eat(closer) { // a trailing comma
			return nil
		}
		if err := item(); err != nil {
			return err
		}
	}
	return nil
}

// calls reads `[call, call…]` or a single call.
func (p *litParser) calls() ([]rawCall, error) {
	if !p.eat('[') {
		c, err := p.call()
		return []rawCall{c}, err
	}
	var out []rawCall
	err := p.items(']', func() error {
		c, err := p.call()
		out = append(out, c)
		return err
	})
	return out, err
}

// call reads `name(key=value, …)`. Positional arguments have no parameter
// name to go to, so they make the text not a call.
func (p *litParser) call() (rawCall, error) {
	p.ws()
	start := p.i
	p.i = nameEnd(p.s, p.i)
	name := p.s[start:p.i]
	if name == "" || !p.eat('(') {
		return rawCall{}, errSyntax
	}
	args := map[string]any{}
	err := p.items(')', func() error {
		p.ws()
		k := p.i
		for p.i < len(p.s) && isNameByte(p.s[p.i]) && p.s[p.i] != '-' {
			p.i++
		}
		key := p.s[k:p.i]
		if key == "" || !p.eat('=') {
			return errSyntax
		}
		v, err := p.value()
		args[key] = v
		return err
	})
	return rawCall{name: name, args: args}, err
}

func (p *litParser) value() (any, error) {
	p.ws()
	if p.i >= len(p.s) {
		return nil, errSyntax
	}
	for _, d := range p.delims {
		if strings.HasPrefix(p.s[p.i:], d) {
			end := strings.Index(p.s[p.i+len(d):], d)
			if end < 0 {
				return nil, errSyntax
			}
			v := p.s[p.i+len(d) : p.i+len(d)+end]
			p.i += 2*len(d) + end
			return v, nil
		}
	}
	switch c := p.s[p.i]; {
	case c == '"' || c == '\'':
		return p.quoted()
	case c == '[':
		return p.list(']')
	case c == '(': // a tuple
		return p.list(')')
	case c == '{':
		return p.dict()
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		return p.number()
	}
	start := p.i
	p.i = nameEnd(p.s, p.i)
	switch p.s[start:p.i] {
	case "True", "true":
		return true, nil
	case "False", "false":
		return false, nil
	case "None", "null":
		return nil, nil
	}
	return nil, errSyntax
}

func (p *litParser) list(closer byte) (any, error) {
	p.i++
	out := []any{}
	err := p.items(closer, func() error {
		v, err := p.value()
		out = append(out, v)
		return err
	})
	return out, err
}

func (p *litParser) dict() (any, error) {
	p.i++
	out := map[string]any{}
	err := p.items('}', func() error {
		var key string
		p.ws()
		if p.bareKeys && p.i < len(p.s) && isNameByte(p.s[p.i]) && p.s[p.i] != '-' {
			start := p.i
			p.i = nameEnd(p.s, p.i)
			key = p.s[start:p.i]
		} else {
			k, err := p.value()
			switch t := k.(type) {
			case string:
				key = t
			case json.Number:
				key = t.String()
			default:
				return cmp.Or(err, errSyntax)
			}
		}
		if !p.eat(':') {
			return errSyntax
		}
		v, err := p.value()
		out[key] = v
		return err
	})
	return out, err
}

func (p *litParser) number() (any, error) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte("+-.0123456789eE", p.s[p.i]) >= 0 {
		p.i++
	}
	text := strings.TrimPrefix(p.s[start:p.i], "+")
	if _, err := strconv.ParseFloat(text, 64); err != nil || !json.Valid([]byte(text)) {
		return nil, errSyntax
	}
	return json.Number(text), nil
}

// quoted reads a Python string in single or double quotes with the usual
// backslash escapes.
func (p *litParser) quoted() (any, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			p.i += 2
			switch e := p.s[p.i-1]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'u':
				if p.i+4 <= len(p.s) {
					if r, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32); err == nil {
						b.WriteRune(rune(r))
						p.i += 4
						continue
					}
				}
				b.WriteString(`\u`)
			case '\\', '\'', '"', '/':
				b.WriteByte(e)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			_, size := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteString(p.s[p.i : p.i+size])
			p.i += size
		}
	}
	return nil, errSyntax
}

// parsePythonic reads a Python-style call list `[f(a=1), g()]` (Llama 3.2
// and 4, Gemma 3, LFM2) or a single call `f(a=1)` (Gemma's tool_code).
func parsePythonic(s string) ([]rawCall, bool) {
	p := &litParser{s: s}
	calls, err := p.calls()
	if err != nil || !p.done() || len(calls) == 0 {
		return nil, false
	}
	return calls, true
}

// gemmaCall reads Gemma 4's and FunctionGemma's `call:NAME{key:value}`,
// whose strings sit between delim markers and whose keys are bare words.
func gemmaCall(delim string) func(string) ([]rawCall, bool) {
	return func(s string) ([]rawCall, bool) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(s), "call:")
		brace := strings.IndexByte(rest, '{')
		if !ok || brace < 0 {
			return nil, false
		}
		name := strings.TrimSpace(rest[:brace])
		if name == "" || nameEnd(name, 0) != len(name) {
			return nil, false
		}
		p := &litParser{s: rest[brace:], bareKeys: true, delims: []string{delim}}
		args, err := p.value()
		if err != nil || !p.done() {
			return nil, false
		}
		return []rawCall{{name: name, args: args}}, true
	}
}

// parseXMLFunction reads Qwen3-Coder's `<function=NAME><parameter=K>V</parameter>…</function>`
// (s starts after "<function=") and also `<function=NAME>{json}</function>`
// (functionary v3.1). A missing </function> at the very end is forgiven.
func parseXMLFunction(s string) ([]rawCall, bool) {
	name, body, ok := strings.Cut(s, ">")
	if !ok {
		return nil, false
	}
	body = strings.TrimSuffix(strings.TrimSpace(body), "</function>")
	return namedArgs(strings.Trim(strings.TrimSpace(name), `"'`), body, func(b string) (string, string, string, bool) {
		rest, ok := strings.CutPrefix(b, "<parameter=")
		gt, end := strings.IndexByte(rest, '>'), strings.Index(rest, "</parameter>")
		if !ok || gt < 0 || end < gt {
			return "", "", "", false
		}
		// Values sit on their own lines: one newline either side is layout.
		v := strings.TrimSuffix(strings.TrimPrefix(rest[gt+1:end], "\n"), "\n")
		return strings.Trim(strings.TrimSpace(rest[:gt]), `"'`), v, rest[end+len("</parameter>"):], true
	})
}

// parseGLMCall reads GLM-4.5's `NAME<arg_key>K</arg_key><arg_value>V</arg_value>…`
// and the older GLM-4 `NAME\n{json}`.
func parseGLMCall(s string) ([]rawCall, bool) {
	s = strings.TrimSpace(s)
	end := nameEnd(s, 0)
	return namedArgs(s[:end], s[end:], func(b string) (string, string, string, bool) {
		rest, key := strings.CutPrefix(b, "<arg_key>")
		k, rest, keyEnd := strings.Cut(rest, "</arg_key>")
		rest, val := strings.CutPrefix(strings.TrimSpace(rest), "<arg_value>")
		v, rest, valEnd := strings.Cut(rest, "</arg_value>")
		return strings.TrimSpace(k), v, rest, key && keyEnd && val && valEnd
	})
}

// namedArgs is the call of name with body as its arguments: a JSON object,
// or key/value pairs that pair reads one by one until the body is used up.
func namedArgs(name, body string, pair func(string) (k, v, rest string, ok bool)) ([]rawCall, bool) {
	if name == "" || nameEnd(name, 0) != len(name) {
		return nil, false
	}
	body = strings.TrimSpace(body)
	if strings.HasPrefix(body, "{") {
		return []rawCall{{name: name, args: body}}, true
	}
	args := map[string]any{}
	for body != "" {
		k, v, rest, ok := pair(body)
		if !ok || k == "" {
			return nil, false
		}
		args[k] = v
		body = strings.TrimSpace(rest)
	}
	return []rawCall{{name: name, args: args}}, true
}

// DeepSeek's tool-call tokens (fullwidth bars, "▁" for spaces).
const (
	dsCallBegin = "<｜tool▁call▁begin｜>"
	dsCallEnd   = "<｜tool▁call▁end｜>"
	dsSep       = "<｜tool▁sep｜>"
	dsCallsEnd  = "<｜tool▁calls▁end｜>"
)

// parseDeepSeekCalls reads the calls of a DeepSeek tool-call section:
// `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>`
// (V3, R1) or `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>` (V3.1).
func parseDeepSeekCalls(s string) ([]rawCall, bool) {
	var out []rawCall
	s = strings.TrimSpace(s)
	for s != "" {
		rest, ok := strings.CutPrefix(s, dsCallBegin)
		if !ok {
			return nil, false
		}
		inner, after, closed := strings.Cut(rest, dsCallEnd)
		if !closed && len(out) > 0 && strings.TrimSpace(inner) == "" {
			break
		}
		c, ok := parseDeepSeekCall(inner)
		if !ok {
			return nil, false
		}
		out = append(out, c...)
		s = strings.TrimSpace(after)
	}
	return out, len(out) > 0
}

func parseDeepSeekCall(s string) ([]rawCall, bool) {
	left, right, ok := strings.Cut(s, dsSep)
	if !ok {
		return nil, false
	}
	name := strings.TrimSpace(left)
	if name == "function" || name == "" {
		var line string
		line, right, _ = strings.Cut(strings.TrimLeft(right, " \t"), "\n")
		name = strings.TrimSpace(line)
	}
	args := strings.TrimSpace(right)
	if fenced, ok := strings.CutPrefix(args, "```"); ok {
		_, fenced, _ = strings.Cut(fenced, "\n") // the "json" language line
		args = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(fenced), "```"))
	}
	if name == "" || nameEnd(name, 0) != len(name) || !strings.HasPrefix(args, "{") {
		return nil, false
	}
	return []rawCall{{name: name, args: args}}, true
}
