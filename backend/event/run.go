// Package event holds what Hearth's parts tell each other and the user: the ordered
// stream of a run (run_started … run_finished, the JSON contract the window and the CLI
// read) and the other typed news (memory changed, MCP changed, background notices),
// delivered through Broker. It is a leaf: it imports no other Hearth package, so the
// agent, the audit log, the approval gate, the services and both front ends can all
// share these types.
package event

import (
	"encoding/json"
	"fmt"
)

// Type names an event in the run's stream.
type Type string

// Event types, in the order a run may emit them: run_started first, exactly
// one run_finished last, anything else in between.
const (
	RunStarted     Type = "run_started"
	TextDelta      Type = "text_delta"
	ReasoningDelta Type = "reasoning_delta"
	ToolCall       Type = "tool_call"
	Approval       Type = "approval" // emitted by the approval gate
	ToolResult     Type = "tool_result"
	Usage          Type = "usage"
	Notice         Type = "notice"
	Error          Type = "error"
	RunFinished    Type = "run_finished"
	// The life of a message sent to the chat while the run goes on (a steer or a
	// queued turn): it waits (again when edited or switched), is taken by the run or
	// by the next turn, or is dropped (removed, or sent by itself after a stop).
	Pending        Type = "pending"
	PendingTaken   Type = "pending_taken"
	PendingDropped Type = "pending_dropped"
)

// Status is how a run ended (run_finished status; the session file keeps the same
// values).
type Status string

// Run statuses.
const (
	StatusOK          Status = "ok"
	StatusError       Status = "error"
	StatusCancelled   Status = "cancelled"
	StatusInterrupted Status = "interrupted" // cut by a shutdown or crash: can be continued
)

// Event is one entry of a run's stream. It marshals as one flat JSON object:
// the envelope {runId, sessionId, seq, type} followed by the fields of Data,
// e.g. {"runId":"r1","sessionId":"s1","seq":3,"type":"text_delta","text":"Hel"}.
type Event struct {
	RunID     string
	SessionID string
	// Seq starts at 1 and grows by one per event of the run.
	Seq  int64
	Type Type
	// Data is the payload: one of the *Data types below, matching Type.
	Data any
}

// StartedData is the payload of run_started.
type StartedData struct {
	Model string `json:"model"`
	// Continued is set when the run resumes an interrupted one (Continue).
	Continued bool `json:"continued,omitempty"`
	// Command is set when the run answers a slash command (its name, without the
	// slash): the reply is plain text with its own line breaks, not Markdown.
	Command string `json:"command,omitempty"`
}

// DeltaData is the payload of text_delta and reasoning_delta.
type DeltaData struct {
	Text string `json:"text"`
	// Lines word Text for the window in its language, one catalog message a line: a
	// slash command's reply (the only delta that has them) comes whole in one delta.
	Lines []Line `json:"lines,omitempty"`
	// FirstSeq is set on the window's merged delta (event.Relay): it joins the deltas
	// from FirstSeq to the event's Seq, which is the last one's.
	FirstSeq int64 `json:"firstSeq,omitempty"`
}

// Line is user-facing text as a catalog code and its arguments: the shape of
// i18n.Message, which this leaf package does not import.
type Line struct {
	Code string            `json:"code"`
	Args map[string]string `json:"args,omitempty"`
}

