package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

func mustMkdir(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	mustMkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPlainAnswer(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{Thinking: "The user greets me.", Content: "Hello! How can I help?", PromptEvalCount: 120, EvalCount: 7},
	}})
	res, evs := h.send("", "hi")
	if res.Status != event.StatusOK || res.Final != "Hello! How can I help?" || text(evs) != res.Final {
		t.Fatalf("result %+v, streamed %q", res, text(evs))
	}
	if r := ofType[event.DeltaData](filterType(evs, event.ReasoningDelta)); len(r) == 0 || strings.Contains(res.Final, "greets") {
		t.Errorf("reasoning %v must be streamed apart and kept out of the final text %q", r, res.Final)
	}
	u := ofType[event.UsageData](evs)
	if len(u) != 1 || u[0].PromptTokens != 120 || u[0].CompletionTokens != 7 || u[0].ContextUsed != 127 || u[0].ContextLimit != 8192 {
		t.Errorf("usage %+v", u)
	}
	if st := ofType[event.StartedData](evs); st[0].Model != "ollama/qwen3:4b" {
		t.Errorf("started %+v", st)
	}
	sess, err := h.store.Load(res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Entries) != 2 || sess.Entries[0].Content != "hi" || sess.Entries[1].Reasoning != "The user greets me." ||
		len(sess.Runs) != 1 || sess.Runs[0].Status != event.StatusOK || sess.Runs[0].Final != res.Final || len(sess.Interrupted) != 0 {
		t.Errorf("session %+v", sess)
	}
	// The second turn sends the history back (the reasoning is the provider's
	// business: Ollama takes it, OpenAI-compatible ones never get it).
	res2, _ := h.send(res.SessionID, "and now?")
	reqs := h.fake.ChatRequests()
	if res2.Status != event.StatusOK || len(reqs) != 2 || len(reqs[1].Messages) != 3 || reqs[1].Messages[2].Content != "and now?" {
		t.Errorf("second request %+v", reqs[len(reqs)-1].Messages)
	}
}

func filterType(evs []event.Event, typ event.Type) []event.Event {
	var out []event.Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func TestParallelReadOnlyTools(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("slow_read", `{"n":1}`), call("slow_read", `{"n":2}`), call("slow_read", `{"n":3}`)}},
		{Content: "All read."},
	}})
	var active, peak atomic.Int32
	slow := &testTool{name: "slow_read", readOnly: true, run: func(ctx context.Context, a tools.Args) (tools.Result, error) {
		n := active.Add(1)
		defer active.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		select {
		case <-time.After(300 * time.Millisecond):
		case <-ctx.Done():
		}
		return tools.Text("part " + a.String("n")), nil
	}}
	if err := h.reg.Register(slow); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, evs := h.send("", "read three parts")
	took := time.Since(start)
	if res.Status != event.StatusOK || res.Final != "All read." {
		t.Fatalf("result %+v", res)
	}
	if peak.Load() != 3 || took > 800*time.Millisecond {
		t.Errorf("three 300 ms read-only calls: peak concurrency %d, took %v (want 3 at once, well under 900 ms)", peak.Load(), took)
	}
	t.Logf("three 300 ms reads took %v in total", took)
	// Results reach the model in the model's order, whatever finished first.
	msgs := h.fake.ChatRequests()[1].Messages
	var got []string
	for _, m := range msgs {
		if m.Role == "tool" {
			got = append(got, m.Content)
		}
	}
	if !slices.Equal(got, []string{"part 1", "part 2", "part 3"}) {
		t.Errorf("tool results in the second request: %q", got)
	}
	if n := len(ofType[event.ToolCallData](evs)); n != 3 {
		t.Errorf("%d tool_call events", n)
	}
}

