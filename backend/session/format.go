package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"hearth/backend/event"
	"hearth/backend/llm"
)

// formatVersion is written in the metadata line; readers accept any version
// and skip line kinds they do not know (with a warning).
const formatVersion = 1

// Line kinds: the "type" field that starts every line of a session file.
const (
	kindMeta    = "meta"        // first line: the full metadata
	kindMessage = "message"     // one llm.Message
	kindRun     = "run"         // the final line of a finished run
	kindUpdate  = "meta_update" // a metadata change; fields present win
)

// NoneConsolidated is Meta.LastConsolidated of a session none of whose
// messages were consolidated into memory yet.
const NoneConsolidated = -1

// Meta is a session's metadata as of the last metadata line.
type Meta struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Created is when the session was created; Updated is the time of its last
	// message or run line (metadata changes do not move it).
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Model   string    `json:"model"`
	// LastConsolidated is the index (into the session's messages) of the last
	// message consolidated into memory, NoneConsolidated when there is none.
	LastConsolidated int  `json:"lastConsolidated"`
	Archived         bool `json:"archived"`
}

// RunStatus is how a run ended: the run_finished event's status.
type RunStatus = event.Status

// Run statuses, as in the run_finished event. StatusInterrupted is written by
// the runner when it gives up an interrupted run instead of continuing it.
const (
	StatusOK          = event.StatusOK
	StatusError       = event.StatusError
	StatusCancelled   = event.StatusCancelled
	StatusInterrupted = event.StatusInterrupted
)

func validStatus(s RunStatus) bool {
	switch s {
	case StatusOK, StatusError, StatusCancelled, StatusInterrupted:
		return true
	}
	return false
}

// Run is the final line of a finished run.
type Run struct {
	ID     string    `json:"runId"`
	Status RunStatus `json:"status"`
	// Final is the answer the user saw (empty when the run produced none).
	Final string `json:"final"`
	// Error is the error message of a run with StatusError.
	Error string `json:"error,omitempty"`
	// Model is the model the run asked ("ollama/qwen3:4b"), when known.
	Model string    `json:"model,omitempty"`
	Usage llm.Usage `json:"usage"`
	// DurationMs is how long the run took, in milliseconds (as in events).
	DurationMs int64 `json:"durationMs"`
	// At is when the run finished; Append fills it in when zero.
	At time.Time `json:"at"`
	// Failure is the error event the window showed (its code, wording and hint), so a
	// chat opened again shows the same card: a missing model with its Download, in
	// the window's language.
	Failure *event.ErrorData `json:"failure,omitempty"`
	// Channel is where the run came from when not the window ("cron" for a reminder),
	// so a chat opened again shows a reminder's words as a reminder, not as typed.
	Channel string `json:"channel,omitempty"`
	// Limit names the budget that ended the run with a summary ("toolRounds", "time"),
	// so a chat opened again still offers Continue.
	Limit string `json:"limit,omitempty"`
	// Notes are what the run told about the message's attachments ("report.pdf:
	// whole"), so a chat opened again shows them on the turn as it was shown live.
	Notes []event.NoticeData `json:"notes,omitempty"`
}

// Entry is one stored message with the time it was written and its run.
type Entry struct {
	llm.Message
	At    time.Time `json:"at"`
	RunID string    `json:"runId,omitempty"`
}

// Record is one line to append: either a message of a run or a run's final
// line. Build it with MessageRecord or RunRecord.
type Record struct {
	RunID   string
	Message *llm.Message
	Run     *Run
	// At is the time written to the line; zero means the store's clock.
	At time.Time
}

// MessageRecord is a record of message m written by run runID (which may be
// empty for messages outside any run).
func MessageRecord(runID string, m llm.Message) Record {
	return Record{RunID: runID, Message: &m}
}

// RunRecord is the final line of run r.
func RunRecord(r Run) Record {
	return Record{RunID: r.ID, Run: &r}
}

// metaLine is the first line of a session file.
type metaLine struct {
	Type             string    `json:"type"`
	V                int       `json:"v"`
	ID               string    `json:"id"`
	Title            string    `json:"title"`
	Created          time.Time `json:"created"`
	Updated          time.Time `json:"updated"`
	Model            string    `json:"model"`
	LastConsolidated *int      `json:"lastConsolidated"`
	Archived         bool      `json:"archived"`
}

