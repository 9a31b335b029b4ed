package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
	"hearth/backend/workspace"
)

// TestBudgetNeverExceeded runs a turn on a session of 100 turns whose tool
// results are 50 KB each, with a tool that returns 50 KB again, and checks
// that every request the fake received fits num_ctx minus the reply budget
// by the prompt package's estimator (docs/design/prompt-size.md#token-budget), and that the user is told
// history was left out.
func TestBudgetNeverExceeded(t *testing.T) {
	var pc *PromptContext

	// prompt_eval_count 1 is below what calibration accepts, so the
	// estimator stays uncalibrated and the check below is exact.
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("big", `{}`), call("big", `{"n":2}`)}, PromptEvalCount: 1},
		{ToolCalls: []fakeollama.ToolCall{call("big", `{"n":3}`)}, PromptEvalCount: 1},
		{Content: "Read it all.", PromptEvalCount: 1},
	}}, func(o *Options) {
		if _, err := workspace.Onboard(o.Workspace); err != nil {
			t.Fatal(err)
		}
		b, err := prompt.New(prompt.Options{Workspace: o.Workspace})
		if err != nil {
			t.Fatal(err)
		}
		pc = &PromptContext{System: b.SystemPrompt, Estimator: prompt.NewEstimator()}
		o.Context = pc
		o.Estimator = pc.Estimator
	})
	big := strings.Repeat("0123456789 abcdefghij klmnopqrst uvwxyz ABCDEFGHIJ\n", 1000) // 50 KB
	_ = h.reg.Register(&testTool{name: "big", readOnly: true, run: func(context.Context, tools.Args) (tools.Result, error) {
		return tools.Text(big), nil
	}})
	var recs []session.Record
	for i := range 100 {
		id := fmt.Sprintf("old%d", i)
		recs = append(recs,
			session.MessageRecord(id, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("question %d", i)}),
			session.MessageRecord(id, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id + "-1", Name: "read_file", Arguments: json.RawMessage(`{"path":"x"}`)}}}),
			session.MessageRecord(id, llm.Message{Role: llm.RoleTool, ToolCallID: id + "-1", ToolName: "read_file", Content: big}),
			session.MessageRecord(id, llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("answer %d", i)}),
			session.RunRecord(session.Run{ID: id, Status: session.StatusOK}))
	}
	if _, err := h.store.Create(session.CreateOptions{ID: "long"}); err != nil {
		t.Fatal(err)
	}
	if err := h.store.Append("long", recs...); err != nil {
		t.Fatal(err)
	}

	res, evs := h.send("long", "read the big thing again")
	if res.Status != event.StatusOK || res.Final != "Read it all." {
		t.Fatalf("result %+v %s", res, describe(evs))
	}
	left := false
	for _, n := range ofType[event.NoticeData](evs) {
		left = left || strings.Contains(n.Message, "Left out to fit") && strings.Contains(n.Message, "older turns")
	}
	if res.FirstKept < 400-40 || res.FirstKept > 400 {
		t.Errorf("Result.FirstKept %d: want the index of the first kept message, near the end of the 400 old ones", res.FirstKept)
	}
	if want := 400 + 1 + 3 + 2; res.HistoryLen != want { // the last request: question, a batch of 2 calls, one of 1
		t.Errorf("Result.HistoryLen %d, want %d", res.HistoryLen, want)
	}
	if !left {
		t.Errorf("no notice about history left out: %+v", ofType[event.NoticeData](evs))
	}
	reqs := h.fake.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	counter := pc.Estimator.Counter("ollama/qwen3:4b")
	if counter.Ratio != 1 {
		t.Fatalf("estimator was calibrated (%v): the check would not be exact", counter.Ratio)
	}
	for i, r := range reqs {
		numCtx := int(r.Options["num_ctx"].(float64))
		system, msgs := fromWire(t, r.Messages)
		est := counter.Request(system, toolsFromWire(t, r.Tools), msgs)
		t.Logf("request %d: %d messages, ~%d tokens of num_ctx %d", i, len(r.Messages), est, numCtx)
		if est > numCtx-DefaultMaxTokens {
			t.Errorf("request %d estimates %d tokens: over num_ctx %d − reply %d", i, est, numCtx, DefaultMaxTokens)
		}
	}
	last := reqs[2].Messages
	if !strings.Contains(lastUser(last), "read the big thing again") || !strings.Contains(lastUser(last), "[Runtime Context]") {
		t.Errorf("the current turn must be sent with its runtime context: %q", lastUser(last))
	}
	sess, _ := h.store.Load("long")
	for _, e := range sess.Entries {
		if strings.Contains(e.Content, "[Runtime Context]") {
			t.Fatal("the runtime context was stored in the session")
		}
	}
}

func lastUser(msgs []fakeollama.ChatMessage) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i].Content
		}
	}
	return ""
}

// fromWire turns the messages Ollama received back into llm messages.
func fromWire(t *testing.T, in []fakeollama.ChatMessage) (string, []llm.Message) {
	t.Helper()
	system := ""
	var out []llm.Message
	for _, m := range in {
		if m.Role == "system" {
			system = m.Content
			continue
		}
		msg := llm.Message{Role: llm.Role(m.Role), Content: m.Content, Reasoning: m.Thinking, ToolCallID: m.ToolCallID, ToolName: m.ToolName}
		if len(m.ToolCalls) > 0 && string(m.ToolCalls) != "null" {
			var calls []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			}
			if err := json.Unmarshal(m.ToolCalls, &calls); err != nil {
				t.Fatalf("tool calls %s: %v", m.ToolCalls, err)
			}
			for _, c := range calls {
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
			}
		}
		out = append(out, msg)
	}
	return system, out
}

func toolsFromWire(t *testing.T, in []json.RawMessage) []llm.ToolDef {
	t.Helper()
	var out []llm.ToolDef
	for _, raw := range in {
		var w struct {
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if err := json.Unmarshal(raw, &w); err != nil {
			t.Fatal(err)
		}
		out = append(out, llm.ToolDef{Name: w.Function.Name, Description: w.Function.Description, Parameters: w.Function.Parameters})
	}
	return out
}