// ToolCallData is the payload of tool_call.
type ToolCallData struct {
	CallID string          `json:"callId"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
}

// ApprovalData is the payload of approval (emitted by the approval gate).
type ApprovalData struct {
	CallID string `json:"callId"`
	State  string `json:"state"` // requested, allowed, denied
	Scope  string `json:"scope,omitempty"`
	// Sandbox says, on a request, what the call will be allowed to do once allowed (exec:
	// where it may write, whether it has network); empty when nothing confines it.
	// SandboxNote words Sandbox for the window in its language.
	Sandbox     string `json:"sandbox,omitempty"`
	SandboxNote *Line  `json:"sandboxNote,omitempty"`
	// Dir is, on a request, where the call runs (exec's working directory).
	Dir string `json:"dir,omitempty"`
	// Destructive marks, on a request, a call that deletes or overwrites data: the
	// card has no default button for it.
	Destructive bool `json:"destructive,omitempty"`
}

// ApprovalDenied is the denied State of ApprovalData.
const ApprovalDenied = "denied"

// ScopeInvalid is the scope of the denied approval event the loop itself
// emits for a call whose arguments were refused before the Gate was asked
// (a key given twice or in two spellings of case, a missing or unknown
// field): the audit log records it as "invalid".
const ScopeInvalid = "invalid"

// ScopeRule is the scope of the denied approval event for a call the tool's own
// safety rules refused before anyone was asked (exec's guard, a working
// directory outside what the sandbox allows): no card is shown for it.
const ScopeRule = "rule"

// ToolResultData is the payload of tool_result.
type ToolResultData struct {
	CallID     string `json:"callId"`
	Name       string `json:"name"`
	OK         bool   `json:"ok"`
	Content    string `json:"content"`
	DurationMs int64  `json:"durationMs"`
	// Code and Args, on a refused call (the approval gate, a safety rule), say why for
	// the user in the window's language (backend/i18n); Content is what the model read.
	Code string            `json:"code,omitempty"`
	Args map[string]string `json:"args,omitempty"`
}

// UsageData is the payload of usage, sent after every model call.
type UsageData struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	// ContextUsed is what the last call occupied of the window (prompt +
	// reply); ContextLimit is the window (num_ctx).
	ContextUsed  int `json:"contextUsed"`
	ContextLimit int `json:"contextLimit"`
}

// Notice levels.
const (
	LevelInfo    = "info"
	LevelWarning = "warning"
)

// NoticeData is the payload of notice: something the user should know that
// is not an error (history left out, model lacks tools, …).
// Code and Args name the message for the window to word in its language
// (backend/i18n); Message is its English, what the CLI prints.
type NoticeData struct {
	Level   string            `json:"level"`
	Message string            `json:"message"`
	Code    string            `json:"code,omitempty"`
	Args    map[string]string `json:"args,omitempty"`
	// Lists fill placeholders of Code with lines the window words and joins
	// (i18n.Message.Lists).
	Lists map[string][]Line `json:"lists,omitempty"`
}

// Error codes besides the llm.ErrorKind values (unreachable, model_not_found,
// context_overflow, auth, rate_limited, bad_response).
const (
	CodeLoopDetected = "loop_detected"
	CodeStorage      = "storage"
	CodeInternal     = "internal"
	CodeModel        = "model"
)

// ErrorData is the payload of error.
type ErrorData struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	// Text and HintText word Message and Hint for the window in its language (backend/i18n
	// codes); without them the window shows the English. Message may say more (the
	// server's own words), which the window keeps as the detail.
	Text     *Line  `json:"text,omitempty"`
	HintText []Line `json:"hintText,omitempty"`
	// Detail is what the cause said (a server's own words), beside a worded Text.
	Detail string `json:"detail,omitempty"`
}

// FinishedData is the payload of run_finished.
type FinishedData struct {
	Status Status `json:"status"`
	// Final is the answer the user got (partial when cancelled).
	Final      string `json:"final"`
	DurationMs int64  `json:"durationMs"`
	// NewSessionID is set by /new: the session the chat continues in.
	NewSessionID string `json:"newSessionId,omitempty"`
	// ChatModel is set by a /model that switched the chat's model: the window shows
	// (and the chat's next turns use) what the session now holds.
	ChatModel string `json:"chatModel,omitempty"`
	// NextRunID is the turn a pending message started as this run ended: the window
	// follows the chat into it.
	NextRunID string `json:"nextRunId,omitempty"`
	// Limit names the budget of the turn that ended it with a summary ("toolRounds",
	// "time"): the window and the terminal offer Continue.
	Limit string `json:"limit,omitempty"`
}

// PendingData is the payload of pending: a message waiting for the run, whole, as
// it is now (the same id again after an edit or a switch of mode).
type PendingData struct {
	ID   string `json:"id"`
	Mode string `json:"mode"` // steer or queue
	Text string `json:"text"`
	// Held marks a message no run takes by itself (its run stopped or failed): the
	// person sends it again or removes it.
	Held bool `json:"held,omitempty"`
}

// TakenData is the payload of pending_taken. A steer taken at a safe point is the
// user's message in the running turn from here on; NextRunID is set when the message
// starts the next turn instead (a queued one, or a steer the turn ended before
// taking: AsTurn).
type TakenData struct {
	ID        string `json:"id"`
	Mode      string `json:"mode"`
	Text      string `json:"text"`
	AsTurn    bool   `json:"asTurn,omitempty"`
	NextRunID string `json:"nextRunId,omitempty"`
}

// DroppedData is the payload of pending_dropped.
type DroppedData struct {
	ID string `json:"id"`
}

type envelope struct {
	RunID     string `json:"runId"`
	SessionID string `json:"sessionId"`
	Seq       int64  `json:"seq"`
	Type      Type   `json:"type"`
}

// MarshalJSON writes the envelope and the payload's fields as one object.
func (e Event) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(envelope{e.RunID, e.SessionID, e.Seq, e.Type})
	if err != nil {
		return nil, err
	}
	if e.Data == nil {
		return head, nil
	}
	body, err := json.Marshal(e.Data)
	if err != nil {
		return nil, fmt.Errorf("event %s: %w", e.Type, err)
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("event %s: payload %T is not a JSON object", e.Type, e.Data)
	}
	if len(body) == 2 { // {}
		return head, nil
	}
	out := make([]byte, 0, len(head)+len(body))
	out = append(out, head[:len(head)-1]...)
	out = append(out, ',')
	return append(out, body[1:]...), nil
}

// Sink receives a run's events in order, from the run's goroutines one at a
// time. It must not block for long: the run waits for it.
type Sink func(Event)
