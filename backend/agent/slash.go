package agent

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/session"
)

// Reply is what a slash command answers: one catalog message a line, which the window
// words in its language and the CLI prints in English.
type Reply []i18n.Message

// builtinHelp are the /help lines of the built-in commands, /help itself last.
var builtinHelp = []i18n.Message{i18n.M("slash.help.new"), i18n.M("slash.help.stop"), i18n.M("slash.help.model"),
	i18n.M("slash.help.status")}

// Command is an extra slash command (Options.Commands).
type Command struct {
	// Help is its line in /help, e.g. "/remember TEXT   save a fact to memory".
	Help i18n.Message
	// Run answers the command; arg is the text after the name.
	Run func(ctx context.Context, sessionID, arg string) (Reply, error)
}

// help is the reply to /help: the built-in commands, then the extra ones by name.
func (r *Runner) help() Reply {
	out := append(Reply{i18n.M("slash.help.title")}, builtinHelp...)
	for _, n := range slices.Sorted(maps.Keys(r.opts.Commands)) {
		out = append(out, r.opts.Commands[n].Help)
	}
	return append(out, i18n.M("slash.help.help"))
}

// parseSlash recognises "/word [arg]". A path such as "/etc/hosts is…" is
// not a command: the word must be letters only.
func parseSlash(text string) (cmd, arg string, ok bool) {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "/") {
		return "", "", false
	}
	word, rest, _ := strings.Cut(t[1:], " ")
	if word == "" {
		return "", "", false
	}
	for _, c := range word {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return "", "", false
		}
	}
	return strings.ToLower(word), strings.TrimSpace(rest), true
}

// slash answers a command as a short run of its own (run_started, the reply
// as text, run_finished) so every client shows it like any answer. Commands
// are not part of the conversation and are not stored as messages.
func (r *Runner) slash(ctx context.Context, req Request, cmd, arg string, sink event.Sink) (*Run, error) {
	run := &Run{ID: newRunID(), SessionID: req.SessionID, done: make(chan struct{})}
	em := &emitter{runID: run.ID, sessionID: run.SessionID, sinks: []event.Sink{sink, r.opts.Observer}, redact: r.opts.Redact, pending: r.opts.Pending}
	start := r.opts.Now()
	em.emit(event.RunStarted, event.StartedData{Model: r.sessionModel(req.SessionID), Command: cmd})
	res := Result{RunID: run.ID, SessionID: run.SessionID, Status: event.StatusOK}
	var reply Reply
	var err error
	chatModel := "" // the chat's model after a /model that switched it
	switch cmd {
	case "help":
		reply = r.help()
	case "stop":
		reply = Reply{i18n.M("slash.nothingRunning")}
		if req.SessionID != "" && r.Stop(req.SessionID) {
			reply = Reply{i18n.M("slash.stopped")}
		}
	case "status":
		reply = r.status(req.SessionID)
	case "model":
		reply, res.NewSessionID, chatModel, err = r.switchModel(ctx, req.SessionID, arg)
	case "new":
		reply, res.NewSessionID, err = r.newSession(ctx, req.SessionID)
	default:
		if c, ok := r.opts.Commands[cmd]; ok {
			reply, err = c.Run(ctx, req.SessionID, arg)
		} else {
			reply = append(Reply{i18n.M("slash.unknown", "command", cmd)}, r.help()...)
		}
	}
	if err != nil {
		res.Status, res.Err = event.StatusError, err
		em.emit(event.Error, errorData(err))
	} else {
		res.Final = i18n.Lines(reply)
		lines := make([]event.Line, len(reply))
		for i, m := range reply {
			lines[i] = line(m)
		}
		em.emit(event.TextDelta, event.DeltaData{Text: res.Final, Lines: lines})
	}
	em.emit(event.RunFinished, event.FinishedData{Status: res.Status, Final: res.Final, NewSessionID: res.NewSessionID,
		ChatModel: chatModel, DurationMs: r.opts.Now().Sub(start).Milliseconds()})
	run.result = res
	close(run.done)
	return run, nil
}

// sessionModel is the model a session's next run uses.
func (r *Runner) sessionModel(id string) string {
	if id != "" {
		if s, err := r.opts.Store.Load(id); err == nil && s.Meta.Model != "" {
			return s.Meta.Model
		}
	}
	return r.tuning().DefaultModel
}

