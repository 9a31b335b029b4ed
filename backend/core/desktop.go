package core

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/models"
	"hearth/backend/sessions"
)

// Desktop is what the window needs on top of Service: streams delivered per
// id through a Relay (runs on "run:<runId>", pulls on "pull:<pullId>") and
// pulls that can be cancelled. app.go forwards to it; it never imports Wails.
type Desktop struct {
	svc   *Service
	relay *Relay
}

// NewDesktop wraps svc; emit sends one event to the window.
func NewDesktop(svc *Service, emit func(channel string, data any)) *Desktop {
	return &Desktop{svc: svc, relay: NewRelay(emit)}
}

// RunChannel is the event name of a run's stream.
func RunChannel(runID string) string { return "run:" + runID }

// PullChannel is the event name of a pull's progress.
func PullChannel(pullID string) string { return "pull:" + pullID }

// Attach says the window listens on channel (see Relay.Attach).
func (d *Desktop) Attach(channel string) { d.relay.Attach(channel) }

// ChatInput is one message from the composer.
type ChatInput struct {
	SessionID string `json:"sessionId"`
	Text      string `json:"text"`
	// Images are base64 (a data: URL prefix is allowed), PNG/JPEG/WebP/GIF.
	Images []string `json:"images"`
	Model  string   `json:"model"`
}

// maxImageBytes bounds one attachment (what a vision model can take anyway).
const maxImageBytes = 20 << 20

// DecodeImages turns composer attachments into raw bytes.
func DecodeImages(in []string) ([][]byte, error) {
	out := make([][]byte, 0, len(in))
	for i, s := range in {
		if _, rest, ok := strings.Cut(s, ";base64,"); ok && strings.HasPrefix(s, "data:") {
			s = rest
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("image %d: not base64: %w (hint: attach the picture again)", i+1, err)
		}
		if len(b) > maxImageBytes {
			return nil, fmt.Errorf("image %d is %d MB (hint: attach a picture under %d MB)", i+1, len(b)>>20, maxImageBytes>>20)
		}
		out = append(out, b)
	}
	return out, nil
}

// sink publishes a run's events on its channel.
func (d *Desktop) sink(ev event.Event) {
	d.relay.Publish(RunChannel(ev.RunID), ev, ev.Type == event.RunFinished)
}

// Send starts a turn and returns its run id; events follow on RunChannel(id)
// once the window calls Attach. The turn outlives the call.
func (d *Desktop) Send(in ChatInput) (string, error) {
	imgs, err := DecodeImages(in.Images)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(in.Text) == "" && len(imgs) == 0 {
		return "", fmt.Errorf("send: empty message (hint: type something or attach a picture)")
	}
	run, err := d.svc.SendRequest(context.Background(), agent.Request{
		SessionID: in.SessionID, Text: in.Text, Images: imgs, Model: in.Model,
	}, d.sink)
	if err != nil {
		return "", err
	}
	return run.ID, nil
}

// Continue resumes a session's interrupted turn; events as for Send.
func (d *Desktop) Continue(sessionID string) (string, error) {
	return d.svc.Continue(context.Background(), sessionID, d.sink)
}

// Pull starts downloading an Ollama model and returns its pull id; progress
// follows on PullChannel(id) once the window calls Attach.
func (d *Desktop) Pull(name string) (string, error) {
	return d.svc.models.StartPull(name, func(ev models.PullEvent) { d.relay.Publish(PullChannel(ev.PullID), ev, ev.Done) })
}

// CancelPull stops a pull; it reports whether one was running.
func (d *Desktop) CancelPull(id string) bool { return d.svc.models.CancelPull(id) }

// ExportFile writes session id as "markdown" or "json" to path.
func (d *Desktop) ExportFile(id, format, path string) error {
	return d.svc.sessions.ExportFile(id, format, path)
}

// History loads session id for the window.
func (d *Desktop) History(id string) (sessions.History, error) { return d.svc.sessions.History(id) }

// SessionUsage is the last context use of a session's model call.
func (d *Desktop) SessionUsage(sessionID string) event.UsageData {
	p, err := d.svc.agent()
	if err != nil {
		return event.UsageData{}
	}
	u, _ := p.runner.Usage(sessionID)
	return u
}
