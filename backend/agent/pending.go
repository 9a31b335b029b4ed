package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/llm"
	"hearth/backend/session"
)

// The modes of a message sent while a run of its chat goes on (docs/chat.md#while-it-works).
const (
	ModeSteer = session.ModeSteer // to the model at the running turn's next safe point
	ModeQueue = session.ModeQueue // the next turn when this one ends
	ModeStop  = "stop"            // stop the run as Stop does and start the turn at once
)

// Message is one message sent to a chat that may have a run going.
type Message struct {
	SessionID string
	Text      string
	// Mode is ModeSteer, ModeQueue or ModeStop; it only matters while a run goes on.
	Mode string
	// Channel is where it was typed ("cli"; empty for the window).
	Channel string
}

// Submit hands a message to its chat. With no run going (or for a slash command) it
// starts a turn at once, whatever the mode, and returns the run. With a run going, a
// steer or a queued message waits — saved, told on the run's stream as pending — and
// is returned; ModeStop stops the run as Stop does and, once it has ended, starts
// the turn. A new chat (SessionID empty) always starts a turn.
func (r *Runner) Submit(ctx context.Context, m Message, sink event.Sink) (*session.Pending, *Run, error) {
	req := Request{SessionID: m.SessionID, Text: m.Text, Channel: m.Channel}
	if _, _, slash := parseSlash(m.Text); slash || m.SessionID == "" {
		run, err := r.Start(ctx, req, sink)
		return nil, run, err
	}
	switch m.Mode {
	case ModeSteer, ModeQueue, ModeStop:
	default:
		return nil, nil, fmt.Errorf("send: mode %q (hint: use %q, %q or %q)", m.Mode, ModeSteer, ModeQueue, ModeStop)
	}
	if strings.TrimSpace(m.Text) == "" {
		return nil, nil, fmt.Errorf("send: empty message (hint: type something)")
	}
	r.mu.Lock()
	run, busy := r.active[m.SessionID]
	if !busy || r.closing {
		r.mu.Unlock()
		run, err := r.Start(ctx, req, sink)
		return nil, run, err
	}
	if m.Mode == ModeStop {
		r.mu.Unlock()
		next, err := r.stopAndStart(ctx, run, req, sink)
		return nil, next, err
	}
	em := run.em
	r.in.mu.Lock()
	r.mu.Unlock()
	defer r.in.mu.Unlock()
	p, err := r.in.addLocked(m.SessionID, m.Text, m.Mode, m.Channel)
	if err != nil {
		return nil, nil, err
	}
	em.tell(event.Pending, pendingData(p))
	return &p, nil, nil
}

// stopAndStart stops run as Stop does and starts req once it has ended. A turn that
// slipped in meanwhile (the run had just ended well and a queued message started) is
// stopped too, a few times at most.
func (r *Runner) stopAndStart(ctx context.Context, run *Run, req Request, sink event.Sink) (*Run, error) {
	for attempt := 1; ; attempt++ {
		if run != nil {
			r.Stop(req.SessionID)
			select {
			case <-run.done:
			case <-ctx.Done():
				return nil, fmt.Errorf("send: the run did not stop: %w", ctx.Err())
			}
		}
		next, err := r.Start(ctx, req, sink)
		if !errors.Is(err, ErrBusy) || attempt == 3 {
			return next, err
		}
		r.mu.Lock()
		run = r.active[req.SessionID]
		r.mu.Unlock()
	}
}

// Pending lists the messages waiting for a chat, in the order sent. Those saved by
// an earlier process, or left when their run stopped, are Held: no run takes them
// until SendPending.
func (r *Runner) Pending(sessionID string) ([]session.Pending, error) {
	return r.in.waiting(sessionID)
}

// EditPending changes a waiting message's text and mode (steer or queue) until a
// run takes it; the running turn's stream tells the change.
func (r *Runner) EditPending(sessionID, id, text, mode string) (session.Pending, error) {
	if mode != ModeSteer && mode != ModeQueue {
		return session.Pending{}, fmt.Errorf("edit: mode %q (hint: use %q or %q)", mode, ModeSteer, ModeQueue)
	}
	if strings.TrimSpace(text) == "" {
		return session.Pending{}, fmt.Errorf("edit: empty message (hint: remove it instead)")
	}
	em, unlock := r.lockInbox(sessionID)
	defer unlock()
	p, err := r.in.changeLocked(sessionID, id, func(p *session.Pending) { p.Text, p.Mode = text, mode })
	if err == nil {
		em.tell(event.Pending, pendingData(p))
	}
	return p, err
}

// RemovePending drops a waiting message; the running turn's stream tells it.
func (r *Runner) RemovePending(sessionID, id string) error {
	em, unlock := r.lockInbox(sessionID)
	defer unlock()
	_, err := r.in.removeLocked(sessionID, id)
	if err == nil {
		em.tell(event.PendingDropped, event.DroppedData{ID: id})
	}
	return err
}

