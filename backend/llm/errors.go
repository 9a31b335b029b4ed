package llm

import (
	"cmp"
	"errors"
	"strings"
	"syscall"

	"hearth/backend/egress"
	"hearth/backend/i18n"
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
	// Why is Message and Hint as catalog codes, for the window to word in its language.
	Why i18n.Problem
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
var (
	hintOllamaDown  = i18n.M("error.hint.ollamaDown")
	hintRateLimited = i18n.M("error.hint.rateLimited")
	hintBadResponse = i18n.M("error.hint.badResponse")
	hintDamaged     = i18n.M("error.hint.damagedHistory")
)

// fail is an Error worded from the catalog: why's English is its Message and Hint.
func fail(kind ErrorKind, err error, why i18n.Problem) *Error {
	return &Error{Kind: kind, Message: why.Text.String(), Hint: why.HintString(), Err: err, Why: why}
}

// badReply is the error of an unusable reply, worded by text.
func badReply(err error, text i18n.Message) *Error {
	return fail(KindBadResponse, err, text.WithHint(hintBadResponse))
}

// overflow is the error of a conversation that no longer fits the model's context.
func overflow(err error) *Error {
	return fail(KindContextOverflow, err, i18n.P("error.contextOverflow"))
}

// modelMissing is Ollama's error for a model it does not have.
func modelMissing(err error, model string) *Error {
	return fail(KindModelNotFound, err, i18n.P("error.ollama.modelMissing", "model", cmp.Or(model, "NAME")))
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
