package agent

import (
	"sync"

	"hearth/backend/event"
	"hearth/backend/i18n"
)

// emitter numbers and delivers the events of one run. Parallel tools emit
// from several goroutines; the lock keeps seq and delivery order the same.
type emitter struct {
	mu        sync.Mutex
	runID     string
	sessionID string
	seq       int64
	sinks     []event.Sink
	finished  bool
	// redact masks secrets in every text an event carries: a provider's error
	// may quote a request that held a key, a model may type one into its reply
	// or a tool's arguments.
	redact func(string) string
	// pending says how much of a streamed text's end may begin a secret; that
	// much is held back (held, by type) until the next piece or event.
	pending func(string) int
	held    map[event.Type]string
}

func (em *emitter) emit(t event.Type, data any) {
	em.mu.Lock()
	defer em.mu.Unlock()
	if em.finished {
		return // nothing may follow run_finished
	}
	if d, ok := data.(event.DeltaData); ok && d.Lines == nil && em.redact != nil && em.pending != nil {
		em.flushHeld(t) // reasoning before text, in the order they came
		s := em.held[t] + d.Text
		n := em.pending(s)
		if em.held == nil {
			em.held = map[event.Type]string{}
		}
		em.held[t] = s[len(s)-n:]
		if n == len(s) {
			return
		}
		em.send(t, event.DeltaData{Text: em.redact(s[:len(s)-n])})
		return
	}
	em.flushHeld("")
	em.send(t, em.masked(data))
}

// tell emits an event from outside the run (a message sent to the chat meanwhile):
// nothing when there is no emitter yet, nor before run_started.
func (em *emitter) tell(t event.Type, data any) {
	if em == nil {
		return
	}
	em.mu.Lock()
	started := em.seq > 0
	em.mu.Unlock()
	if started {
		em.emit(t, data)
	}
}

// args is a copy of a message's arguments with every secret masked.
func (em *emitter) args(in map[string]string) map[string]string {
	if len(in) == 0 {
		return in
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = em.redact(v)
	}
	return out
}

// lines is a copy of ls with every secret in their arguments masked.
func (em *emitter) lines(ls []event.Line) []event.Line {
	if ls == nil {
		return nil
	}
	out := make([]event.Line, len(ls))
	for i, l := range ls {
		out[i] = event.Line{Code: l.Code, Args: em.args(l.Args)}
	}
	return out
}

// flushHeld sends the held back text of every stream but keep.
func (em *emitter) flushHeld(keep event.Type) {
	for _, t := range []event.Type{event.ReasoningDelta, event.TextDelta} {
		if s := em.held[t]; s != "" && t != keep {
			delete(em.held, t)
			em.send(t, event.DeltaData{Text: em.redact(s)})
		}
	}
}

// masked is data with every secret in its texts masked.
func (em *emitter) masked(data any) any {
	if em.redact == nil {
		return data
	}
	switch d := data.(type) {
	case event.ErrorData:
		d.Message, d.Hint, d.Detail = em.redact(d.Message), em.redact(d.Hint), em.redact(d.Detail)
		if d.Text != nil {
			d.Text = &em.lines([]event.Line{*d.Text})[0]
		}
		d.HintText = em.lines(d.HintText)
		return d
	case event.NoticeData:
		d.Message = em.redact(d.Message)
		d.Args = em.args(d.Args)
		return d
	case event.DeltaData:
		d.Text = em.redact(d.Text)
		d.Lines = em.lines(d.Lines)
		return d
	case event.ToolCallData:
		// A key holds no character JSON escapes: masking the text keeps it JSON.
		if len(d.Args) > 0 {
			d.Args = []byte(em.redact(string(d.Args)))
		}
		return d
	case event.ToolResultData:
		d.Content = em.redact(d.Content)
		return d
	case event.FinishedData:
		d.Final = em.redact(d.Final)
		return d
	}
	return data
}

// send delivers one event; the caller holds em.mu.
func (em *emitter) send(t event.Type, data any) {
	em.seq++
	ev := event.Event{RunID: em.runID, SessionID: em.sessionID, Seq: em.seq, Type: t, Data: data}
	if t == event.RunFinished {
		em.finished = true
	}
	for _, s := range em.sinks {
		if s != nil {
			deliver(s, ev)
		}
	}
}

// deliver calls one sink; a sink that panics (a UI or log bug) loses that
// event but never takes the run, or a parallel tool's goroutine, down.
func deliver(s event.Sink, ev event.Event) {
	defer func() { _ = recover() }()
	s(ev)
}

// say emits a notice the window words in its language (m) and the CLI prints in English.
func (em *emitter) say(level string, m i18n.Message) {
	d := event.NoticeData{Level: level, Message: m.String(), Code: m.Code, Args: m.Args}
	for k, ms := range m.Lists {
		if d.Lists == nil {
			d.Lists = map[string][]event.Line{}
		}
		d.Lists[k] = make([]event.Line, len(ms))
		for i, x := range ms {
			d.Lists[k][i] = line(x)
		}
	}
	em.emit(event.Notice, d)
}

// line is m for the window (one level: a list's messages have no lists of their own).
func line(m i18n.Message) event.Line { return event.Line{Code: m.Code, Args: m.Args} }
