package llm

import (
	"strings"
)

// Filter modes.
const (
	modeText  = iota
	modeThink // inside <think>…</think>
	modeCode  // inside a fence that holds no call: pass through
	modeValue // inside a JSON value that is not a call: pass through to its end
)

// textFilter splits streamed reply text into visible text, reasoning
// (<think> blocks) and tool calls printed as text, in the shapes listed in
// callforms.go. Text that might be the start of a call is held back only
// until it can be decided, so the user never sees a call flash by, and is
// released the moment it cannot be one. The result depends only on the
// text, never on how it was split into deltas, and the work per delta is
// bounded by the delta and small fixed windows, never by the length of the
// reply or of a held call.
type textFilter struct {
	offered map[string]bool
	// pending is text not yet decided: a cut-off marker, or a candidate call
	// starting at pending[0] (cand). Once more text is appended to it, it is
	// a view of buf from off (inBuf): appending to a builder keeps a long
	// held call from being copied on every delta.
	pending string
	buf     strings.Builder
	off     int
	inBuf   bool
	cand    *candidate
	mode    int
	skip    depthScan // modeValue
	// atLineStart: the visible text since the last newline is only blanks.
	atLineStart bool
	// replyStart: no visible text but blanks yet (GLM-4's and functionary's
	// name-first calls can only start the reply).
	replyStart bool
	// afterCall: a call was the last thing out (blanks aside): a closing
	// token that follows it belongs to it.
	afterCall bool
	prevByte  byte // last byte of visible text, 0 before any
	out       []Chunk
}

// candidate is a possible call at pending[0].
type candidate struct {
	form *callForm
	// The bracketed value the form is waiting for: it starts at valAt
	// (-1: not known yet), pending[:fed] has been scanned and valEnd is its
	// end (-1: open). spans are finished values of a ";"-separated list.
	valAt, fed, valEnd int
	val                depthScan
	spans              [][2]int
	// search: pending[:search] holds no closing tag (resume offset); forms
	// without a closing tag keep the end of the call's name here.
	search int
	// lead caches a plausible early verdict (verdicts are monotone).
	lead lead
	// seqEnd is the end of a finished ";"-separated list, 0 before.
	seqEnd int
}

func newTextFilter(offered map[string]bool) *textFilter {
	return &textFilter{offered: offered, atLineStart: true, replyStart: true}
}

// write feeds a text delta and returns the chunks that can be released.
func (f *textFilter) write(s string) []Chunk {
	if f.pending == "" {
		f.pending = s
	} else {
		if !f.inBuf {
			// Reset leaves the old bytes, which pending may point at, alone.
			f.buf.Reset()
			f.buf.WriteString(f.pending)
			f.off, f.inBuf = 0, true
		}
		f.buf.WriteString(s)
		f.pending = f.buf.String()[f.off:]
	}
	f.run(false)
	return f.take()
}

// consume drops the first n bytes of pending.
func (f *textFilter) consume(n int) {
	f.pending = f.pending[n:]
	f.off += n
	if f.pending == "" || f.off > 4096 && f.off > 2*len(f.pending) {
		// Done with the buffer, or mostly: the next write copies what is
		// left into a fresh one (amortised).
		f.inBuf = false
	}
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
	if strings.TrimLeft(s, " \t\r\n") != "" {
		f.replyStart, f.afterCall = false, false
	}
	f.prevByte = s[len(s)-1]
	f.emit(ChunkText, s)
}

func (f *textFilter) emitReasoning(s string) {
	if s != "" {
		f.emit(ChunkReasoning, s)
	}
}

// emit adds s to the last chunk when it is of the same kind.
func (f *textFilter) emit(kind ChunkKind, s string) {
	if n := len(f.out); n > 0 && f.out[n-1].Kind == kind {
		f.out[n-1].Text += s
		return
	}
	f.out = append(f.out, Chunk{Kind: kind, Text: s})
}

func (f *textFilter) emitCalls(calls []ToolCall) {
	for _, c := range calls {
		f.out = append(f.out, Chunk{Kind: ChunkToolCall, ToolCall: &c})
	}
	f.replyStart, f.afterCall = false, true
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
		case modeValue:
			progressed = f.passValue()
		default:
			progressed = f.stepText(final)
		}
		if !progressed {
			return
		}
	}
}

const (
	tagThinkClose = "</think>"
	fence         = "```"
)

// passUntil emits pending through emit until the closing marker (consumed and,
// for fences, emitted too), then returns to text mode.
func (f *textFilter) passUntil(marker string, final bool, emit func(string)) bool {
	if i := strings.Index(f.pending, marker); i >= 0 {
		emit(f.pending[:i])
		if marker == fence {
			emit(marker)
		}
		f.consume(i + len(marker))
		f.mode = modeText
		return true
	}
	keep := 0
	if !final {
		keep = partialSuffix(f.pending, marker)
	}
	emit(f.pending[:len(f.pending)-keep])
	f.consume(len(f.pending) - keep)
	return false
}