// SendPending sends a held message again: it waits for the running turn in its mode,
// or, with none going, starts a turn at once (the run is returned).
func (r *Runner) SendPending(ctx context.Context, sessionID, id string, sink event.Sink) (*Run, error) {
	em, unlock := r.lockInbox(sessionID)
	if em != nil {
		defer unlock()
		p, err := r.in.changeLocked(sessionID, id, func(p *session.Pending) { p.Held = false })
		if err == nil {
			em.tell(event.Pending, pendingData(p))
		}
		return nil, err
	}
	p, err := r.in.takeOneLocked(sessionID, id)
	unlock()
	if err != nil {
		return nil, err
	}
	run, err := r.Start(ctx, Request{SessionID: sessionID, Text: p.Text, Channel: p.Channel}, sink)
	if err != nil {
		r.in.untake(sessionID, true, id)
		return nil, err
	}
	_ = r.in.done(sessionID, id) // the session holds it; a failure only offers it again
	return run, nil
}

// lockInbox locks the inbox and returns the emitter of the chat's running turn (nil
// when none goes) and the unlock.
func (r *Runner) lockInbox(sessionID string) (*emitter, func()) {
	r.mu.Lock()
	var em *emitter
	if run, ok := r.active[sessionID]; ok && !r.closing {
		em = run.em
	}
	r.in.mu.Lock()
	r.mu.Unlock()
	return em, r.in.mu.Unlock
}

func pendingData(p session.Pending) event.PendingData {
	return event.PendingData{ID: p.ID, Mode: p.Mode, Text: p.Text, Held: p.Held}
}

// steer hands the model the steer messages sent since the last request, as the
// user's words at this point of the turn (after the tool results, before the next
// request), and records them in the session there.
func (l *loop) steer() error {
	sid, in := l.run.SessionID, l.r.in
	in.mu.Lock()
	ps := in.takeLocked(sid, func(p session.Pending) bool { return p.Mode == ModeSteer })
	for _, p := range ps {
		l.em.emit(event.PendingTaken, event.TakenData{ID: p.ID, Mode: p.Mode, Text: p.Text})
	}
	in.mu.Unlock()
	if len(ps) == 0 {
		return nil
	}
	ids := make([]string, len(ps))
	msgs := make([]llm.Message, len(ps))
	recs := make([]session.Record, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
		msgs[i] = llm.Message{Role: llm.RoleUser, Content: p.Text}
		recs[i] = session.MessageRecord(l.run.ID, msgs[i])
	}
	st := l.r.opts.Store
	err := st.Append(sid, recs...)
	if err == nil {
		err = st.Sync(sid)
	}
	if err != nil {
		in.untake(sid, false, ids...)
		return &runError{code: event.CodeStorage, why: storageProblem(i18n.M("error.storage.steer", "detail", err.Error())), err: err}
	}
	l.history = append(l.history, msgs...)
	if err := in.done(sid, ids...); err != nil {
		l.em.say(event.LevelWarning, i18n.M("notice.pendingSave", "error", err.Error()))
	}
	return nil
}

// handOver frees the chat as its run ends. A run that ended well takes the first
// waiting message as the next turn (returned, marked taken); any other end leaves the
// waiting messages held, and says so on the stream.
func (r *Runner) handOver(l *loop, status event.Status) *session.Pending {
	sid := l.run.SessionID
	r.mu.Lock()
	if r.active[sid] == l.run {
		delete(r.active, sid)
	}
	closing := r.closing
	r.in.mu.Lock()
	r.mu.Unlock()
	defer r.in.mu.Unlock()
	if status == event.StatusOK && !closing {
		first := true
		ps := r.in.takeLocked(sid, func(session.Pending) bool { ok := first; first = false; return ok })
		if len(ps) > 0 {
			return &ps[0]
		}
		return nil
	}
	for _, p := range r.in.holdLocked(sid) {
		l.em.emit(event.Pending, pendingData(p))
	}
	return nil
}

// startNext starts the turn of the message the ended run took, to go once after is
// closed, and returns it (nil when it could not start: the message is then held).
func (l *loop) startNext(p session.Pending, after <-chan struct{}) *Run {
	sid := l.run.SessionID
	req := Request{SessionID: sid, Text: p.Text, Channel: p.Channel, after: after}
	run, err := l.r.start(context.Background(), req, l.em.sinks[0], false)
	if err != nil {
		l.r.in.untake(sid, true, p.ID)
		p.Held = true
		l.em.say(event.LevelWarning, i18n.M("notice.pendingNotStarted", "error", err.Error()))
		l.em.emit(event.Pending, pendingData(p))
		return nil
	}
	if err := l.r.in.done(sid, p.ID); err != nil {
		l.em.say(event.LevelWarning, i18n.M("notice.pendingSave", "error", err.Error()))
	}
	l.em.emit(event.PendingTaken, event.TakenData{ID: p.ID, Mode: p.Mode, Text: p.Text, AsTurn: p.Mode == ModeSteer, NextRunID: run.ID})
	return run
}