func TestExclusiveExecRunsAloneInOrder(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{
			call("read_file", `{"path":"a.txt"}`), call("exec", `{"command":"echo from-exec > b.txt; cat b.txt"}`), call("read_file", `{"path":"b.txt"}`),
		}},
		{Content: "Done."},
	}})
	writeFile(t, filepath.Join(h.ws, "a.txt"), "alpha\n")
	res, evs := h.send("", "do it")
	if res.Status != event.StatusOK {
		t.Fatalf("result %+v %s", res, describe(evs))
	}
	// Each call is announced and finished before the next starts: the exec
	// between two reads splits them into three batches, in the model's order.
	var seq []string
	for _, e := range evs {
		switch d := e.Data.(type) {
		case event.ToolCallData:
			seq = append(seq, "call "+d.Name)
		case event.ToolResultData:
			seq = append(seq, "result "+d.Name)
			if !d.OK {
				t.Errorf("%s failed: %s", d.Name, d.Content)
			}
		}
	}
	want := []string{"call read_file", "result read_file", "call exec", "result exec", "call read_file", "result read_file"}
	if !slices.Equal(seq, want) {
		t.Errorf("tool events %q, want %q", seq, want)
	}
	results := ofType[event.ToolResultData](evs)
	if !strings.Contains(results[1].Content, "from-exec") || !strings.Contains(results[2].Content, "from-exec") {
		t.Errorf("exec did not run before the read of its file: %+v", results)
	}
}

func TestUnknownToolAndBadArgumentsAreCorrected(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("read_files", `{"path":"a.txt"}`), call("read_file", `{"offset":"x"}`)}},
		{ToolCalls: []fakeollama.ToolCall{call("read_file", `{"path":"a.txt"}`)}},
		{Content: "The file says alpha."},
	}})
	writeFile(t, filepath.Join(h.ws, "a.txt"), "alpha\n")
	res, evs := h.send("", "read a.txt")
	if res.Status != event.StatusOK || res.Final != "The file says alpha." {
		t.Fatalf("result %+v %s", res, describe(evs))
	}
	results := ofType[event.ToolResultData](evs)
	if len(results) != 3 || results[0].OK || results[1].OK || !results[2].OK {
		t.Fatalf("results %+v", results)
	}
	if !strings.Contains(results[0].Content, `unknown tool "read_files"`) || !strings.Contains(results[0].Content, "read_file") {
		t.Errorf("unknown tool result does not list the valid names: %s", results[0].Content)
	}
	if !strings.Contains(results[1].Content, "invalid arguments") || !strings.Contains(results[1].Content, "path") {
		t.Errorf("bad arguments result does not say what is wrong: %s", results[1].Content)
	}
	// The model saw both errors in its next request.
	second := h.fake.ChatRequests()[1].Messages
	if n := len(second); second[n-2].Content != results[0].Content || second[n-1].Content != results[1].Content {
		t.Errorf("second request ends with %+v", second[n-2:])
	}
	// Call ids are unique in the session and shared by call and result.
	calls := ofType[event.ToolCallData](evs)
	if calls[0].CallID == calls[1].CallID || calls[0].CallID != results[0].CallID || !strings.HasPrefix(calls[0].CallID, res.RunID) {
		t.Errorf("call ids %+v / %+v", calls, results)
	}
}

func TestUnknownToolFlaggedByProvider(t *testing.T) {
	// A structured call naming a tool that was not offered arrives with
	// Unknown set; it is answered like an unknown tool.
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("web_search", `{"query":"x"}`)}},
		{Content: "I cannot search."},
	}})
	_, evs := h.send("", "search")
	r := ofType[event.ToolResultData](evs)
	if len(r) != 1 || r[0].OK || !strings.Contains(r[0].Content, "Valid tools: edit_file, exec, glob") {
		t.Errorf("results %+v", r)
	}
}