// messageLine keeps type, at, runId and role first so List can read them
// from the start of a line without decoding the rest (see peek).
type messageLine struct {
	Type  string    `json:"type"`
	At    time.Time `json:"at"`
	RunID string    `json:"runId,omitempty"`
	llm.Message
}

type runLine struct {
	Type       string             `json:"type"`
	At         time.Time          `json:"at"`
	RunID      string             `json:"runId"`
	Status     RunStatus          `json:"status"`
	Final      string             `json:"final"`
	Error      string             `json:"error,omitempty"`
	Model      string             `json:"model,omitempty"`
	Usage      llm.Usage          `json:"usage"`
	DurationMs int64              `json:"durationMs"`
	Failure    *event.ErrorData   `json:"failure,omitempty"`
	Channel    string             `json:"channel,omitempty"`
	Limit      string             `json:"limit,omitempty"`
	Notes      []event.NoticeData `json:"notes,omitempty"`
}

type updateLine struct {
	Type             string    `json:"type"`
	At               time.Time `json:"at"`
	Title            *string   `json:"title,omitempty"`
	Model            *string   `json:"model,omitempty"`
	Archived         *bool     `json:"archived,omitempty"`
	LastConsolidated *int      `json:"lastConsolidated,omitempty"`
}

// stamp drops what a session file does not need to keep: monotonic clock
// readings and sub-millisecond digits.
func stamp(t time.Time) time.Time { return t.Round(0).Truncate(time.Millisecond) }

// encodeLine marshals v and appends the line terminator. encoding/json
// escapes newlines inside strings, so a line never contains a raw '\n'.
func encodeLine(buf []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return buf, err
	}
	buf = append(buf, b...)
	return append(buf, '\n'), nil
}

func encodeMeta(buf []byte, m Meta) ([]byte, error) {
	lc := m.LastConsolidated
	return encodeLine(buf, metaLine{
		Type: kindMeta, V: formatVersion, ID: m.ID, Title: m.Title,
		Created: stamp(m.Created), Updated: stamp(m.Updated), Model: m.Model,
		LastConsolidated: &lc, Archived: m.Archived,
	})
}

// encodeRecord appends the line of r to buf.
func encodeRecord(buf []byte, r Record, now time.Time) ([]byte, error) {
	at := r.At
	if at.IsZero() {
		at = now
	}
	at = stamp(at)
	switch {
	case r.Message != nil && r.Run != nil:
		return buf, errors.New("record has both a message and a run: append them as two records")
	case r.Message != nil:
		if r.Message.Role == "" {
			return buf, errors.New("message record has no role: set llm.Message.Role")
		}
		return encodeLine(buf, messageLine{Type: kindMessage, At: at, RunID: r.RunID, Message: *r.Message})
	case r.Run != nil:
		run := r.Run
		if run.ID == "" {
			return buf, errors.New("run record has no run id: set Run.ID")
		}
		if !validStatus(run.Status) {
			return buf, fmt.Errorf("run %s has status %q: use ok, error, cancelled or interrupted", run.ID, run.Status)
		}
		if !run.At.IsZero() {
			at = stamp(run.At)
		}
		return encodeLine(buf, runLine{
			Type: kindRun, At: at, RunID: run.ID, Status: run.Status, Final: run.Final,
			Error: run.Error, Model: run.Model, Usage: run.Usage, DurationMs: run.DurationMs, Failure: run.Failure,
			Channel: run.Channel, Limit: run.Limit, Notes: run.Notes,
		})
	}
	return buf, errors.New("empty record: build it with MessageRecord or RunRecord")
}

// decodeLine reads a message or run line, most of what a long chat's file holds,
// with encoding/json's rules (duplicate names, invalid UTF-8, names in any case)
// through go-json-experiment/json, which reads a line in one pass: encoding/json
// scans it twice and cost a cold load of a 1 000-message chat about three times
// the instructions (docs/performance.md).
func decodeLine(line []byte, v any) error {
	return jsonv2.Unmarshal(line, v, jsonv1.DefaultOptionsV1())
}
