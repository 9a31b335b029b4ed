package agent

// A turn as a caller sees it: the request, the started run and how it ended.

import (
	"context"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/llm"
)

// Request is one user turn.
type Request struct {
	// SessionID names the session; empty starts a new one. A named session
	// that does not exist yet is created (the CLI's -s NAME).
	SessionID string
	Text      string
	Images    [][]byte
	// Attachments are the records of the files the message came with (already
	// copied and indexed by backend/attach); they are stored on the user message.
	Attachments []llm.Attachment
	// Model overrides the session's model for this run only (--model).
	Model string
	// ChatModel is the model of a chat this run creates (the window's new chat with a
	// model picked): it is stored on the session as it is made, in the same call. A
	// chat that exists keeps its own model (/model changes it).
	ChatModel string
	// Unattended runs (cron, heartbeat, subagents) never wait for a human at the Gate.
	Unattended bool
	// AllowTools names tools the user allowed for this unattended run (a
	// reminder that may use exec, say); the Gate reads it (docs/design/safety-defaults.md#approval).
	AllowTools []string
	// Channel overrides Options.Channel for this run ("cli", "cron", …).
	Channel string
	// Again answers the chat's last question anew (Text is ignored); the earlier
	// answer stays as a version (session.Branch).
	Again bool
	// Edit replaces the Edit-th question of the chat (1-based) with Text: the chat
	// goes on from there, and what followed stays as an earlier version.
	Edit int
	// Resume lets an answer that was stopped part-way go on (Text is ignored).
	Resume bool
	// Notices are told to the user as the run starts (warnings the caller has
	// for this chat, e.g. that saving older messages to memory failed).
	Notices []i18n.Message

	// after holds a turn a waiting message starts until the run before it has
	// emitted its run_finished: a sink shared by both sees one stream end before
	// the next begins.
	after <-chan struct{}
	// seen: a new chat's model was found to see pictures before the chat was made.
	seen bool
}

// Result is how a run ended.
type Result struct {
	RunID     string
	SessionID string
	Status    event.Status
	// Final is the answer (partial when cancelled).
	Final string
	// Err is the run's error for StatusError (an *llm.Error for provider
	// failures, with a hint).
	Err   error
	Usage llm.Usage
	// NewSessionID is set by /new.
	NewSessionID string
	// HistoryLen is the length of the history the run's last request was
	// built from, and FirstKept the index of its first message sent (0:
	// nothing was left out). Memory consolidates what fell out.
	HistoryLen, FirstKept int
	// Next is the turn a waiting message started as this run ended (a queued
	// message, or a steer no safe point took), if any.
	Next *Run
	// Limit names the budget that ended the run with a summary (LimitToolRounds,
	// LimitTime): the caller offers Continue (ContinueText).
	Limit string
}

// Run is a started run.
type Run struct {
	ID        string
	SessionID string

	cancel context.CancelCauseFunc
	done   chan struct{}
	result Result
	em     *emitter // set under Runner.mu once the run is prepared
}

// Done is closed when the run has finished and run_finished was emitted.
func (r *Run) Done() <-chan struct{} { return r.done }

// Wait blocks until the run finishes and returns its result.
func (r *Run) Wait() Result {
	<-r.done
	return r.result
}