func TestPanickingToolBecomesErrorResult(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("boom", `{}`)}},
		{Content: "The tool crashed; sorry."},
	}})
	_ = h.reg.Register(&testTool{name: "boom", run: func(context.Context, tools.Args) (tools.Result, error) {
		var m map[string]int
		m["x"] = 1 // nil map write: a real panic
		return tools.Text("unreachable"), nil
	}})
	res, evs := h.send("", "explode")
	r := ofType[event.ToolResultData](evs)
	if res.Status != event.StatusOK || len(r) != 1 || r[0].OK || !strings.Contains(r[0].Content, "crashed") {
		t.Fatalf("result %+v, tool results %+v", res, r)
	}
}

func TestLoopGuardStopsIdenticalFailures(t *testing.T) {
	same := fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{call("read_file", `{"path":"missing.txt"}`)}}
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{same, same, same, same, {Content: "never"}}})
	res, evs := h.send("", "read missing.txt")
	if res.Status != event.StatusError || !strings.Contains(res.Final, "failed 3 times") {
		t.Fatalf("result %+v", res)
	}
	if n := len(h.fake.ChatRequests()); n != 3 {
		t.Errorf("%d model calls, want the loop stopped after the third failure", n)
	}
	e := ofType[event.ErrorData](evs)
	if len(e) != 1 || e[0].Code != event.CodeLoopDetected || e[0].Hint == "" {
		t.Errorf("error events %+v", e)
	}
	if finished(evs).Status != event.StatusError || !strings.Contains(text(evs), "read_file") {
		t.Errorf("finished %+v, text %q", finished(evs), text(evs))
	}
	sess, _ := h.store.Load(res.SessionID)
	if last := sess.Entries[len(sess.Entries)-1]; last.Role != llm.RoleAssistant || !strings.Contains(last.Content, "stopped") {
		t.Errorf("the explanation is not the session's last message: %+v", last)
	}
}

func TestIterationLimitEndsWithSummaryWithoutTools(t *testing.T) {
	list := fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{call("list_dir", `{"path":"."}`)}}
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{list, list, {Content: "I listed the folder twice; nothing is left."}}},
		func(o *Options) { o.MaxToolIterations = 2 })
	res, evs := h.send("", "keep listing")
	if res.Status != event.StatusOK || res.Final != "I listed the folder twice; nothing is left." {
		t.Fatalf("result %+v %s", res, describe(evs))
	}
	reqs := h.fake.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	last := reqs[2]
	if len(last.Tools) != 0 || len(reqs[0].Tools) == 0 {
		t.Errorf("the final request offered %d tools (first offered %d): want none", len(last.Tools), len(reqs[0].Tools))
	}
	if m := last.Messages[len(last.Messages)-1]; !strings.Contains(m.Content, "Do not call any tools") {
		t.Errorf("final request does not ask for a summary: %+v", m)
	}
	if n := ofType[event.NoticeData](evs); len(n) != 1 || !strings.Contains(n[0].Message, "limit of 2 tool rounds") {
		t.Errorf("notices %+v", n)
	}
}

