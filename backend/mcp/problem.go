package mcp

import (
	"strings"

	"hearth/backend/i18n"
)

// Error is a server entry Hearth will not take (a pasted block it cannot import, an
// entry the editor cannot save or test), worded for a person: each problem is a catalog
// code with its hint, so the window says it in the UI language, while Error() is the
// English the command line prints. An import collects the problems of every server in
// the block, so one Error holds them all.
type Error struct {
	Problems []i18n.Problem
}

// problem is the Error of one problem.
func problem(p i18n.Problem) *Error { return &Error{Problems: []i18n.Problem{p}} }

// Error is the problems in English, each with its hint, joined by "; ".
func (e *Error) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return strings.Join(parts, "; ")
}

// UserMessage is the first problem's text: what a caller that knows one message shows.
func (e *Error) UserMessage() i18n.Message {
	if len(e.Problems) == 0 {
		return i18n.Message{}
	}
	return e.Problems[0].Text
}

// UserProblems are all the problems with their hints, for the window to word each.
func (e *Error) UserProblems() []i18n.Problem { return e.Problems }
