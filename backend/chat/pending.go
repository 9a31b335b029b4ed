package chat

import (
	"cmp"
	"context"
	"fmt"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/session"
)

// Sent is what became of a message sent to a chat: a turn started (RunID) or a
// message waiting for the running one (Pending).
type Sent struct {
	RunID   string           `json:"runId,omitempty"`
	Pending *session.Pending `json:"pending,omitempty"`
}

// Submit sends a message from the composer, which stays live while a turn runs:
// with no run going it starts a turn (as Send); with one going, in.Mode says what
// the message does — "steer" (to the model at the turn's next safe point), "queue"
// (the next turn) or "stop" (stop the turn as Stop does, then start this one).
// Pictures wait for no turn: with a run going they are refused (they would make the
// chat's pending file as large as they are).
func (s *Service) Submit(in Input, sink event.Sink) (Sent, error) {
	if in.Mode == "" || in.SessionID == "" || in.Again || in.Edit > 0 || in.Resume {
		id, err := s.Send(in, sink)
		return Sent{RunID: id}, err
	}
	if _, busy := s.runner.Busy(in.SessionID); !busy {
		id, err := s.Send(in, sink)
		return Sent{RunID: id}, err
	}
	if len(in.Images) > 0 {
		return Sent{}, fmt.Errorf("send: pictures cannot wait for a running turn (hint: send them when it ends, or stop it first)")
	}
	p, run, err := s.Deliver(agent.Message{SessionID: in.SessionID, Text: in.Text, Mode: in.Mode}, sink)
	if err != nil {
		return Sent{}, err
	}
	if run != nil {
		return Sent{RunID: run.ID}, nil
	}
	return Sent{Pending: p}, nil
}

// Deliver is Submit for a front end that follows the runs itself (the terminal): the
// message waits (returned) or starts a turn (returned). Channel defaults to the service's.
func (s *Service) Deliver(m agent.Message, sink event.Sink) (*session.Pending, *agent.Run, error) {
	if err := s.usable(); err != nil {
		return nil, nil, err
	}
	s.mask()
	m.Channel = cmp.Or(m.Channel, s.opts.Channel)
	defer s.idle.yield(m.SessionID)()
	return s.runner.Submit(context.Background(), m, sink)
}

// Pending lists the messages waiting for a chat's running turn (or held after a
// stop or a restart: Held), in the order sent.
func (s *Service) Pending(sessionID string) ([]session.Pending, error) {
	return s.runner.Pending(sessionID)
}

// EditPending changes a waiting message's text and mode until a run takes it.
func (s *Service) EditPending(sessionID, id, text, mode string) (session.Pending, error) {
	return s.runner.EditPending(sessionID, id, text, mode)
}

// RemovePending drops a waiting message.
func (s *Service) RemovePending(sessionID, id string) error {
	return s.runner.RemovePending(sessionID, id)
}

// SendPending sends a held message again: it waits for the running turn in its mode,
// or starts a turn; the run id is "" when it waits.
func (s *Service) SendPending(sessionID, id string, sink event.Sink) (string, error) {
	if err := s.usable(); err != nil {
		return "", err
	}
	s.mask()
	defer s.idle.yield(sessionID)()
	run, err := s.runner.SendPending(context.Background(), sessionID, id, sink)
	if err != nil || run == nil {
		return "", err
	}
	return run.ID, nil
}