// passValue shows a JSON value that is not a call as it streams, so that
// objects nested in it are not mistaken for calls.
func (f *textFilter) passValue() bool {
	e := f.skip.feed(f.pending)
	if e < 0 {
		f.emitText(f.pending)
		f.consume(len(f.pending))
		return false
	}
	f.emitText(f.pending[:e])
	f.consume(e)
	f.mode = modeText
	return true
}

// stepText handles text mode: emit up to the next construct and deal with it.
// It returns false when it must wait for more text.
func (f *textFilter) stepText(final bool) bool {
	if f.cand != nil {
		return f.stepCandidate(final)
	}
	i, form := f.findConstruct(final)
	if i < 0 {
		f.emitText(f.pending)
		f.consume(len(f.pending))
		return false
	}
	f.emitText(f.pending[:i])
	f.consume(i)
	switch {
	case form == nil: // a marker cut off at the end: wait for the rest
		return false
	case form.kind == formThink:
		f.consume(len(form.open))
		f.mode = modeThink
		return true
	}
	f.cand = &candidate{form: form, valAt: -1, valEnd: -1}
	return true
}

// findConstruct returns where the first think block or possible call starts
// in pending and its form; a nil form means a marker cut off at the end of
// pending (never when final). i < 0: pending is plain text.
func (f *textFilter) findConstruct(final bool) (int, *callForm) {
	p := f.pending
	tools := len(f.offered) > 0
	atStart, replyStart := f.atLineStart, f.replyStart
	for i := 0; i < len(p); i++ {
		c := p[i]
		cutOff := false
		for _, form := range formsByByte[c] {
			switch {
			case !tools && form.kind != formThink || !f.placed(form, i, atStart):
			case strings.HasPrefix(p[i:], form.open):
				return i, form
			case !final && len(p)-i < len(form.open) && strings.HasPrefix(form.open, p[i:]):
				cutOff = true
			}
		}
		if cutOff {
			return i, nil
		}
		if tools && atStart {
			switch {
			case c == '{':
				return i, formBareObj
			case c == '[':
				return i, formBareLst
			case replyStart && isNameByte(c) && f.toolPrefix(p[i:i+1]):
				return i, formFirstLine
			}
		}
		switch c {
		case '\n':
			atStart = true
		case ' ', '\t', '\r':
		default:
			atStart, replyStart = false, false
		}
	}
	return -1, nil
}

// placed reports whether form's opener may start at pending[i].
func (f *textFilter) placed(form *callForm, i int, atStart bool) bool {
	switch {
	case form.lineStart:
		return atStart
	case form.wordStart:
		return atStart || isBlank(f.byteBefore(i))
	}
	return true
}

func (f *textFilter) byteBefore(i int) byte {
	if i > 0 {
		return f.pending[i-1]
	}
	return f.prevByte
}

func isBlank(c byte) bool { return c == 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (f *textFilter) toolPrefix(p string) bool {
	for n := range f.offered {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// outcome is what a form decided about the candidate at pending[0].
type outcome struct {
	wait  bool
	n     int        // bytes of pending decided
	calls []ToolCall // pending[:n] was these calls; otherwise it is text
	drop  bool       // pending[:n] is dropped (a closing token after a call)
	code  bool       // pending[:n] is a fence line: its block follows as code
	skip  bool       // pending[:n] is text, and so is the rest of the value being scanned
}

var waitMore = outcome{wait: true}

func asText(n int) outcome { return outcome{n: n} }

func (f *textFilter) stepCandidate(final bool) bool {
	c := f.cand
	o := f.decide(c, final)
	if o.wait {
		if !final {
			return false
		}
		o = asText(len(f.pending)) // never reached: every form decides when final
	}
	if o.n <= 0 || o.n > len(f.pending) {
		o = outcome{n: min(max(o.n, 1), len(f.pending))}
	}
	f.cand = nil
	switch {
	case len(o.calls) > 0:
		f.emitCalls(o.calls)
	case o.drop:
	default:
		f.emitText(f.pending[:o.n])
	}
	f.consume(o.n)
	switch {
	case o.code:
		f.mode = modeCode
	case o.skip:
		f.skip = c.val
		f.mode = modeValue
	}
	return true
}

func (f *textFilter) decide(c *candidate, final bool) outcome {
	switch c.form.kind {
	case formTagged:
		return f.stepTagged(c, final)
	case formMistral:
		return f.stepMistral(c, final)
	case formPythonTag:
		return f.stepPythonTag(c, final)
	case formFunctools:
		return f.stepFunctools(c, final)
	case formRecipient:
		return f.stepRecipient(c, final)
	case formFence:
		return f.stepFence(c, final)
	case formStray:
		if f.afterCall {
			return outcome{n: len(c.form.open), drop: true}
		}
		return asText(len(c.form.open))
	case formBareObject:
		return f.stepBareObject(c, final)
	case formBareList:
		return f.stepBareList(c, final)
	case formNameLine:
		return f.stepNameLine(c, final)
	}
	return asText(len(f.pending))
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
