package agent

import (
	"fmt"

	"hearth/backend/llm"
	"hearth/backend/session"
)

// The three ways a run goes back over what is already in the chat: answering the last
// question again (Request.Again), asking an earlier question differently
// (Request.Edit) and letting a stopped answer go on (Request.Resume). The first two
// rewind the session (session.Store.Rewind), so the replaced messages stay as an
// earlier version the window can show.

// revisits says whether req works on the chat's existing messages (no slash command).
func (req Request) revisits() bool { return req.Again || req.Resume || req.Edit > 0 }

// prepareAgain rewinds the chat to just after its last question; the run answers it.
func (l *loop) prepareAgain(sess *session.Session) error {
	u := -1
	for i, e := range sess.Entries {
		if e.Role == llm.RoleUser {
			u = i
		}
	}
	if u < 0 {
		return fmt.Errorf("regenerate: %w (hint: the chat has no question to answer again)", ErrNothingToContinue)
	}
	if err := l.r.opts.Store.Rewind(l.run.SessionID, u+1); err != nil {
		return fmt.Errorf("regenerate: %w", err)
	}
	l.history = sess.Messages()[:u+1]
	return nil
}

// rewindForEdit drops the Edit-th question and what followed from the chat (they stay
// as an earlier version); the run then asks the edited text as usual.
func (l *loop) rewindForEdit(sess *session.Session) error {
	i := sess.UserIndex(l.req.Edit)
	if i < 0 {
		return fmt.Errorf("edit message %d: %w (hint: the chat changed meanwhile; reopen it)", l.req.Edit, ErrNothingToContinue)
	}
	if err := l.r.opts.Store.Rewind(l.run.SessionID, i); err != nil {
		return fmt.Errorf("edit message %d: %w", l.req.Edit, err)
	}
	if len(l.req.Attachments) == 0 {
		// The edited question keeps its files (their copies stay in the chat's folder).
		l.req.Attachments = sess.Entries[i].Attachments
	}
	sess.Entries = sess.Entries[:i]
	return nil
}

// prepareResume lets the model go on with a stopped answer: the request ends with that
// partial answer, which the model continues (Ollama and OpenAI-style servers treat a
// trailing assistant message as the start of the reply).
func (l *loop) prepareResume(sess *session.Session) error {
	n := len(sess.Entries)
	if n == 0 {
		return fmt.Errorf("continue: %w (hint: the chat is empty)", ErrNothingToContinue)
	}
	last := sess.Entries[n-1]
	stopped := false
	for _, run := range sess.Runs {
		if run.ID == last.RunID {
			stopped = run.Status == session.StatusCancelled || run.Status == session.StatusError
		}
	}
	if last.Role != llm.RoleAssistant || len(last.ToolCalls) > 0 || last.Content == "" || !stopped {
		return fmt.Errorf("continue: %w (hint: only an answer that was stopped part-way can go on)", ErrNothingToContinue)
	}
	l.history = sess.Messages()
	return nil
}
