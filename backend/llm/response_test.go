package llm

import (
	"context"
	"testing"
	"time"

	"hearth/backend/internal/fakeollama"
)

// The response says where its calls came from (the fitness check tells "calls
// tools" from "needs the text fallback" by it) and how long generation took.
func TestResponseSaysHowCallsCameAndGenerationTime(t *testing.T) {
	o, _, _ := newFakeOllama(t,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: []byte(`{"path":"a.txt"}`)}}, EvalCount: 20, EvalDurationMS: 500},
		fakeollama.Reply{Content: `{"name": "read_file", "arguments": {"path": "a.txt"}}`},
		fakeollama.Reply{Content: "Just text."},
	)
	req := Request{Model: "qwen3:4b", Messages: []Message{{Role: RoleUser, Content: "read a.txt"}}, Tools: []ToolDef{readFileTool}}
	for i, want := range []struct {
		calls     int
		textCalls bool
		eval      time.Duration
	}{{1, false, 500 * time.Millisecond}, {1, true, time.Microsecond}, {0, false, time.Microsecond}} {
		resp, err := o.Chat(context.Background(), req, nil)
		if err != nil {
			t.Fatalf("reply %d: %v", i+1, err)
		}
		if len(resp.Message.ToolCalls) != want.calls || resp.TextToolCalls != want.textCalls || resp.EvalDuration != want.eval {
			t.Errorf("reply %d: %d calls, TextToolCalls %v, EvalDuration %v; want %+v", i+1, len(resp.Message.ToolCalls), resp.TextToolCalls, resp.EvalDuration, want)
		}
	}
}
