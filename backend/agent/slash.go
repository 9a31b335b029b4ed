package agent

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"hearth/backend/event"
	"hearth/backend/session"
)

// HelpText is the reply to /help.
const HelpText = `Commands:
  /new            archive this chat and start a fresh one
  /stop           stop the running reply
  /model [NAME]   show or switch this chat's model (e.g. /model ollama/qwen3:4b)
  /status         model and context use of this chat
  /help           this list`

// Command is an extra slash command (Options.Commands).
type Command struct {
	// Help is its line in /help, e.g. "/remember TEXT   save a fact to memory".
	Help string
	// Run answers the command; arg is the text after the name.
	Run func(ctx context.Context, sessionID, arg string) (string, error)
}

// helpText is HelpText with the extra commands' lines before /help.
func (r *Runner) helpText() string {
	if len(r.opts.Commands) == 0 {
		return HelpText
	}
	names := make([]string, 0, len(r.opts.Commands))
	for n := range r.opts.Commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var extra strings.Builder
	for _, n := range names {
		extra.WriteString("  " + r.opts.Commands[n].Help + "\n")
	}
	i := strings.LastIndex(HelpText, "  /help")
	return HelpText[:i] + extra.String() + HelpText[i:]
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
	var err error
	switch cmd {
	case "help":
		res.Final = r.helpText()
	case "stop":
		res.Final = "Nothing is running."
		if req.SessionID != "" && r.Stop(req.SessionID) {
			res.Final = "Stopped."
		}
	case "status":
		res.Final = r.statusText(req.SessionID)
	case "model":
		res.Final, res.NewSessionID, err = r.switchModel(req.SessionID, arg)
	case "new":
		res.Final, res.NewSessionID, err = r.newSession(ctx, req.SessionID)
	default:
		if c, ok := r.opts.Commands[cmd]; ok {
			res.Final, err = c.Run(ctx, req.SessionID, arg)
		} else {
			res.Final = fmt.Sprintf("Unknown command /%s.\n%s", cmd, r.helpText())
		}
	}
	if err != nil {
		res.Status, res.Err, res.Final = event.StatusError, err, ""
		em.emit(event.Error, errorData(err))
	} else {
		em.emit(event.TextDelta, event.DeltaData{Text: res.Final})
	}
	em.emit(event.RunFinished, event.FinishedData{Status: res.Status, Final: res.Final, NewSessionID: res.NewSessionID,
		DurationMs: r.opts.Now().Sub(start).Milliseconds()})
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

func (r *Runner) statusText(id string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Model: %s\n", r.sessionModel(id))
	if u, ok := r.Usage(id); ok && id != "" {
		pct := 0
		if u.ContextLimit > 0 {
			pct = u.ContextUsed * 100 / u.ContextLimit
		}
		fmt.Fprintf(&b, "Context: %d / %d tokens (%d%%)", u.ContextUsed, u.ContextLimit, pct)
	} else {
		fmt.Fprintf(&b, "Context: no model call yet in this chat (limit %d tokens)", r.tuning().ContextTokens)
	}
	if runID, busy := r.Busy(id); busy && id != "" {
		fmt.Fprintf(&b, "\nRunning: %s", runID)
	}
	return b.String()
}

// switchModel sets the session's model after checking the name resolves. A
// chat without a session gets one, so the choice sticks.
func (r *Runner) switchModel(id, name string) (text, newID string, err error) {
	if name == "" {
		return fmt.Sprintf("Model: %s\nSwitch with /model <provider>/<model>, e.g. /model ollama/qwen3:4b.", r.sessionModel(id)), "", nil
	}
	if _, _, err := r.opts.Resolve(name); err != nil {
		return "", "", &runError{code: event.CodeModel, msg: fmt.Sprintf("cannot switch to %q: %v", name, err), err: err,
			hint: "name a model as <provider>/<model>, e.g. ollama/qwen3:4b; `hearth models list` shows the installed ones"}
	}
	if id == "" {
		m, err := r.opts.Store.Create(session.CreateOptions{Model: name})
		if err != nil {
			return "", "", fmt.Errorf("/model: %w", err)
		}
		return fmt.Sprintf("Started a new chat with %s.", name), m.ID, nil
	}
	if _, err := r.opts.Store.Ensure(session.CreateOptions{ID: id, Model: name}); err != nil {
		return "", "", fmt.Errorf("/model: %w", err)
	}
	if err := r.opts.Store.SetModel(id, name); err != nil {
		return "", "", fmt.Errorf("/model: %w", err)
	}
	return fmt.Sprintf("This chat now uses %s.", name), "", nil
}

// newSession archives the session (after the OnNew hook, where memory
// consolidation will run) and starts a fresh one with the same model.
func (r *Runner) newSession(ctx context.Context, id string) (text, newID string, err error) {
	model := ""
	if id != "" {
		if runID, busy := r.Busy(id); busy {
			return "", "", &runError{code: event.CodeInternal, msg: fmt.Sprintf("run %s is still going in this chat", runID), err: ErrBusy,
				hint: "stop it with /stop first, then /new"}
		}
		s, lerr := r.opts.Store.Load(id)
		switch {
		case errors.Is(lerr, session.ErrNotFound):
			id = ""
		case lerr != nil:
			return "", "", fmt.Errorf("/new: %w", lerr)
		default:
			model = s.Meta.Model
		}
	}
	if id != "" {
		if r.opts.OnNew != nil {
			if err := r.opts.OnNew(ctx, id); err != nil {
				return "", "", fmt.Errorf("/new: saving this chat to memory failed, so it was kept as it is: %w", err)
			}
		}
		if err := r.opts.Store.Archive(id, true); err != nil {
			return "", "", fmt.Errorf("/new: %w", err)
		}
	}
	m, err := r.opts.Store.Create(session.CreateOptions{Model: model})
	if err != nil {
		return "", "", fmt.Errorf("/new: %w", err)
	}
	if id == "" {
		return "Started a new chat.", m.ID, nil
	}
	return "Started a new chat; the previous one was archived.", m.ID, nil
}
