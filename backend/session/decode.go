package session

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"hearth/backend/llm"
)

// Reading a long chat is mostly decoding its message lines, and encoding/json
// spends most of that on reflection and validating each line twice. The
// message lines this package writes have a fixed shape (messageLine's fields
// in order, strings as encoding/json escapes them), so decodeMessage reads
// that shape directly. Anything else — a hand-edited line, fields in another
// order, images, an escape it does not know — makes it give up, and the line
// goes to encoding/json as before: the fast path never decides what a line
// means, it only gets the same answer sooner (FuzzDecodeMessage checks that).

// decodeMessage decodes a message line written by this package into m. ok is
// false when the line is not in that exact shape.
func decodeMessage(line []byte, m *messageLine) (ok bool) {
	d := lineDecoder{b: line}
	if !d.lit(`{"type":"message","at":`) {
		return false
	}
	at, ok := d.rawString()
	if !ok || m.At.UnmarshalJSON(at) != nil {
		return false
	}
	m.Type = kindMessage
	if d.lit(`,"runId":`) {
		if m.RunID, ok = d.str(); !ok {
			return false
		}
	}
	if !d.lit(`,"role":`) {
		return false
	}
	role, ok := d.str()
	if !ok || !d.lit(`,"content":`) {
		return false
	}
	m.Role = llm.Role(role)
	if m.Content, ok = d.str(); !ok {
		return false
	}
	if d.lit(`,"reasoning":`) {
		if m.Reasoning, ok = d.str(); !ok {
			return false
		}
	}
	if d.lit(`,"toolCalls":[`) {
		for {
			var tc llm.ToolCall
			if !d.toolCall(&tc) {
				return false
			}
			m.ToolCalls = append(m.ToolCalls, tc)
			if d.lit(`]`) {
				break
			}
			if !d.lit(`,`) {
				return false
			}
		}
	}
	if d.lit(`,"toolCallId":`) {
		if m.ToolCallID, ok = d.str(); !ok {
			return false
		}
	}
	if d.lit(`,"toolName":`) {
		if m.ToolName, ok = d.str(); !ok {
			return false
		}
	}
	return d.lit(`}`) && len(d.b) == 0
}

// decodeRun decodes a run line written by this package into r; ok is false
// when the line is not in that exact shape.
func decodeRun(line []byte, r *runLine) (ok bool) {
	d := lineDecoder{b: line}
	if !d.lit(`{"type":"run","at":`) {
		return false
	}
	at, ok := d.rawString()
	if !ok || r.At.UnmarshalJSON(at) != nil || !d.lit(`,"runId":`) {
		return false
	}
	r.Type = kindRun
	if r.RunID, ok = d.str(); !ok || !d.lit(`,"status":`) {
		return false
	}
	status, ok := d.str()
	if !ok || !d.lit(`,"final":`) {
		return false
	}
	r.Status = RunStatus(status)
	if r.Final, ok = d.str(); !ok {
		return false
	}
	if d.lit(`,"error":`) {
		if r.Error, ok = d.str(); !ok {
			return false
		}
	}
	if !d.lit(`,"usage":{"promptTokens":`) {
		return false
	}
	if r.Usage.PromptTokens, ok = d.integer(); !ok || !d.lit(`,"completionTokens":`) {
		return false
	}
	if r.Usage.CompletionTokens, ok = d.integer(); !ok || !d.lit(`},"durationMs":`) {
		return false
	}
	n, ok := d.integer()
	r.DurationMs = int64(n)
	return ok && d.lit(`}`) && len(d.b) == 0
}