func TestModelWithoutToolsGetsNotice(t *testing.T) {
	plain := fakeollama.Model{Name: "tiny:1b", Family: "llama", ContextLength: 2048, Capabilities: []string{"completion"}}
	h := newHarness(t, fakeollama.Script{Models: []fakeollama.Model{plain}, Replies: []fakeollama.Reply{{Content: "Hi, no tools here."}}},
		func(o *Options) { o.DefaultModel = "ollama/tiny:1b" })
	res, evs := h.send("", "hello")
	if res.Status != event.StatusOK || res.Final != "Hi, no tools here." {
		t.Fatalf("result %+v", res)
	}
	n := ofType[event.NoticeData](evs)
	if len(n) != 1 || n[0].Level != event.LevelWarning || !strings.Contains(n[0].Message, "cannot use tools") {
		t.Errorf("notices %+v", n)
	}
	req := h.fake.ChatRequests()[0]
	if len(req.Tools) != 0 {
		t.Errorf("tools were sent to a model without the capability")
	}
	// The chat was told once: the next reply goes without tools and without the notice;
	// another chat hears it again.
	h.fake.Enqueue(fakeollama.Reply{Content: "Still none."}, fakeollama.Reply{Content: "New chat."})
	res2, evs2 := h.send(res.SessionID, "again")
	if n := ofType[event.NoticeData](evs2); res2.Status != event.StatusOK || len(n) != 0 {
		t.Errorf("second reply in the same chat: %+v, notices %+v", res2, n)
	}
	if reqs := h.fake.ChatRequests(); len(reqs[len(reqs)-1].Tools) != 0 {
		t.Errorf("second request offered tools")
	}
	_, evs3 := h.send("", "hello elsewhere")
	if n := ofType[event.NoticeData](evs3); len(n) != 1 || !strings.Contains(n[0].Message, "cannot use tools") {
		t.Errorf("another chat: notices %+v", n)
	}
	if got := req.Options["num_ctx"]; got != float64(2048) {
		t.Errorf("num_ctx %v, want the model's own 2048", got)
	}
	if u := ofType[event.UsageData](evs); u[0].ContextLimit != 2048 {
		t.Errorf("usage %+v", u)
	}
}

func TestProviderDownGivesErrorWithHint(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Status: 500, Error: "boom"}, {Status: 500, Error: "boom"}}})
	h.fake.Close()
	res, evs := h.send("", "hello")
	if res.Status != event.StatusError || res.Err == nil {
		t.Fatalf("result %+v", res)
	}
	e := ofType[event.ErrorData](evs)
	if len(e) != 1 || e[0].Hint == "" || e[0].Code == "" {
		t.Errorf("error events %+v", e)
	}
	// The user's message was saved before the model was called.
	sess, _ := h.store.Load(res.SessionID)
	if len(sess.Entries) != 1 || sess.Entries[0].Content != "hello" || sess.Runs[0].Status != event.StatusError || sess.Runs[0].Error == "" {
		t.Errorf("session %+v", sess)
	}
}

func TestModelNotFound(t *testing.T) {
	h := newHarness(t, fakeollama.Script{}, func(o *Options) { o.DefaultModel = "ollama/nope:1b" })
	res, evs := h.send("", "hello")
	e := ofType[event.ErrorData](evs)
	if res.Status != event.StatusError || len(e) != 1 || e[0].Code != string(llm.KindModelNotFound) || !strings.Contains(e[0].Hint, "pull") {
		t.Fatalf("result %+v, errors %+v", res, e)
	}
	// The run line keeps the model and the card as it was shown, for the chat opened again.
	sess, err := h.store.Load(res.SessionID)
	if err != nil || len(sess.Runs) != 1 || sess.Runs[0].Model != "ollama/nope:1b" || sess.Runs[0].Failure == nil ||
		!reflect.DeepEqual(*sess.Runs[0].Failure, e[0]) {
		t.Errorf("stored run %+v (err %v), shown %+v", sess.Runs, err, e[0])
	}
	res, evs = h.send("", "/model bad/name")
	if e := ofType[event.ErrorData](evs); res.Status != event.StatusError || len(e) != 1 || e[0].Code != event.CodeModel {
		t.Errorf("/model bad: %+v %+v", res, e)
	}
}

func TestSerialPerSessionOverlapAcrossSessions(t *testing.T) {
	slow := fakeollama.Reply{Content: "slow answer", DelayMS: 150}
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{slow, slow, slow}})
	ctx := context.Background()
	a, err := h.runner.Start(ctx, Request{SessionID: "a", Text: "one"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.runner.Start(ctx, Request{SessionID: "a", Text: "two"}, nil); !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "/stop") {
		t.Errorf("second run on a busy session: %v, want ErrBusy with a hint", err)
	}
	rec := newRecorder()
	b, err := h.runner.Start(ctx, Request{SessionID: "b", Text: "other"}, rec.sink)
	if err != nil {
		t.Fatalf("a different session must run at the same time: %v", err)
	}
	if ra, rb := a.Wait(), b.Wait(); ra.Status != event.StatusOK || rb.Status != event.StatusOK {
		t.Errorf("results %+v %+v", ra, rb)
	}
	checkEvents(t, rec.all())
	if _, err := h.runner.Start(ctx, Request{SessionID: "a", Text: "three"}, nil); err != nil {
		t.Errorf("session free again after its run: %v", err)
	}
}

