package chat

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/i18n"
)

// Start begins a turn with every option (Model for `--model`, images, channel,
// unattended runs) and returns at once; events go to sink (may be nil) as the run
// goes. Cancelling ctx stops the run. Text starting with "/" is a slash command. A
// session that is already running refuses with agent.ErrBusy.
func (s *Service) Start(ctx context.Context, req agent.Request, sink event.Sink) (*agent.Run, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	s.mask()
	for _, m := range []string{req.Model, req.ChatModel} {
		if m == "" {
			continue
		}
		if _, _, err := s.opts.Resolve(m); err != nil {
			return nil, fmt.Errorf("model %q: %w", m, err)
		}
	}
	if req.SessionID != "" {
		if err := s.opts.Memory.TakeFailure(req.SessionID); err != nil {
			req.Notices = append(req.Notices, i18n.M("notice.consolidationFailed", "error", err.Error()))
		}
	}
	defer s.idle.yield(req.SessionID)() // an idle compaction of the chat gives way
	return s.runner.Start(ctx, req, sink)
}

// Input is one message from the window's composer.
type Input struct {
	SessionID string `json:"sessionId"`
	Text      string `json:"text"`
	// Images are base64 (a data: URL prefix is allowed), PNG/JPEG/WebP/GIF.
	Images []string `json:"images"`
	// Files are paths of files to attach (the file dialog, a drop); Pasted are
	// files pasted as bytes. Each is copied into the chat's attachments folder.
	Files  []string     `json:"files,omitempty"`
	Pasted []PastedFile `json:"pasted,omitempty"`
	// Model is the model of a new chat (SessionID empty): the chat is created with it.
	// A chat that exists answers with its own model (the session's: /model and
	// SetChatModel change it), whatever Model says.
	Model string `json:"model"`
	// Again answers the chat's last question anew (regenerate; Text is ignored).
	Again bool `json:"again,omitempty"`
	// Edit replaces the chat's Edit-th question (1-based) with Text.
	Edit int `json:"edit,omitempty"`
	// Resume lets an answer that was stopped part-way go on (Text is ignored).
	Resume bool `json:"resume,omitempty"`
	// Mode is what the message does when the chat has a run going (Submit): "steer",
	// "queue" or "stop".
	Mode string `json:"mode,omitempty"`
}

// Send starts a turn from the composer and returns its run id; the turn outlives
// the call (it ends by itself or by Stop).
func (s *Service) Send(in Input, sink event.Sink) (string, error) {
	imgs, err := DecodeImages(in.Images)
	if err != nil {
		return "", err
	}
	again := in.Again || in.Resume
	files := len(in.Files) + len(in.Pasted)
	if strings.TrimSpace(in.Text) == "" && len(imgs) == 0 && files == 0 && !again {
		return "", fmt.Errorf("send: empty message (hint: type something or attach a picture)")
	}
	if again && in.SessionID == "" {
		return "", fmt.Errorf("send: no chat to answer again (hint: open the chat first)")
	}
	sid, atts, err := s.attach(in.SessionID, in.Files, in.Pasted)
	if err != nil {
		return "", err
	}
	run, err := s.Start(context.Background(), agent.Request{SessionID: sid, Text: in.Text, Images: imgs, ChatModel: in.Model,
		Again: in.Again, Edit: in.Edit, Resume: in.Resume, Attachments: atts}, sink)
	if err != nil {
		return "", err
	}
	return run.ID, nil
}

// maxImageBytes bounds the attachments of one message, all together (what a vision
// model can take anyway). The message is one line of the chat's file, base64 and
// all: 20 MB of pictures keep it well under the line bound its reader has
// (session.MaxLineBytes), so Hearth never writes a chat it cannot read back.
const maxImageBytes = 20 << 20

// DecodeImages turns composer attachments into raw bytes. The agent bounds and
// scales each picture before the message is saved (package picture).
func DecodeImages(in []string) ([][]byte, error) {
	out := make([][]byte, 0, len(in))
	total := 0
	for i, s := range in {
		if _, rest, ok := strings.Cut(s, ";base64,"); ok && strings.HasPrefix(s, "data:") {
			s = rest
		}
		n := strconv.Itoa(i + 1)
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, &imageError{i18n.P("picture.notBase64", "n", n)}
		}
		if len(b) > maxImageBytes {
			return nil, &imageError{i18n.P("picture.tooBig", "n", n, "size", strconv.Itoa(len(b)>>20), "limit", strconv.Itoa(maxImageBytes>>20))}
		}
		if total += len(b); total > maxImageBytes {
			return nil, &imageError{i18n.P("picture.tooBigAll", "limit", strconv.Itoa(maxImageBytes>>20))}
		}
		out = append(out, b)
	}
	return out, nil
}

// imageError is a refused attachment, worded for the window and the CLI.
type imageError struct{ why i18n.Problem }

func (e *imageError) Error() string                { return e.why.String() }
func (e *imageError) UserMessage() i18n.Message    { return e.why.Text }
func (e *imageError) UserProblems() []i18n.Problem { return []i18n.Problem{e.why} }

// Continue resumes the session's interrupted run (after a crash or a quit mid-turn):
// its partial turn is kept and the loop goes on under the same run id; events go to
// sink. Cancelling ctx stops the run.
func (s *Service) Continue(ctx context.Context, sessionID string, sink event.Sink) (*agent.Run, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	s.mask()
	defer s.idle.yield(sessionID)()
	return s.runner.Continue(ctx, sessionID, sink)
}

// usable says why no turn can run: the workspace folder is unusable.
func (s *Service) usable() error {
	if err := s.opts.Settings.PathsError(); err != nil {
		return fmt.Errorf("chat: %w (hint: fix --workspace or agents.defaults.workspace)", err)
	}
	return nil
}

// Stop cancels the session's running turn (model call and tools, within a second)
// and its helpers; it reports whether anything was running.
func (s *Service) Stop(sessionID string) bool { return s.runner.Stop(sessionID) }

// DenyInstead denies the calls of the session's run waiting for approval and stops it
// before it asks the model again (the window's message sent while a card waits).
func (s *Service) DenyInstead(sessionID string) bool { return s.runner.DenyInstead(sessionID) }

// InUse says why a session cannot be deleted now (it has a running turn), or nil.
func (s *Service) InUse(sessionID string) error {
	if runID, busy := s.runner.Busy(sessionID); busy {
		return fmt.Errorf("%w with run %s", agent.ErrBusy, runID)
	}
	return nil
}

// Running reports whether any turn is going (a settings change then applies from
// the next one).
func (s *Service) Running() bool { return s.runner.Active() > 0 }

// Usage is the last context use of a session's model call.
func (s *Service) Usage(sessionID string) event.UsageData {
	u, _ := s.runner.Usage(sessionID)
	return u
}