// toolCall reads one element of toolCalls as llm.ToolCall encodes it.
func (d *lineDecoder) toolCall(tc *llm.ToolCall) bool {
	var ok bool
	if !d.lit(`{"id":`) {
		return false
	}
	if tc.ID, ok = d.str(); !ok || !d.lit(`,"name":`) {
		return false
	}
	if tc.Name, ok = d.str(); !ok || !d.lit(`,"arguments":`) {
		return false
	}
	if tc.Arguments, ok = d.object(); !ok {
		return false
	}
	for _, f := range []struct {
		name string
		dst  *bool
	}{{`,"unknown":true`, &tc.Unknown}, {`,"fromText":true`, &tc.FromText}, {`,"repaired":true`, &tc.Repaired}} {
		if d.lit(f.name) {
			*f.dst = true
		}
	}
	if d.lit(`,"argsError":`) {
		if tc.ArgsError, ok = d.str(); !ok {
			return false
		}
	}
	return d.lit(`}`)
}

// lineDecoder reads a line from its start.
type lineDecoder struct{ b []byte }

// lit consumes s when the line goes on with it.
func (d *lineDecoder) lit(s string) bool {
	if len(d.b) < len(s) || string(d.b[:len(s)]) != s {
		return false
	}
	d.b = d.b[len(s):]
	return true
}

// rawString consumes a string without escapes and returns it with its quotes.
func (d *lineDecoder) rawString() ([]byte, bool) {
	if len(d.b) < 2 || d.b[0] != '"' {
		return nil, false
	}
	end := bytes.IndexByte(d.b[1:], '"')
	if end < 0 || bytes.IndexByte(d.b[1:1+end], '\\') >= 0 {
		return nil, false
	}
	s := d.b[:end+2]
	d.b = d.b[end+2:]
	return s, true
}

// str consumes a JSON string and returns its value. It gives up on what
// encoding/json would read differently from the bytes: invalid UTF-8 (which
// becomes U+FFFD) and surrogate escapes.
func (d *lineDecoder) str() (string, bool) {
	b := d.b
	if len(b) == 0 || b[0] != '"' {
		return "", false
	}
	ascii := true
	i := 1
	for ; i < len(b); i++ {
		c := b[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if i == len(b) || b[i] < 0x20 {
		return "", false
	}
	if b[i] == '"' {
		if !ascii && !utf8.Valid(b[1:i]) {
			return "", false
		}
		d.b = b[i+1:]
		return share(b[1:i]), true
	}
	// Escapes: build the value.
	out := make([]byte, 0, len(b))
	out = append(out, b[1:i]...)
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return "", false
			}
			d.b = b[i+1:]
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(b) {
			return "", false
		}
		switch e := b[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if i+6 > len(b) {
				return "", false
			}
			r, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 32)
			if err != nil || utf16.IsSurrogate(rune(r)) {
				return "", false
			}
			out = utf8.AppendRune(out, rune(r))
			i += 6
			continue
		default:
			return "", false
		}
		i += 2
	}
	return "", false
}

// integer consumes a JSON number that is an int without exponent or fraction.
func (d *lineDecoder) integer() (int, bool) {
	i := 0
	if i < len(d.b) && d.b[i] == '-' {
		i++
	}
	start := i
	for i < len(d.b) && d.b[i] >= '0' && d.b[i] <= '9' {
		i++
	}
	// JSON allows no leading zeros; encoding/json would reject "01".
	if i == start || i-start > 1 && d.b[start] == '0' {
		return 0, false
	}
	n, err := strconv.Atoi(string(d.b[:i]))
	if err != nil {
		return 0, false
	}
	d.b = d.b[i:]
	return n, true
}

// share returns b as a string without copying it: the parser's input (a
// file read whole, or bytes appended) is never written again, and the
// strings of a session's messages are most of its bytes, so sharing halves
// what loading a long chat allocates. A string keeps its whole input alive,
// which the kept state of the session does anyway.
func share(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// object consumes a JSON object and returns a copy of its bytes.
func (d *lineDecoder) object() (json.RawMessage, bool) {
	b := d.b
	if len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	depth, inStr := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				v := b[:i+1]
				if c != '}' || !json.Valid(v) {
					return nil, false
				}
				d.b = b[i+1:]
				return bytes.Clone(v), true
			}
		}
	}
	return nil, false
}
