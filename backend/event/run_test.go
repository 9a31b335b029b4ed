package event

import (
	"encoding/json"
	"testing"
)

// The window and the CLI read these exact JSON shapes: one flat object per event.
func TestRunEventJSONContract(t *testing.T) {
	cases := []struct {
		ev   Event
		json string
	}{
		{Event{"r1", "s1", 1, RunStarted, StartedData{Model: "ollama/qwen3:4b"}},
			`{"runId":"r1","sessionId":"s1","seq":1,"type":"run_started","model":"ollama/qwen3:4b"}`},
		{Event{"r1", "s1", 2, TextDelta, DeltaData{Text: "Hel"}},
			`{"runId":"r1","sessionId":"s1","seq":2,"type":"text_delta","text":"Hel"}`},
		// The window's relay merges a frame's deltas: seq is the last one's.
		{Event{"r1", "s1", 4, TextDelta, DeltaData{Text: "lo!", FirstSeq: 2}},
			`{"runId":"r1","sessionId":"s1","seq":4,"type":"text_delta","text":"lo!","firstSeq":2}`},
		{Event{"r1", "s1", 3, ToolCall, ToolCallData{CallID: "c1", Name: "read_file", Args: json.RawMessage(`{"path":"a"}`)}},
			`{"runId":"r1","sessionId":"s1","seq":3,"type":"tool_call","callId":"c1","name":"read_file","args":{"path":"a"}}`},
		{Event{"r1", "s1", 4, Approval, ApprovalData{CallID: "c1", State: "requested"}},
			`{"runId":"r1","sessionId":"s1","seq":4,"type":"approval","callId":"c1","state":"requested"}`},
		{Event{"r1", "s1", 5, ToolResult, ToolResultData{CallID: "c1", Name: "read_file", OK: true, Content: "x", DurationMs: 3}},
			`{"runId":"r1","sessionId":"s1","seq":5,"type":"tool_result","callId":"c1","name":"read_file","ok":true,"content":"x","durationMs":3}`},
		{Event{"r1", "s1", 6, Usage, UsageData{PromptTokens: 10, CompletionTokens: 2, ContextUsed: 12, ContextLimit: 4096}},
			`{"runId":"r1","sessionId":"s1","seq":6,"type":"usage","promptTokens":10,"completionTokens":2,"contextUsed":12,"contextLimit":4096}`},
		{Event{"r1", "s1", 7, Notice, NoticeData{Level: LevelWarning, Message: "m"}},
			`{"runId":"r1","sessionId":"s1","seq":7,"type":"notice","level":"warning","message":"m"}`},
		{Event{"r1", "s1", 8, Error, ErrorData{Code: CodeModel, Message: "m", Hint: "h"}},
			`{"runId":"r1","sessionId":"s1","seq":8,"type":"error","code":"model","message":"m","hint":"h"}`},
		{Event{"r1", "s1", 9, RunFinished, FinishedData{Status: StatusInterrupted, Final: "f", DurationMs: 5}},
			`{"runId":"r1","sessionId":"s1","seq":9,"type":"run_finished","status":"interrupted","final":"f","durationMs":5}`},
		{Event{"r1", "s1", 3, Pending, PendingData{ID: "p1", Mode: "steer", Text: "use src/"}},
			`{"runId":"r1","sessionId":"s1","seq":3,"type":"pending","id":"p1","mode":"steer","text":"use src/"}`},
		{Event{"r1", "s1", 4, PendingTaken, TakenData{ID: "p1", Mode: "steer", Text: "use src/"}},
			`{"runId":"r1","sessionId":"s1","seq":4,"type":"pending_taken","id":"p1","mode":"steer","text":"use src/"}`},
		{Event{"r1", "s1", 5, PendingTaken, TakenData{ID: "p2", Mode: "steer", Text: "t", AsTurn: true, NextRunID: "r2"}},
			`{"runId":"r1","sessionId":"s1","seq":5,"type":"pending_taken","id":"p2","mode":"steer","text":"t","asTurn":true,"nextRunId":"r2"}`},
		{Event{"r1", "s1", 6, PendingDropped, DroppedData{ID: "p3"}},
			`{"runId":"r1","sessionId":"s1","seq":6,"type":"pending_dropped","id":"p3"}`},
		{Event{"r1", "s1", 7, RunFinished, FinishedData{Status: StatusOK, Final: "f", DurationMs: 5, NextRunID: "r2"}},
			`{"runId":"r1","sessionId":"s1","seq":7,"type":"run_finished","status":"ok","final":"f","durationMs":5,"nextRunId":"r2"}`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.ev)
		if err != nil || string(b) != c.json {
			t.Errorf("%s:\n got %s %v\nwant %s", c.ev.Type, b, err, c.json)
			continue
		}
	}
	if _, err := json.Marshal(Event{Type: Notice, Data: "not an object"}); err == nil {
		t.Error("a payload that is no JSON object was accepted")
	}
}
