package llm

import (
	"strings"
)

// Tags and fences the text fallback looks for.
const (
	tagThinkOpen  = "<think>"
	tagThinkClose = "</think>"
	tagCallOpen   = "<tool_call>"
	tagCallClose  = "</tool_call>"
	fence         = "```"
)

// Filter modes.
const (
	modeText  = iota
	modeThink // inside <think>…</think>
	modeCode  // inside a fence that cannot hold a tool call: pass through
)

// textFilter splits streamed reply text into visible text, reasoning
// (<think> blocks) and tool calls printed as text (F-TOOLFALLBACK). Text that
// might be the start of a call is held back until it can be decided, so the
// user never sees a call flash by; everything else streams through at once.
// The result depends only on the text, never on how it was split into deltas.
type textFilter struct {
	offered map[string]bool
	pending string
	mode    int
	// atLineStart is true while the visible text emitted since the last
	// newline is only blanks: a bare JSON call must start a line.
	atLineStart bool
	out         []Chunk
}

func newTextFilter(offered map[string]bool) *textFilter {
	return &textFilter{offered: offered, atLineStart: true}
}

// write feeds a text delta and returns the chunks that can be released.
func (f *textFilter) write(s string) []Chunk {
	f.pending += s
	f.run(false)
	return f.take()
}

// flush releases everything still held at the end of the reply.
func (f *textFilter) flush() []Chunk {
	f.run(true)
	return f.take()
}

func (f *textFilter) take() []Chunk {
	out := f.out
	f.out = nil
	return out
}

func (f *textFilter) emitText(s string) {
	if s == "" {
		return
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		f.atLineStart = strings.TrimLeft(s[i+1:], " \t\r") == ""
	} else if strings.TrimLeft(s, " \t\r") != "" {
		f.atLineStart = false
	}
	if n := len(f.out); n > 0 && f.out[n-1].Kind == ChunkText {
		f.out[n-1].Text += s
		return
	}
	f.out = append(f.out, Chunk{Kind: ChunkText, Text: s})
}

func (f *textFilter) emitReasoning(s string) {
	if s == "" {
		return
	}
	if n := len(f.out); n > 0 && f.out[n-1].Kind == ChunkReasoning {
		f.out[n-1].Text += s
		return
	}
	f.out = append(f.out, Chunk{Kind: ChunkReasoning, Text: s})
}

func (f *textFilter) emitCalls(calls []ToolCall) {
	for i := range calls {
		c := calls[i]
		f.out = append(f.out, Chunk{Kind: ChunkToolCall, ToolCall: &c})
	}
}

// run consumes as much of pending as can be decided. With final set,
// everything is decided.
func (f *textFilter) run(final bool) {
	for f.pending != "" {
		var progressed bool
		switch f.mode {
		case modeThink:
			progressed = f.passUntil(tagThinkClose, final, f.emitReasoning)
		case modeCode:
			progressed = f.passUntil(fence, final, f.emitText)
		default:
			progressed = f.stepText(final)
		}
		if !progressed {
			return
		}
	}
}

// passUntil emits pending through emit until the closing marker (consumed and,
// for fences, emitted too), then returns to text mode.
func (f *textFilter) passUntil(marker string, final bool, emit func(string)) bool {
	if i := strings.Index(f.pending, marker); i >= 0 {
		emit(f.pending[:i])
		if marker == fence {
			emit(marker)
		}
		f.pending = f.pending[i+len(marker):]
		f.mode = modeText
		return true
	}
	keep := 0
	if !final {
		keep = partialSuffix(f.pending, marker)
	}
	emit(f.pending[:len(f.pending)-keep])
	f.pending = f.pending[len(f.pending)-keep:]
	return false
}

func (f *textFilter) toolsOffered() bool { return len(f.offered) > 0 }

// stepText handles text mode: emit up to the next construct and deal with it.
// It returns false when it must wait for more text.
func (f *textFilter) stepText(final bool) bool {
	start, kind := f.nextConstruct()
	if start < 0 {
		keep := 0
		if !final {
			keep = f.holdSuffix()
		}
		f.emitText(f.pending[:len(f.pending)-keep])
		f.pending = f.pending[len(f.pending)-keep:]
		return false
	}
	f.emitText(f.pending[:start])
	f.pending = f.pending[start:]
	switch kind {
	case tagThinkOpen:
		f.pending = f.pending[len(tagThinkOpen):]
		f.mode = modeThink
		return true
	case tagCallOpen:
		return f.stepTaggedCall(final)
	case fence:
		return f.stepFence(final)
	default:
		return f.stepBareJSON(final)
	}
}

// nextConstruct finds the earliest <think>, <tool_call>, fence or line-start
// '{' in pending.
func (f *textFilter) nextConstruct() (int, string) {
	best, kind := -1, ""
	consider := func(i int, k string) {
		if i >= 0 && (best < 0 || i < best) {
			best, kind = i, k
		}
	}
	consider(strings.Index(f.pending, tagThinkOpen), tagThinkOpen)
	if f.toolsOffered() {
		consider(strings.Index(f.pending, tagCallOpen), tagCallOpen)
		consider(strings.Index(f.pending, fence), fence)
		consider(f.lineStartBrace(), "{")
	}
	return best, kind
}

