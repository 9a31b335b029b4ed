package agent

// How a run ends: its last lines, run_finished, and the error event's payload.

import (
	"context"
	"errors"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// finish writes the run's last lines and emits run_finished.
func (l *loop) finish(final string, err error) Result {
	res := Result{RunID: l.run.ID, SessionID: l.run.SessionID, Status: event.StatusOK, Final: final, Usage: l.usage,
		HistoryLen: l.built, FirstKept: l.firstKept, Limit: l.ended}
	if !l.shuttingDown() {
		l.fitNotice()
	}
	var failure *event.ErrorData
	switch {
	case err == nil:
	case l.shuttingDown():
		res.Status = event.StatusInterrupted
	case l.ctx.Err() != nil:
		res.Status = event.StatusCancelled
	default:
		res.Status, res.Err = event.StatusError, err
		fail := errorData(err)
		failure = &fail
		l.em.emit(event.Error, fail)
	}
	st, id := l.r.opts.Store, l.run.SessionID
	if res.Status == event.StatusInterrupted {
		// No run line: the run stays interrupted and Continue resumes it.
		_ = st.Sync(id)
	} else {
		var recs []session.Record
		if l.finalMsg != nil {
			recs = append(recs, session.MessageRecord(l.run.ID, *l.finalMsg))
		}
		rec := session.Run{ID: l.run.ID, Status: res.Status, Final: final, Model: l.model, Usage: l.usage,
			DurationMs: l.r.opts.Now().Sub(l.started).Milliseconds(), Failure: failure, Channel: l.req.Channel, Limit: l.ended, Notes: l.notes}
		if res.Err != nil {
			rec.Error = res.Err.Error()
		}
		recs = append(recs, session.RunRecord(rec))
		werr := st.Append(id, recs...)
		if werr == nil {
			werr = st.Sync(id)
		}
		if werr != nil {
			l.em.emit(event.Error, problemData(event.CodeStorage, storageProblem(i18n.M("error.storage.runEnd", "detail", werr.Error()))))
			if res.Status == event.StatusOK {
				res.Status, res.Err = event.StatusError, werr
			}
		}
	}
	// Free the session first: a client that sends the next message as soon
	// as it sees run_finished must not find the session busy. A message that
	// waited for this turn starts the next one now.
	var nextRun string
	if next := l.r.handOver(l, res.Status); next != nil {
		ready := make(chan struct{})
		defer close(ready) // the next turn goes once run_finished is out
		if res.Next = l.startNext(*next, ready); res.Next != nil {
			nextRun = res.Next.ID
		}
	}
	l.em.emit(event.RunFinished, event.FinishedData{Status: res.Status, Final: final,
		DurationMs: l.r.opts.Now().Sub(l.started).Milliseconds(), NextRunID: nextRun, Limit: l.ended})
	return res
}

// errorData turns a run error into the error event's payload.
func errorData(err error) event.ErrorData {
	var re *runError
	if errors.As(err, &re) {
		return problemData(re.code, re.why)
	}
	if le, ok := llm.AsError(err); ok {
		if le.Why.Text.Code == "" { // a provider error worded only in English
			return event.ErrorData{Code: string(le.Kind), Message: le.Error(), Hint: le.Hint}
		}
		d := problemData(string(le.Kind), le.Why)
		if le.Err != nil {
			d.Message, d.Detail = le.Error(), le.Err.Error()
		}
		return d
	}
	return problemData(event.CodeInternal, i18n.P("error.internal", "detail", err.Error()))
}

// problemData is the error event of a problem: its English and its codes for the window.
func problemData(code string, why i18n.Problem) event.ErrorData {
	d := event.ErrorData{Code: code, Message: why.Text.String(), Hint: why.HintString()}
	t := line(why.Text)
	d.Text = &t
	for _, h := range why.Hint {
		d.HintText = append(d.HintText, line(h))
	}
	return d
}

// storageProblem is a session file that could not be written, worded by text.
func storageProblem(text i18n.Message) i18n.Problem {
	return text.WithHint(i18n.M("error.hint.storage"))
}

func toolDefs(defs []tools.Definition) []llm.ToolDef {
	if len(defs) == 0 {
		return nil
	}
	out := make([]llm.ToolDef, len(defs))
	for i, d := range defs {
		out[i] = llm.ToolDef{Name: d.Name, Description: d.Description, Short: d.Short, Parameters: d.Parameters}
	}
	return out
}

// finalText is the text of the message that ends the run, if any.
func (l *loop) finalText() string {
	if l.finalMsg == nil {
		return ""
	}
	return l.finalMsg.Content
}

// shuttingDown reports a run cancelled by Shutdown (it ends interrupted).
func (l *loop) shuttingDown() bool {
	return l.ctx.Err() != nil && errors.Is(context.Cause(l.ctx), errShutdown)
}