func TestSlashCommands(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "first answer", PromptEvalCount: 300, EvalCount: 20}}})
	res, _ := h.send("s1", "hello")
	id := res.SessionID
	if id != "s1" {
		t.Fatalf("named session: %q", id)
	}
	res, evs := h.send(id, "/help")
	if !strings.Contains(res.Final, "/model") || text(evs) != res.Final {
		t.Errorf("/help: %+v", res)
	}
	// The window shows a command's reply as plain text: run_started names the command,
	// and an answer of the model carries none.
	if st := ofType[event.StartedData](evs); len(st) != 1 || st[0].Command != "help" {
		t.Errorf("/help run_started: %+v", st)
	}
	res, _ = h.send(id, "/status")
	if !strings.Contains(res.Final, "Model: ollama/qwen3:4b") || !strings.Contains(res.Final, "320 / 8192") {
		t.Errorf("/status: %q", res.Final)
	}
	res, _ = h.send(id, "/model ollama/other:2b")
	if res.Status != event.StatusOK {
		t.Fatalf("/model: %+v", res)
	}
	if sess, _ := h.store.Load(id); sess.Meta.Model != "ollama/other:2b" {
		t.Errorf("model not stored: %+v", sess.Meta)
	}
	res, _ = h.send(id, "/stop")
	if res.Final != "Nothing is running." {
		t.Errorf("/stop idle: %q", res.Final)
	}
	res, evs = h.send(id, "/new")
	if res.NewSessionID == "" || res.NewSessionID == id || finished(evs).NewSessionID != res.NewSessionID {
		t.Fatalf("/new: %+v", res)
	}
	old, _ := h.store.Load(id)
	fresh, err := h.store.Load(res.NewSessionID)
	if err != nil || !old.Meta.Archived || fresh.Meta.Model != "ollama/other:2b" || len(fresh.Entries) != 0 {
		t.Errorf("after /new: old %+v, new %+v (%v)", old.Meta, fresh, err)
	}
	if n := len(h.fake.ChatRequests()); n != 1 {
		t.Errorf("slash commands reached the model: %d requests", n)
	}
	res, _ = h.send("s2", "/etc/hosts is a file?")
	if res.Final == "" || strings.Contains(res.Final, "Unknown command") {
		t.Errorf("a path is not a command: %+v", res)
	}
	res, _ = h.send(id, "/frobnicate")
	if !strings.Contains(res.Final, "Unknown command /frobnicate") {
		t.Errorf("unknown command: %q", res.Final)
	}
	if _, evs := h.send("s9", "hello again"); ofType[event.StartedData](evs)[0].Command != "" {
		t.Errorf("a model's answer is marked as a command reply")
	}
}

func TestNewHookFailureKeepsSession(t *testing.T) {
	h := newHarness(t, fakeollama.Script{}, func(o *Options) {
		o.OnNew = func(context.Context, string) error { return errors.New("memory is busy") }
	})
	res, _ := h.send("keep", "hello")
	res, evs := h.send(res.SessionID, "/new")
	if res.Status != event.StatusError || len(ofType[event.ErrorData](evs)) != 1 {
		t.Errorf("/new with failing hook: %+v", res)
	}
	if s, _ := h.store.Load("keep"); s.Meta.Archived {
		t.Error("session archived although the hook failed")
	}
}

