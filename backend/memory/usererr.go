package memory

import "hearth/backend/i18n"

// Error is a failure said to the person: Msg words it in the UI language (the window
// shows it so), Error() is the English (logs, the command line). Err, when set, is the
// cause it wraps.
type Error struct {
	Msg i18n.Message
	Err error
}

func (e *Error) Error() string { return e.Msg.String() }

// Unwrap is the cause.
func (e *Error) Unwrap() error { return e.Err }

// UserMessage is the failure as a catalog code and its arguments.
func (e *Error) UserMessage() i18n.Message { return e.Msg }