func (r *Runner) status(id string) Reply {
	out := Reply{i18n.M("slash.model", "model", r.sessionModel(id))}
	if u, ok := r.Usage(id); ok && id != "" {
		pct := 0
		if u.ContextLimit > 0 {
			pct = u.ContextUsed * 100 / u.ContextLimit
		}
		out = append(out, i18n.M("slash.status.context", "used", strconv.Itoa(u.ContextUsed),
			"limit", strconv.Itoa(u.ContextLimit), "percent", strconv.Itoa(pct)))
	} else {
		out = append(out, i18n.M("slash.status.noCall", "limit", strconv.Itoa(r.tuning().ContextTokens)))
	}
	if runID, busy := r.Busy(id); busy && id != "" {
		out = append(out, i18n.M("slash.status.running", "run", runID))
	}
	return out
}

// switchModel sets the session's model after checking the name resolves and (with
// ModelInstalled) that the model is there to answer: one that is not installed leaves
// the chat's model as it was and says what to do. A chat without a session gets one,
// so the choice sticks. model is the chat's model after a switch.
func (r *Runner) switchModel(ctx context.Context, id, name string) (reply Reply, newID, model string, err error) {
	if name == "" {
		return Reply{i18n.M("slash.model", "model", r.sessionModel(id)), i18n.M("slash.model.usage")}, "", "", nil
	}
	if _, _, err := r.opts.Resolve(name); err != nil {
		return nil, "", "", &runError{code: event.CodeModel, why: i18n.P("error.model.switch", "model", name, "detail", err.Error()), err: err}
	}
	if r.opts.ModelInstalled != nil {
		ok, installed, cerr := r.opts.ModelInstalled(ctx, name)
		if cerr == nil && !ok {
			keep := r.sessionModel(id)
			if len(installed) == 0 {
				return Reply{i18n.M("slash.model.notInstalled", "model", name, "current", keep), i18n.M("slash.model.downloadFirst")}, "", "", nil
			}
			return Reply{i18n.M("slash.model.notInstalled", "model", name, "current", keep),
				i18n.M("slash.model.installed", "models", strings.Join(installed, ", "))}, "", "", nil
		}
	}
	if id == "" {
		m, err := r.opts.Store.Create(session.CreateOptions{Model: name})
		if err != nil {
			return nil, "", "", fmt.Errorf("/model: %w", err)
		}
		return Reply{i18n.M("slash.model.newChat", "model", name)}, m.ID, name, nil
	}
	if _, err := r.opts.Store.Ensure(session.CreateOptions{ID: id, Model: name}); err != nil {
		return nil, "", "", fmt.Errorf("/model: %w", err)
	}
	if err := r.opts.Store.SetModel(id, name); err != nil {
		return nil, "", "", fmt.Errorf("/model: %w", err)
	}
	return Reply{i18n.M("slash.model.switched", "model", name)}, "", name, nil
}

// newSession archives the session (after the OnNew hook, where memory
// consolidation will run) and starts a fresh one with the same model.
func (r *Runner) newSession(ctx context.Context, id string) (reply Reply, newID string, err error) {
	model := ""
	if id != "" {
		if runID, busy := r.Busy(id); busy {
			return nil, "", &runError{code: event.CodeInternal, why: i18n.P("error.busy", "run", runID), err: ErrBusy}
		}
		s, lerr := r.opts.Store.Load(id)
		switch {
		case errors.Is(lerr, session.ErrNotFound):
			id = ""
		case lerr != nil:
			return nil, "", fmt.Errorf("/new: %w", lerr)
		default:
			model = s.Meta.Model
		}
	}
	if id != "" {
		if r.opts.OnNew != nil {
			if err := r.opts.OnNew(ctx, id); err != nil {
				return nil, "", fmt.Errorf("/new: saving this chat to memory failed, so it was kept as it is: %w", err)
			}
		}
		if err := r.opts.Store.Archive(id, true); err != nil {
			return nil, "", fmt.Errorf("/new: %w", err)
		}
	}
	m, err := r.opts.Store.Create(session.CreateOptions{Model: model})
	if err != nil {
		return nil, "", fmt.Errorf("/new: %w", err)
	}
	if id == "" {
		return Reply{i18n.M("slash.new.started")}, m.ID, nil
	}
	return Reply{i18n.M("slash.new.archived")}, m.ID, nil
}
