package session

import (
	"bytes"
	"encoding/binary"
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
	if d.lit(`,"model":`) {
		if r.Model, ok = d.str(); !ok {
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
// becomes U+FFFD) and surrogate escapes. The bytes are scanned once to find
// the end; a string without escapes is shared with the input, one with
// escapes is written once into a buffer of its escaped length (it can only
// shrink), shared too: a long chat's tool results are full of \n and \t.
func (d *lineDecoder) str() (string, bool) {
	b := d.b
	if len(b) == 0 || b[0] != '"' {
		return "", false
	}
	escaped, ascii := false, true
	i := 1
	for ; i < len(b); i++ {
		// Most of a chat is plain ASCII text: eight bytes at a time.
		for i+8 <= len(b) && plainWord(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		if plainStringByte[c] {
			continue
		}
		if c == '"' {
			break
		}
		switch {
		case c == '\\':
			escaped = true
			i++ // the escaped byte cannot end the string; unescape checks it
		case c < 0x20:
			return "", false
		default:
			ascii = false
		}
	}
	if i >= len(b) {
		return "", false
	}
	raw := b[1:i]
	if escaped {
		var ok bool
		if raw, ok = unescape(raw); !ok {
			return "", false
		}
	}
	if !ascii && !utf8.Valid(raw) {
		return "", false
	}
	d.b = b[i+1:]
	return share(raw), true
}

// plainStringByte marks the bytes a JSON string holds as they are: printable
// ASCII but the quote and the backslash.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainWord reports whether all eight bytes of v are plainStringByte ones.
// A byte under 0x20 borrows into its high bit, a byte equal to the quote or
// the backslash is zero after the xor and borrows too, a non-ASCII byte has
// it set already. (A borrow can mark the byte after it as well, but only
// when a byte was marked already.)
func plainWord(v uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, bs := v^(ones*'"'), v^(ones*'\\')
	return ((v-ones*0x20)&^v|v|(q-ones)&^q|(bs-ones)&^bs)&highs == 0
}

// unescape is the value of the JSON string body raw, which has escapes; false
// for an escape encoding/json would read differently or not at all.
func unescape(raw []byte) ([]byte, bool) {
	out := make([]byte, 0, len(raw))
	for len(raw) > 0 {
		j := bytes.IndexByte(raw, '\\')
		if j < 0 {
			return append(out, raw...), true
		}
		out = append(out, raw[:j]...)
		if j+1 >= len(raw) {
			return nil, false
		}
		switch e := raw[j+1]; e {
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
			if j+6 > len(raw) {
				return nil, false
			}
			r, err := strconv.ParseUint(string(raw[j+2:j+6]), 16, 32)
			if err != nil || utf16.IsSurrogate(rune(r)) {
				return nil, false
			}
			out = utf8.AppendRune(out, rune(r))
			raw = raw[j+6:]
			continue
		default:
			return nil, false
		}
		raw = raw[j+2:]
	}
	return out, true
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
