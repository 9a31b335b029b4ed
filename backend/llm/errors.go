package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"

	"hearth/backend/egress"
)

// ErrorKind classifies a final provider error so the UI can react to it.
type ErrorKind string

// Error kinds.
const (
	KindUnreachable     ErrorKind = "unreachable"
	KindModelNotFound   ErrorKind = "model_not_found"
	KindContextOverflow ErrorKind = "context_overflow"
	KindAuth            ErrorKind = "auth"
	KindRateLimited     ErrorKind = "rate_limited"
	KindBadResponse     ErrorKind = "bad_response"
	// KindLocalOnly: local-only mode refused the connection (egress.Code).
	KindLocalOnly ErrorKind = egress.Code
)

// Error is every final error of a provider call: what happened and one line the
// user can act on.
type Error struct {
	Kind    ErrorKind
	Message string
	Hint    string
	Err     error
	// modelFault: the model itself failed (an empty reply, a tool call the
	// server could not parse), not the server or the network.
	modelFault bool
}

// ModelFault reports whether the model itself failed (an empty reply, a tool
// call the server could not parse) rather than the server or the network.
func (e *Error) ModelFault() bool { return e.modelFault }

func (e *Error) Error() string {
	msg := e.Message
	if e.Err != nil && !strings.Contains(msg, e.Err.Error()) {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// AsError returns the *Error inside err, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// IsKind reports whether err is an *Error of kind k.
func IsKind(err error, k ErrorKind) bool {
	e, ok := AsError(err)
	return ok && e.Kind == k
}

// Hints shared by the providers.
const (
	HintOllamaDown      = "Ollama is not running — start it with `ollama serve`"
	HintContextOverflow = "context full — start a new chat (/new) or let Hearth compact the history"
	HintRateLimited     = "the provider is rate limiting requests — wait a minute and try again"
	HintBadResponse     = "the model sent an unusable reply — try again, or pick a larger model"
)

// hintModelNotFound is the Ollama hint for a missing model.
func hintModelNotFound(model string) string {
	if model == "" {
		model = "NAME"
	}
	return fmt.Sprintf("model not found — pull it with `hearth models pull %s`", model)
}

// isConnRefused reports errors that mean "nobody is listening there": a local
// Ollama that is not (yet) running.
func isConnRefused(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) {
		return true
	}
	return strings.Contains(err.Error(), "connection refused")
}

// looksLikeContextOverflow matches the ways servers say the prompt is too long.
func looksLikeContextOverflow(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{
		"context length", "context window", "context_length_exceeded", "maximum context",
		"prompt is too long", "too many tokens", "exceeds the context", "input length",
		"reduce the length",
	} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// looksLikeToolParseFailure matches Ollama's stream errors when the model wrote
// a malformed tool call.
func looksLikeToolParseFailure(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "tool") && (strings.Contains(m, "pars") || strings.Contains(m, "invalid"))
}

// looksLikeModelNotFound matches "model not found" wordings.
func looksLikeModelNotFound(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "not found") && strings.Contains(m, "model") ||
		strings.Contains(m, "model_not_found") || strings.Contains(m, "does not exist") ||
		strings.Contains(m, "file does not exist")
}

// canceled reports whether err comes from the caller's context.
func canceled(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ctx.Err()))
}
