package agent

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/llm"
)

// Remote is a provider that says where it answers from (the models service's): Cloud
// is a provider other than the local engine, which may only hand a run over when it
// cannot be reached if the user opted in (Tuning.CloudDown); LocalOnlyBlocked is one
// that local-only mode would refuse right now, so it is never tried as a fallback.
type Remote interface {
	Cloud() bool
	LocalOnlyBlocked() bool
}

// errFirstToken is the cause of a request cut off for saying nothing in time.
var errFirstToken = errors.New("no first token in time")

// chain is the run's fallbacks still to try: the configured ones, in order, without
// the run's own model and without repeats.
func (l *loop) chain() []string {
	var out []string
	for _, f := range l.t.Fallbacks {
		f = strings.TrimSpace(f)
		if f != "" && f != l.model && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// resolveChain resolves the run's model, turning to the next fallback while the one
// at hand cannot answer (not installed, no provider).
func (l *loop) resolveChain() error {
	err := l.resolve()
	for err != nil && l.fallBack(err) {
		err = l.resolve()
	}
	return err
}

// fallBack makes the next usable fallback the run's model after err, and tells the
// user which model answers and why. It never switches once the user saw any part of
// an answer, after Stop, or for an error another model would not mend (a conversation
// too long for the window); a fallback that local-only mode would refuse is skipped
// and said so. It reports whether the run goes on with another model.
func (l *loop) fallBack(err error) bool {
	if l.answered || l.ctx.Err() != nil || len(l.next) == 0 {
		return false
	}
	code, detail, ok := l.failure(err)
	if !ok {
		return false
	}
	for len(l.next) > 0 {
		name := l.next[0]
		l.next = l.next[1:]
		p, _, rerr := l.r.opts.Resolve(name)
		if rerr != nil {
			l.em.say(event.LevelWarning, i18n.M("notice.fallback.unusable", "model", name, "detail", rerr.Error()))
			continue
		}
		if r, ok := p.(Remote); ok && r.LocalOnlyBlocked() {
			l.em.say(event.LevelWarning, i18n.M("notice.fallback.skipped", "model", name))
			continue
		}
		l.em.say(event.LevelWarning, i18n.M(code, "from", l.model, "model", name, "detail", detail,
			"seconds", strconv.Itoa(int(l.t.FirstToken/time.Second))))
		l.model, l.provider = name, nil
		return true
	}
	return false
}

// failure names the notice of a failure another model may mend, with its detail.
func (l *loop) failure(err error) (code, detail string, ok bool) {
	if errors.Is(err, errFirstToken) {
		return "notice.fallback.timeout", "", true
	}
	var re *runError
	if errors.As(err, &re) {
		// The model could not be resolved (no such provider, not set up).
		return "notice.fallback.error", re.why.Text.String(), re.code == event.CodeModel
	}
	le, isLLM := llm.AsError(err)
	if !isLLM {
		return "", "", false
	}
	cloud := false
	if r, ok := l.provider.(Remote); ok {
		cloud = r.Cloud()
	}
	switch le.Kind {
	case llm.KindContextOverflow:
		return "", "", false
	case llm.KindModelNotFound:
		return "notice.fallback.missing", "", true
	case llm.KindUnreachable:
		return "notice.fallback.unreachable", "", !cloud || l.t.CloudDown
	case llm.KindLocalOnly:
		return "notice.fallback.localOnly", "", l.t.CloudDown
	}
	msg := strings.ToLower(le.Error())
	if le.Why.Text.Code == "error.ollama.noMemory" || strings.Contains(msg, "load") {
		return "notice.fallback.load", le.Error(), true
	}
	return "notice.fallback.error", le.Error(), true
}

// firstWatch bounds the wait for a request's first token: past the deadline the
// request is cut off, and what comes after is not shown (the next model answers).
type firstWatch struct {
	mu          sync.Mutex
	seen, fired bool
}

// see marks a token come; false: too late, the request was cut off.
func (w *firstWatch) see() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = !w.fired
	return w.seen
}

// fire cuts the request off unless a token came.
func (w *firstWatch) fire() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.fired = !w.seen
	return w.fired
}

// chat sends one request; while the run has shown nothing yet and another model could
// still answer, a request that says nothing within Tuning.FirstToken is cut off and
// fails with errFirstToken.
func (l *loop) chat(req llm.Request) (llm.Response, error) {
	d := l.t.FirstToken
	if l.answered || d <= 0 || len(l.next) == 0 {
		return l.provider.Chat(l.ctx, req, l.onChunk)
	}
	ctx, cancel := context.WithCancelCause(l.ctx)
	defer cancel(nil)
	w := &firstWatch{}
	t := time.AfterFunc(d, func() {
		if w.fire() {
			cancel(errFirstToken)
		}
	})
	l.watch = w
	resp, err := l.provider.Chat(ctx, req, l.onChunk)
	t.Stop()
	l.watch = nil
	w.mu.Lock()
	fired := w.fired
	w.mu.Unlock()
	if fired {
		return llm.Response{}, &runError{code: event.CodeModel, err: errFirstToken,
			why: i18n.P("error.model.firstToken", "model", l.model, "seconds", strconv.Itoa(int(d/time.Second)))}
	}
	return resp, err
}