func TestGateDenies(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("exec", `{"command":"touch x"}`)}},
		{Content: "ok, I will not."},
	}}, func(o *Options) { o.Gate = denyExec{} })
	_, evs := h.send("", "touch x")
	r := ofType[event.ToolResultData](evs)
	a := ofType[event.ApprovalData](evs)
	if len(r) != 1 || r[0].OK || !strings.Contains(r[0].Content, "denied by the user") || len(a) != 1 || a[0].State != "denied" || a[0].CallID != r[0].CallID {
		t.Errorf("results %+v approvals %+v", r, a)
	}
	if _, err := os.Stat(filepath.Join(h.ws, "x")); err == nil {
		t.Error("denied command ran")
	}
}

type denyExec struct{}

func (denyExec) Check(_ context.Context, c tools.GateCall) tools.GateDecision {
	if c.Name == "exec" {
		c.Emit(event.ApprovalData{State: "denied", Scope: "once"})
		return tools.GateDecision{}
	}
	return tools.GateDecision{Allow: true}
}

func TestSpillsLongResults(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("big", `{}`)}},
		{Content: "Big."},
	}}, func(o *Options) { o.MaxToolResultChars = 2000 })
	_ = h.reg.Register(&testTool{name: "big", readOnly: true, run: func(context.Context, tools.Args) (tools.Result, error) {
		return tools.Text(strings.Repeat("line of output\n", 1000)), nil
	}})
	res, evs := h.send("", "big")
	r := ofType[event.ToolResultData](evs)
	if len(r) != 1 || len(r[0].Content) > 2100 || !strings.Contains(r[0].Content, ".hearth/results/"+res.SessionID) {
		t.Fatalf("spilled result %d chars: %.300s", len(r[0].Content), r[0].Content)
	}
	if _, err := os.Stat(filepath.Join(h.ws, ".hearth", "results", res.SessionID, r[0].CallID+".txt")); err != nil {
		t.Errorf("spill file: %v", err)
	}
	sess, _ := h.store.Load(res.SessionID)
	if c := sess.Entries[2].Content; c != r[0].Content {
		t.Errorf("the session keeps the result as the model saw it, got %d chars", len(c))
	}
}

var _ = session.StatusOK

func TestSessionFreeWhenRunFinishedArrives(t *testing.T) {
	h := newHarness(t, fakeollama.Script{})
	next := make(chan error, 1)
	run, err := h.runner.Start(context.Background(), Request{SessionID: "f", Text: "one"}, func(e event.Event) {
		if e.Type == event.RunFinished {
			_, err := h.runner.Start(context.Background(), Request{SessionID: "f", Text: "two"}, nil)
			next <- err
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	run.Wait()
	if err := <-next; err != nil {
		t.Errorf("a Send right after run_finished: %v", err)
	}
}

func TestPanickingSinkDoesNotBreakTheRun(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("list_dir", `{"path":"."}`), call("glob", `{"pattern":"*"}`)}},
		{Content: "fine"},
	}})
	rec := newRecorder()
	res, err := h.runner.Send(context.Background(), Request{Text: "go"}, func(e event.Event) {
		rec.sink(e)
		if e.Type == event.ToolResult || e.Type == event.TextDelta {
			panic("sink bug")
		}
	})
	if err != nil || res.Status != event.StatusOK || res.Final != "fine" {
		t.Fatalf("%+v %v", res, err)
	}
	checkEvents(t, rec.all())
}

// A reminder's run says so in its run line: the window shows its words as a reminder.
func TestRunRecordsItsChannel(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "Stretched."}}})
	res, _ := h.do(Request{Text: "stretch", Unattended: true, Channel: "cron"})
	sess, err := h.store.Load(res.SessionID)
	if err != nil || len(sess.Runs) != 1 || sess.Runs[0].Channel != "cron" {
		t.Fatalf("runs %+v (err %v)", sess.Runs, err)
	}
}
