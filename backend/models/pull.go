package models

import (
	"context"
	"fmt"
	"strings"

	"hearth/backend/i18n"
	"hearth/backend/llm"
)

// Progress is one progress report of a pull as Ollama sends it.
type Progress = llm.PullProgress

// Explain is a provider error's message and what to do about it (start Ollama, pull
// the model, …), when it is one.
func Explain(err error) (message, hint string, ok bool) {
	le, ok := llm.AsError(err)
	if !ok {
		return "", "", false
	}
	return le.Error(), le.Hint, true
}

// PullEvent is one progress report of a pull; Done ends the stream, with Error set
// when the pull failed ("cancelled" when stopped). A failure also carries Why, the
// problem as catalog codes naming the model, so the window says it in its language,
// and Detail, the provider's own words, which the window keeps behind "Details".
type PullEvent struct {
	PullID string `json:"pullId"`
	Model  string `json:"model"`
	llm.PullProgress
	Done   bool          `json:"done"`
	Error  string        `json:"error,omitempty"`
	Why    *i18n.Problem `json:"why,omitempty"`
	Detail string        `json:"detail,omitempty"`
}

// pullFailure words a failed pull of model: the provider's classified problem when it
// has one, else the generic "download failed" naming the model.
func pullFailure(err error, model string) (why i18n.Problem, detail string) {
	why = i18n.P("error.pull.failed", "model", model)
	detail = err.Error()
	if le, ok := llm.AsError(err); ok {
		if le.Why.Text.Code != "" {
			why = le.Why
		}
		if le.Err != nil {
			detail = le.Err.Error()
		}
	}
	if len(detail) > maxDetail {
		// A provider that answers with a page of text does not fill the window.
		detail = strings.ToValidUTF8(detail[:maxDetail], "") + "…"
	}
	return why, detail
}

// maxDetail bounds the provider's text a failed pull carries to the window.
const maxDetail = 2000

// StartPull starts downloading an Ollama model in the background and returns its
// pull id at once; progress goes to emit, which gets one last event with Done set.
func (s *Service) StartPull(name string, emit func(PullEvent)) (string, error) {
	model, err := ollamaModelName(name)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.seq++
	id := fmt.Sprintf("p%d", s.seq)
	s.pulls[id] = cancel
	s.mu.Unlock()
	go func() {
		defer cancel()
		err := s.Pull(ctx, model, func(p llm.PullProgress) {
			emit(PullEvent{PullID: id, Model: model, PullProgress: p})
		})
		end := PullEvent{PullID: id, Model: model, Done: true}
		switch {
		case ctx.Err() != nil:
			end.Error = "cancelled"
		case err != nil:
			end.Error = err.Error()
			why, detail := pullFailure(err, model)
			end.Why, end.Detail = &why, detail
		default:
			end.Status = "success"
		}
		s.mu.Lock()
		delete(s.pulls, id)
		s.mu.Unlock()
		emit(end)
	}()
	return id, nil
}

// CancelPull stops a pull; it reports whether one was running.
func (s *Service) CancelPull(id string) bool {
	s.mu.Lock()
	cancel, ok := s.pulls[id]
	s.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

// Close cancels the running pulls (Ollama keeps what was downloaded and resumes it
// on the next pull) and stops a background fitness check.
func (s *Service) Close() {
	s.mu.Lock()
	for _, cancel := range s.pulls {
		cancel()
	}
	s.mu.Unlock()
	s.checks.close()
	s.stopOllama()
}
