package agent

import (
	"fmt"
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
	// redact masks secrets in error and notice texts: a provider's error
	// may quote a request that held a key.
	redact func(string) string
}

func (em *emitter) emit(t event.Type, data any) {
	em.mu.Lock()
	defer em.mu.Unlock()
	if em.finished {
		return // nothing may follow run_finished
	}
	if em.redact != nil {
		switch d := data.(type) {
		case event.ErrorData:
			d.Message, d.Hint = em.redact(d.Message), em.redact(d.Hint)
			data = d
		case event.NoticeData:
			d.Message = em.redact(d.Message)
			if len(d.Args) > 0 {
				args := make(map[string]string, len(d.Args))
				for k, v := range d.Args {
					args[k] = em.redact(v)
				}
				d.Args = args
			}
			data = d
		}
	}
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

func (em *emitter) notice(level, format string, args ...any) {
	em.emit(event.Notice, event.NoticeData{Level: level, Message: fmt.Sprintf(format, args...)})
}

// say emits a notice the window words in its language (m) and the CLI prints in English.
func (em *emitter) say(level string, m i18n.Message) {
	em.emit(event.Notice, event.NoticeData{Level: level, Message: m.String(), Code: m.Code, Args: m.Args})
}
