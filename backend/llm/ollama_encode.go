package llm

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"unicode/utf8"

	"hearth/backend/i18n"
)

// The /api/chat request is written here field by field instead of through
// json.Marshal. Every round of a turn sends the whole conversation again, so
// the encoder runs over a growing history dozens of times a turn: reflection
// over each field and, worst, json.Marshal's re-scan and re-compaction of
// every json.RawMessage (the encoded tool list is kilobytes long) made encoding the
// largest part of a tool round's CPU. The output is byte for byte what
// json.Marshal(wireChatRequest) gives (TestChatEncoderMatchesMarshal and
// FuzzChatEncoder hold it to that), HTML characters escaped as it escapes them.

// appendChatRequest appends the JSON of w to dst. With a cache, the messages
// an earlier request of the same conversation sent are copied from its
// encoding instead of encoded again (see messageCache).
func appendChatRequest(dst []byte, w *wireChatRequest, cache *messageCache) ([]byte, error) {
	dst = append(dst, `{"model":`...)
	dst = appendJSONString(dst, w.Model)
	dst = append(dst, `,"messages":`...)
	if w.Messages == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		var err error
		if dst, err = cache.appendMessages(dst, w.Messages); err != nil {
			return nil, err
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"stream":`...)
	dst = strconv.AppendBool(dst, w.Stream)
	if len(w.Tools) > 0 {
		// json.Marshal's own output (encodeTools): already compact and escaped.
		dst = append(dst, `,"tools":`...)
		dst = append(dst, w.Tools...)
	}
	// The options and think are a few small values: json.Marshal's own
	// formatting of numbers stays in charge of them.
	opts, err := json.Marshal(w.Options)
	if err != nil {
		return nil, err
	}
	dst = append(dst, `,"options":`...)
	dst = append(dst, opts...)
	if w.Think != nil {
		think, err := json.Marshal(w.Think)
		if err != nil {
			return nil, err
		}
		dst = append(dst, `,"think":`...)
		dst = append(dst, think...)
	}
	if w.Truncate != nil {
		dst = append(dst, `,"truncate":`...)
		dst = strconv.AppendBool(dst, *w.Truncate)
	}
	if w.Shift != nil {
		dst = append(dst, `,"shift":`...)
		dst = strconv.AppendBool(dst, *w.Shift)
	}
	return append(dst, '}'), nil
}

func appendWireMessage(dst []byte, m *wireMessage) ([]byte, error) {
	dst = append(dst, `{"role":`...)
	dst = appendJSONString(dst, m.Role)
	dst = append(dst, `,"content":`...)
	dst = appendJSONString(dst, m.Content)
	if m.Thinking != "" {
		dst = append(dst, `,"thinking":`...)
		dst = appendJSONString(dst, m.Thinking)
	}
	if len(m.Images) > 0 {
		dst = append(dst, `,"images":[`...)
		for i, img := range m.Images {
			if i > 0 {
				dst = append(dst, ',')
			}
			if img == nil {
				dst = append(dst, "null"...)
				continue
			}
			dst = append(dst, '"')
			dst = base64.StdEncoding.AppendEncode(dst, img)
			dst = append(dst, '"')
		}
		dst = append(dst, ']')
	}
	if len(m.ToolCalls) > 0 {
		dst = append(dst, `,"tool_calls":[`...)
		for i, tc := range m.ToolCalls {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '{')
			if tc.ID != "" {
				dst = append(dst, `"id":`...)
				dst = appendJSONString(dst, tc.ID)
				dst = append(dst, ',')
			}
			dst = append(dst, `"function":{"index":`...)
			dst = strconv.AppendInt(dst, int64(tc.Function.Index), 10)
			dst = append(dst, `,"name":`...)
			dst = appendJSONString(dst, tc.Function.Name)
			dst = append(dst, `,"arguments":`...)
			args := tc.Function.Arguments
			if len(args) == 0 || args[0] != '{' || !json.Valid(args) {
				return nil, fail(KindBadResponse, nil, i18n.M("error.badHistoryCall", "tool", tc.Function.Name).WithHint(hintDamaged))
			}
			var err error
			if dst, err = appendRawJSON(dst, args); err != nil {
				return nil, err
			}
			dst = append(dst, "}}"...)
		}
		dst = append(dst, ']')
	}
	if m.ToolName != "" {
		dst = append(dst, `,"tool_name":`...)
		dst = appendJSONString(dst, m.ToolName)
	}
	if m.ToolCallID != "" {
		dst = append(dst, `,"tool_call_id":`...)
		dst = appendJSONString(dst, m.ToolCallID)
	}
	return append(dst, '}'), nil
}

// appendRawJSON appends raw, valid JSON, as json.Marshal writes a
// json.RawMessage: compacted with HTML characters escaped. What is already
// compact and holds nothing to escape, as tool arguments usually are, is
// copied as it is.
func appendRawJSON(dst []byte, raw json.RawMessage) ([]byte, error) {
	if plainJSON(raw) {
		return append(dst, raw...), nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	if bytes.ContainsAny(b.Bytes(), "<>&\u2028\u2029") {
		var e bytes.Buffer
		json.HTMLEscape(&e, b.Bytes())
		return append(dst, e.Bytes()...), nil
	}
	return append(dst, b.Bytes()...), nil
}

// plainJSON reports whether raw has no byte that compaction or HTML escaping
// would change: no white space and no <, >, & or non-ASCII byte at all.
func plainJSON(raw []byte) bool {
	for _, c := range raw {
		if c <= ' ' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string exactly as encoding/json does
// with HTML escaping on: <, > and & as \u003c…, U+2028 and U+2029 escaped,
// invalid UTF-8 as \ufffd. Runs of plain ASCII are copied in one piece.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plainByte[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainByte marks the ASCII bytes a JSON string holds as they are.
var plainByte = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// messageCache keeps the encoded messages of the last few requests. A turn's
// rounds send the same conversation again with a few messages more (the
// system prompt is the run's own, an old tool result turns into its
// placeholder only as it ages out), so each request copies the longest run of
// leading messages it shares with one of them and encodes only the rest: a
// round costs what it adds, not the length of the conversation. Messages are
// compared by value (equal strings are usually the same string, which Go
// compares at once). A nil cache encodes everything.
type messageCache struct {
	mu     sync.Mutex
	recent [maxSentRequests]*sentMessages // most recent first
}

// maxSentRequests is how many requests are kept: the conversations that run
// at the same time (a chat, the heartbeat, a reminder) each find their own.
const maxSentRequests = 4

// sentMessages is one request's messages and their encoding: "m0,m1,…",
// ends[i] the end of message i in it. enc is part of the request body, which
// nothing writes to after it is built.
type sentMessages struct {
	msgs []wireMessage
	enc  []byte
	ends []int
}

// appendMessages appends the messages of a JSON array, comma-separated.
func (c *messageCache) appendMessages(dst []byte, msgs []wireMessage) ([]byte, error) {
	start := len(dst)
	ends := make([]int, 0, len(msgs))
	from, slot := 0, maxSentRequests-1 // a new conversation replaces the least recent
	if c != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, s := range c.recent {
			if s == nil {
				continue
			}
			if n := sharedPrefix(s.msgs, msgs); n > from {
				from, slot = n, i
			}
		}
		if from > 0 {
			s := c.recent[slot]
			dst = append(dst, s.enc[:s.ends[from-1]]...)
			ends = append(ends, s.ends[:from]...)
		}
	}
	for i := from; i < len(msgs); i++ {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendWireMessage(dst, &msgs[i]); err != nil {
			return nil, err
		}
		ends = append(ends, len(dst)-start)
	}
	if c != nil {
		copy(c.recent[1:slot+1], c.recent[:slot])
		c.recent[0] = &sentMessages{msgs: msgs, enc: dst[start:len(dst):len(dst)], ends: ends}
	}
	return dst, nil
}

// sharedPrefix is how many leading messages a and b have in common.
func sharedPrefix(a, b []wireMessage) int {
	n := min(len(a), len(b))
	for i := range n {
		if !sameWireMessage(&a[i], &b[i]) {
			return i
		}
	}
	return n
}

func sameWireMessage(a, b *wireMessage) bool {
	if a.Role != b.Role || a.Content != b.Content || a.Thinking != b.Thinking || a.ToolName != b.ToolName ||
		a.ToolCallID != b.ToolCallID || len(a.Images) != len(b.Images) || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i := range a.Images {
		if (a.Images[i] == nil) != (b.Images[i] == nil) || !bytes.Equal(a.Images[i], b.Images[i]) {
			return false
		}
	}
	for i := range a.ToolCalls {
		x, y := &a.ToolCalls[i], &b.ToolCalls[i]
		if x.ID != y.ID || x.Function.Index != y.Function.Index || x.Function.Name != y.Function.Name ||
			!bytes.Equal(x.Function.Arguments, y.Function.Arguments) {
			return false
		}
	}
	return true
}
