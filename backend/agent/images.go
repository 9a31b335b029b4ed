package agent

import (
	"context"
	"errors"
	"strings"
	"time"

	"hearth/backend/i18n"
	"hearth/backend/llm"
	"hearth/backend/picture"
)

// ErrNoVision is the kind of a NoVisionError (errors.Is finds it).
var ErrNoVision = errors.New("the model cannot see pictures")

// NoVisionError refuses a message with pictures to a model that cannot see them
// while installed models can (Vision, which the window offers to switch to), before
// anything is saved or sent: the message is the user's to send again, to one of them
// or without the pictures.
type NoVisionError struct {
	Model  string
	Vision []string
	Why    i18n.Problem
}

func (e *NoVisionError) Error() string                { return e.Why.String() }
func (e *NoVisionError) Unwrap() error                { return ErrNoVision }
func (e *NoVisionError) UserMessage() i18n.Message    { return e.Why.Text }
func (e *NoVisionError) UserProblems() []i18n.Problem { return []i18n.Problem{e.Why} }

// visionWait bounds asking the model service about the model while the window waits
// for Send to return (it may have to start Ollama).
const visionWait = 10 * time.Second

// prepareImages readies the message's pictures: refused when the run's model cannot
// see them, each bounded and scaled to what a vision model takes (package picture),
// so a channel that hands raw bytes (the window, Telegram, the CLI) gets the same.
func (l *loop) prepareImages() error {
	if !l.req.seen {
		if err := l.r.checkVision(l.ctx, l.model); err != nil {
			return err
		}
	}
	out := make([][]byte, len(l.req.Images))
	for i, img := range l.req.Images {
		p, err := picture.Prepare(img, i+1)
		if err != nil {
			return err
		}
		out[i] = p
	}
	l.req.Images = out
	return nil
}

// checkVision asks the provider what the model can do. A model that says what it
// can and lacks vision is refused when an installed model could see the pictures
// instead (the window offers to switch); with none to offer, the message goes on and
// the run says the pictures were left out (notice.noImages), as it does for pictures
// in the history. A model that cannot be asked (an old server, a provider without
// the list, the service down) is trusted, as the request is.
func (r *Runner) checkVision(ctx context.Context, model string) error {
	p, m, err := r.opts.Resolve(model)
	if err != nil {
		return nil // the run says why it cannot resolve the model
	}
	sh, ok := p.(llm.ModelShower)
	if !ok || r.opts.VisionModels == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, visionWait)
	defer cancel()
	d, err := sh.Show(ctx, m)
	if err != nil || len(d.Capabilities) == 0 || d.Has(llm.CapVision) {
		return nil
	}
	vision := r.opts.VisionModels(ctx)
	if len(vision) == 0 {
		return nil
	}
	why := i18n.P("picture.noVision", "model", model, "models", strings.Join(vision, ", "))
	return &NoVisionError{Model: model, Vision: vision, Why: why}
}
