package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
)

// EventType names an event in the run's stream (F-EVENTS).
type EventType string

// Event types, in the order a run may emit them: run_started first, exactly
// one run_finished last, anything else in between.
const (
	EventRunStarted     EventType = "run_started"
	EventTextDelta      EventType = "text_delta"
	EventReasoningDelta EventType = "reasoning_delta"
	EventToolCall       EventType = "tool_call"
	EventApproval       EventType = "approval" // reserved for F-APPROVAL; emitted by a Gate
	EventToolResult     EventType = "tool_result"
	EventUsage          EventType = "usage"
	EventNotice         EventType = "notice"
	EventError          EventType = "error"
	EventRunFinished    EventType = "run_finished"
)

// Event is one entry of a run's stream. It marshals as one flat JSON object:
// the envelope {runId, sessionId, seq, type} followed by the fields of Data,
// e.g. {"runId":"r1","sessionId":"s1","seq":3,"type":"text_delta","text":"Hel"}.
type Event struct {
	RunID     string
	SessionID string
	// Seq starts at 1 and grows by one per event of the run.
	Seq  int64
	Type EventType
	// Data is the payload: one of the *Data types below, matching Type.
	Data any
}

// StartedData is the payload of run_started.
type StartedData struct {
	Model string `json:"model"`
	// Continued is set when the run resumes an interrupted one (Continue).
	Continued bool `json:"continued,omitempty"`
}

// DeltaData is the payload of text_delta and reasoning_delta.
type DeltaData struct {
	Text string `json:"text"`
}

// ToolCallData is the payload of tool_call.
type ToolCallData struct {
	CallID string          `json:"callId"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
}

// ApprovalData is the payload of approval (F-APPROVAL, emitted by a Gate).
type ApprovalData struct {
	CallID string `json:"callId"`
	State  string `json:"state"` // requested, allowed, denied
	Scope  string `json:"scope,omitempty"`
	// Sandbox says, on a request, what the call will be allowed to do once allowed (exec:
	// where it may write, whether it has network); empty when nothing confines it.
	Sandbox string `json:"sandbox,omitempty"`
}

// ApprovalDenied is the denied State of ApprovalData.
const ApprovalDenied = "denied"

// ScopeInvalid is the scope of the denied approval event the loop itself
// emits for a call whose arguments were refused before the Gate was asked
// (a key given twice or in two spellings of case, a missing or unknown
// field): the audit log records it as "invalid".
const ScopeInvalid = "invalid"

// ToolResultData is the payload of tool_result.
type ToolResultData struct {
	CallID     string `json:"callId"`
	Name       string `json:"name"`
	OK         bool   `json:"ok"`
	Content    string `json:"content"`
	DurationMs int64  `json:"durationMs"`
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
type NoticeData struct {
	Level   string `json:"level"`
	Message string `json:"message"`
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
}

// FinishedData is the payload of run_finished.
type FinishedData struct {
	Status Status `json:"status"`
	// Final is the answer the user got (partial when cancelled).
	Final      string `json:"final"`
	DurationMs int64  `json:"durationMs"`
	// NewSessionID is set by /new: the session the chat continues in.
	NewSessionID string `json:"newSessionId,omitempty"`
}

type envelope struct {
	RunID     string    `json:"runId"`
	SessionID string    `json:"sessionId"`
	Seq       int64     `json:"seq"`
	Type      EventType `json:"type"`
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

// UnmarshalJSON reads what MarshalJSON wrote, with Data of the type's payload.
func (e *Event) UnmarshalJSON(b []byte) error {
	var env envelope
	if err := json.Unmarshal(b, &env); err != nil {
		return err
	}
	e.RunID, e.SessionID, e.Seq, e.Type = env.RunID, env.SessionID, env.Seq, env.Type
	var data any
	switch env.Type {
	case EventRunStarted:
		data = &StartedData{}
	case EventTextDelta, EventReasoningDelta:
		data = &DeltaData{}
	case EventToolCall:
		data = &ToolCallData{}
	case EventApproval:
		data = &ApprovalData{}
	case EventToolResult:
		data = &ToolResultData{}
	case EventUsage:
		data = &UsageData{}
	case EventNotice:
		data = &NoticeData{}
	case EventError:
		data = &ErrorData{}
	case EventRunFinished:
		data = &FinishedData{}
	default:
		return fmt.Errorf("unknown event type %q", env.Type)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(data); err != nil {
		return err
	}
	// Store values, as the runner does, so type switches work the same.
	switch d := data.(type) {
	case *StartedData:
		e.Data = *d
	case *DeltaData:
		e.Data = *d
	case *ToolCallData:
		e.Data = *d
	case *ApprovalData:
		e.Data = *d
	case *ToolResultData:
		e.Data = *d
	case *UsageData:
		e.Data = *d
	case *NoticeData:
		e.Data = *d
	case *ErrorData:
		e.Data = *d
	case *FinishedData:
		e.Data = *d
	}
	return nil
}

// Sink receives a run's events in order, from the run's goroutines one at a
// time. It must not block for long: the run waits for it.
type Sink func(Event)

// emitter numbers and delivers the events of one run. Parallel tools emit
// from several goroutines; the lock keeps seq and delivery order the same.
type emitter struct {
	mu        sync.Mutex
	runID     string
	sessionID string
	seq       int64
	sinks     []Sink
	finished  bool
	// redact masks secrets in error and notice texts: a provider's error
	// may quote a request that held a key (F-SECRETS).
	redact func(string) string
}

func (em *emitter) emit(t EventType, data any) {
	em.mu.Lock()
	defer em.mu.Unlock()
	if em.finished {
		return // nothing may follow run_finished
	}
	if em.redact != nil {
		switch d := data.(type) {
		case ErrorData:
			d.Message, d.Hint = em.redact(d.Message), em.redact(d.Hint)
			data = d
		case NoticeData:
			d.Message = em.redact(d.Message)
			data = d
		}
	}
	em.seq++
	ev := Event{RunID: em.runID, SessionID: em.sessionID, Seq: em.seq, Type: t, Data: data}
	if t == EventRunFinished {
		em.finished = true
	}
	for _, s := range em.sinks {
		if s != nil {
			deliver(s, ev)
		}
	}
}

// deliver calls one sink; a sink that panics (a UI or log bug) loses that
// event but never takes the run, or a parallel tool's goroutine, down.
func deliver(s Sink, ev Event) {
	defer func() { _ = recover() }()
	s(ev)
}

func (em *emitter) notice(level, format string, args ...any) {
	em.emit(EventNotice, NoticeData{Level: level, Message: fmt.Sprintf(format, args...)})
}
