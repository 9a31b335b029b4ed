package extract

import (
	"errors"
	"io/fs"

	"hearth/backend/i18n"
)

// Error is a refused read: Kind is one of the Err* values (errors.Is finds it), Why
// the coded problem — what went wrong and what to do — that the window translates and
// the command line prints in English.
type Error struct {
	Name string
	Kind error
	Why  i18n.Problem
}

func refuse(name string, kind error, why i18n.Problem) *Error {
	return &Error{Name: name, Kind: kind, Why: why}
}

func (e *Error) Error() string { return e.Why.String() }

func (e *Error) Unwrap() error { return e.Kind }

// UserMessage is the refusal as a catalog code and its arguments (the window's
// error formatter reads it).
func (e *Error) UserMessage() i18n.Message { return e.Why.Text }

// UserProblems is the refusal with its hint.
func (e *Error) UserProblems() []i18n.Problem { return []i18n.Problem{e.Why} }

// Problem words any error File or Bytes returned for a person: a refusal as it
// is, a missing or unreadable file with what to check.
func Problem(err error) i18n.Problem {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Why
	case errors.Is(err, fs.ErrNotExist):
		return i18n.P("extract.notFound", "error", err.Error())
	case errors.Is(err, fs.ErrPermission):
		return i18n.P("extract.denied", "error", err.Error())
	}
	return i18n.P("extract.cantRead", "error", err.Error())
}