// lineStartBrace finds the first '{' that only blanks precede on its line.
func (f *textFilter) lineStartBrace() int {
	atStart := f.atLineStart
	for i := 0; i < len(f.pending); i++ {
		switch c := f.pending[i]; c {
		case '\n':
			atStart = true
		case ' ', '\t', '\r':
		case '{':
			if atStart {
				return i
			}
			atStart = false
		default:
			atStart = false
		}
	}
	return -1
}

// holdSuffix is how many trailing bytes of pending might begin a construct.
func (f *textFilter) holdSuffix() int {
	n := partialSuffix(f.pending, tagThinkOpen)
	if f.toolsOffered() {
		n = max(n, partialSuffix(f.pending, tagCallOpen), partialSuffix(f.pending, fence))
	}
	return n
}

func (f *textFilter) stepTaggedCall(final bool) bool {
	body := f.pending[len(tagCallOpen):]
	end := strings.Index(body, tagCallClose)
	if end < 0 && !final {
		return false
	}
	segment := f.pending
	rest := ""
	if end >= 0 {
		segment = f.pending[:len(tagCallOpen)+end+len(tagCallClose)]
		rest = body[end+len(tagCallClose):]
		body = body[:end]
	}
	if calls, ok := parseCallPayload(body, f.offered, true); ok {
		f.emitCalls(calls)
	} else {
		f.emitText(segment)
	}
	f.pending = rest
	return true
}

func (f *textFilter) stepFence(final bool) bool {
	after := f.pending[len(fence):]
	nl := strings.IndexByte(after, '\n')
	if nl < 0 {
		if !final {
			return false
		}
		f.emitText(f.pending)
		f.pending = ""
		return true
	}
	lang := strings.ToLower(strings.TrimSpace(after[:nl]))
	switch lang {
	case "", "json", "tool_call", "tool", "tool_code", "function_call":
	default:
		// A code block: show it as it streams.
		f.emitText(f.pending[:len(fence)+nl+1])
		f.pending = after[nl+1:]
		f.mode = modeCode
		return true
	}
	body := after[nl+1:]
	if t := strings.TrimLeft(body, " \t\r\n"); t != "" && t[0] != '{' && t[0] != '[' {
		// Not JSON: a code block without a language. Let it stream.
		f.emitText(f.pending[:len(fence)+nl+1])
		f.pending = body
		f.mode = modeCode
		return true
	}
	end := strings.Index(body, fence)
	if end < 0 && !final {
		return false
	}
	segment, rest := f.pending, ""
	if end >= 0 {
		segment = f.pending[:len(fence)+nl+1+end+len(fence)]
		rest = body[end+len(fence):]
		body = body[:end]
	}
	if calls, ok := parseCallPayload(body, f.offered, false); ok {
		f.emitCalls(calls)
		f.pending = rest
		return true
	}
	if end < 0 {
		f.emitText(segment)
		f.pending = ""
		return true
	}
	// Not a call: release the fence line and let the body stream as code.
	f.emitText(f.pending[:len(fence)+nl+1])
	f.pending = after[nl+1:]
	f.mode = modeCode
	return true
}

func (f *textFilter) stepBareJSON(final bool) bool {
	decided, looksLikeCall := callObjectPrefix(f.pending)
	if !decided && !final {
		return false
	}
	if !looksLikeCall {
		f.emitText("{")
		f.pending = f.pending[1:]
		return true
	}
	end := objectEnd(f.pending)
	if end < 0 && !final {
		return false
	}
	segment, rest := f.pending, ""
	if end >= 0 {
		segment, rest = f.pending[:end], f.pending[end:]
	}
	if calls, ok := parseCallPayload(segment, f.offered, false); ok {
		f.emitCalls(calls)
		f.pending = rest
		return true
	}
	f.emitText("{")
	f.pending = f.pending[1:]
	return true
}

// partialSuffix is the length of the longest proper prefix of marker that
// s ends with.
func partialSuffix(s, marker string) int {
	for n := min(len(marker)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, marker[:n]) {
			return n
		}
	}
	return 0
}

// callKeys are the first keys with which models start a JSON tool call.
var callKeys = [...]string{"name", "function", "tool", "tool_name", "type", "id", "arguments", "parameters", "action"}

// callObjectPrefix decides whether s (starting with '{') begins like a tool
// call object: `{ "name"`, `{"function"`, …
func callObjectPrefix(s string) (decided, match bool) {
	i := 1
	for i < len(s) && strings.IndexByte(" \t\r\n", s[i]) >= 0 {
		i++
	}
	if i == len(s) {
		return false, false
	}
	if s[i] != '"' {
		return true, false
	}
	key := s[i+1:]
	q := strings.IndexByte(key, '"')
	if q < 0 {
		for _, k := range callKeys {
			if strings.HasPrefix(k, key) {
				return false, false // the key is still being typed
			}
		}
		return true, false
	}
	key = key[:q]
	for _, k := range callKeys {
		if k == key {
			return true, true
		}
	}
	return true, false
}

// objectEnd returns the index just after the JSON object that s starts with,
// or -1 when it is not closed yet. Strings and escapes are honoured.
func objectEnd(s string) int {
	depth, inStr, esc := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}
