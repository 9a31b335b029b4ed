package channels

import "hearth/backend/i18n"

// Error is a failure of a Settings › Channels action worded for the person: the
// window words Msg in its language (a bound method's error with UserMessage), the
// logs and the CLI read its English.
type Error struct {
	Msg i18n.Message
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Msg.String() + ": " + e.Err.Error()
	}
	return e.Msg.String()
}

// Unwrap is the cause.
func (e *Error) Unwrap() error { return e.Err }

// UserMessage is the failure as a catalog code and its arguments.
func (e *Error) UserMessage() i18n.Message { return e.Msg }

func userErr(err error, code string, pairs ...string) *Error {
	return &Error{Msg: i18n.M(code, pairs...), Err: err}
}
