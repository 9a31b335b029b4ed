package schedule

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"hearth/backend/i18n"
	"hearth/backend/internal/clip"
)

// The bounds of the reminders. The model adds reminders without asking (the cron
// tool), so nothing it adds may grow jobs.json past what Hearth reads back
// (maxJobsBytes): a file refused at read would make every reminder unreadable.
// At these bounds the file stays well under it (1 000 reminders of 4 000
// characters, each with its history, are a few MB).
const (
	// MaxMessageChars bounds a reminder's message.
	MaxMessageChars = 4000
	// MaxNameChars bounds a reminder's name.
	MaxNameChars = 200
	// MaxJobs bounds how many reminders there are (finished one-shots included).
	MaxJobs = 1000
	// maxRunErrorChars bounds a run's error kept in a reminder's history.
	maxRunErrorChars = 500
)

// maxJobsBytes bounds jobs.json: what the reader takes, and what a write may
// make (see LimitError). The bounds above keep it far below.
const maxJobsBytes = 16 << 20

// LimitError is a change to the reminders that one of their bounds refuses. Why
// words it for a person (the window says it in the UI language: catalog codes
// schedule.limit.*); Error() is the English the model and the command line get.
type LimitError struct{ Why i18n.Problem }

func (e *LimitError) Error() string { return e.Why.String() }

// UserMessage is the refusal as a catalog code and its arguments.
func (e *LimitError) UserMessage() i18n.Message { return e.Why.Text }

// UserProblems is the refusal with its hint.
func (e *LimitError) UserProblems() []i18n.Problem { return []i18n.Problem{e.Why} }

func limitError(code string, pairs ...string) error { return &LimitError{Why: i18n.P(code, pairs...)} }

// checkSize refuses a spec whose message or name is past its bound.
func checkSize(spec JobSpec) error {
	if n := utf8.RuneCountInString(spec.Message); n > MaxMessageChars {
		return limitError("schedule.limit.message", "length", strconv.Itoa(n), "max", strconv.Itoa(MaxMessageChars))
	}
	if n := utf8.RuneCountInString(spec.Name); n > MaxNameChars {
		return limitError("schedule.limit.name", "length", strconv.Itoa(n), "max", strconv.Itoa(MaxNameChars))
	}
	return nil
}

// checkCount refuses one reminder more when there are n already.
func checkCount(n int) error {
	if n >= MaxJobs {
		return limitError("schedule.limit.count", "count", strconv.Itoa(n), "max", strconv.Itoa(MaxJobs))
	}
	return nil
}

// checkFile refuses to write a jobs.json of size bytes that the reader would refuse.
func checkFile(size int) error {
	if size > maxJobsBytes {
		return limitError("schedule.limit.file", "size", mb(size), "max", mb(maxJobsBytes))
	}
	return nil
}

// clipError keeps a run's error short enough for its place in the history.
func clipError(s string) string { return clip.Runes(s, maxRunErrorChars) }

func mb(n int) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }
