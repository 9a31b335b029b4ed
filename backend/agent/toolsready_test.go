package agent

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/tools"
)

// offered lists the tool names of a recorded chat request.
func offered(t testing.TB, req fakeollama.ChatRequest) []string {
	t.Helper()
	var out []string
	for _, raw := range req.Tools {
		var d struct {
			Function struct{ Name string } `json:"function"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatalf("tool %s: %v", raw, err)
		}
		out = append(out, d.Function.Name)
	}
	return out
}

// A tool that appears during a run (an MCP server connecting while the
// first tool runs) is offered from the next model request on.
func TestToolListReadAgainEachIteration(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("connect", `{}`)}},
		{Content: "Now I have it."},
	}})
	late := &testTool{name: "late_tool", readOnly: true, run: func(context.Context, tools.Args) (tools.Result, error) {
		return tools.Result{Content: "late"}, nil
	}}
	connect := &testTool{name: "connect", readOnly: true, run: func(context.Context, tools.Args) (tools.Result, error) {
		return tools.Result{Content: "connected"}, h.reg.Register(late)
	}}
	if err := h.reg.Register(connect); err != nil {
		t.Fatal(err)
	}
	res, _ := h.send("s", "connect and go on")
	if res.Status != event.StatusOK {
		t.Fatalf("run %+v", res)
	}
	reqs := h.fake.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if slices.Contains(offered(t, reqs[0]), "late_tool") || !slices.Contains(offered(t, reqs[1]), "late_tool") {
		t.Errorf("first request offers %v, second %v", offered(t, reqs[0]), offered(t, reqs[1]))
	}
}

// WaitTools runs once per run, before the first model request, and its
// notices reach the run's stream; what it made ready is in that request.
func TestWaitToolsBeforeFirstRequest(t *testing.T) {
	calls := 0
	var h *harness
	h = newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("ready_tool", `{}`)}},
		{Content: "Done."},
	}}, func(o *Options) {
		o.WaitTools = func(ctx context.Context, notice func(level string, m i18n.Message)) {
			calls++
			if ctx == nil {
				t.Error("no context")
			}
			notice(event.LevelInfo, i18n.M("notice.mcp.waiting", "names", "slow", "seconds", "5"))
			ready := &testTool{name: "ready_tool", readOnly: true, run: func(context.Context, tools.Args) (tools.Result, error) {
				return tools.Result{Content: "ok"}, nil
			}}
			if err := h.reg.Register(ready); err != nil {
				t.Error(err)
			}
		}
	})
	res, evs := h.send("s", "use it")
	if res.Status != event.StatusOK || calls != 1 {
		t.Fatalf("run %+v, WaitTools called %d times", res, calls)
	}
	if reqs := h.fake.ChatRequests(); !slices.Contains(offered(t, reqs[0]), "ready_tool") {
		t.Errorf("the first request lacks the tool WaitTools waited for: %v", offered(t, reqs[0]))
	}
	notices := ofType[event.NoticeData](evs)
	if len(notices) != 1 || !noticeOf(evs[1], "notice.mcp.waiting", "Waiting for MCP server slow to connect (up to 5 s)…") || evs[1].Type != event.Notice {
		t.Errorf("events: %s", describe(evs))
	}
}
