package subagent

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// env is a parent Runner (with spawn) and a subagent Runner, each on its own
// fake Ollama so their scripted replies never mix.
type env struct {
	parentFake, subFake *fakeollama.Server
	parents             *session.Store
	parent              *agent.Runner
	subReg              *tools.Registry
	mgr                 *Manager

	mu      sync.Mutex
	notices []event.Event
	reports []Report
	// runningAtReport is how many subagents Running listed when each report arrived.
	runningAtReport []int
	done            chan Report
}

func isolate(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	t.Cleanup(xdg.Reload) // before the variables are set: it runs after t.Setenv puts them back
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, filepath.Join(root, strings.ToLower(v)))
	}
	xdg.Reload()
	return root
}

func provider(t *testing.T, url string) agent.ResolveFunc {
	t.Helper()
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: url, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return func(name string) (llm.Provider, string, error) {
		return prov, strings.TrimPrefix(name, "ollama/"), nil
	}
}

func newEnv(t *testing.T, resolveSub agent.ResolveFunc, model string) *env {
	t.Helper()
	root := isolate(t)
	e := &env{done: make(chan Report, 16)}
	var purl, surl string
	e.parentFake, purl = fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}})
	e.subFake, surl = fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}})
	if resolveSub == nil {
		resolveSub = provider(t, surl)
	}
	ws := filepath.Join(root, "ws")
	e.parents = session.NewStore(filepath.Join(root, "sessions"), session.Options{})
	e.subReg = tools.NewRegistry(tools.RegistryOptions{})
	if err := e.subReg.Register(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: ws}})...); err != nil {
		t.Fatal(err)
	}
	subRunner, err := agent.New(agent.Options{Resolve: resolveSub, Tools: e.subReg, DefaultModel: model,
		Store:   session.NewStore(filepath.Join(root, "sessions", ".subagents"), session.Options{}),
		Context: NewContext(func() string { return ws }), MaxToolIterations: 15, Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	parentReg := tools.NewRegistry(tools.RegistryOptions{})
	var parent *agent.Runner
	news := event.NewBroker[event.Background](0)
	t.Cleanup(news.Close)
	go e.follow(news.Subscribe(t.Context()))
	e.mgr, err = New(Options{Runner: subRunner, Parents: e.parents, News: news,
		Busy: func(id string) bool { _, b := parent.Busy(id); return b },
		Events: func(ev event.Event) {
			e.mu.Lock()
			e.notices = append(e.notices, ev)
			e.mu.Unlock()
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := parentReg.Register(e.mgr.Tool()); err != nil {
		t.Fatal(err)
	}
	parent, err = agent.New(agent.Options{Resolve: provider(t, purl), Tools: parentReg, Store: e.parents,
		DefaultModel: "ollama/qwen3:4b", Workspace: ws, OnStop: e.mgr.Cancel})
	if err != nil {
		t.Fatal(err)
	}
	e.parent = parent
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = e.mgr.Close(ctx)
		_ = parent.Shutdown(ctx)
	})
	return e
}

// follow turns the manager's news back into reports, as the window hears them.
func (e *env) follow(news <-chan event.Background) {
	for ev := range news {
		if ev.Kind != event.BackgroundSubagent {
			continue
		}
		r := Report{Label: ev.Args["label"], Status: event.Status(ev.Args["status"]), Result: ev.Text, ParentSessionID: ev.SessionID}
		n := len(e.mgr.Running())
		e.mu.Lock()
		e.reports = append(e.reports, r)
		e.runningAtReport = append(e.runningAtReport, n)
		e.mu.Unlock()
		e.done <- r
	}
}

func spawnCall(task, label string) fakeollama.Reply {
	args, _ := json.Marshal(map[string]string{"task": task, "label": label})
	return fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "spawn", Arguments: args}}}
}

// wait returns the next report. It sets no wall-clock limit of its own: a real model's
// run on a loaded machine may take far longer than a fake one's, and a fixed limit made
// TestRealOllamaSubagent flaky. A report that never comes fails at the test binary's
// deadline (go test -timeout), a little before it, saying what was awaited.
func (e *env) wait(t *testing.T) Report {
	t.Helper()
	var deadline <-chan time.Time
	if d, ok := t.Deadline(); ok {
		timer := time.NewTimer(time.Until(d) - 5*time.Second)
		defer timer.Stop()
		deadline = timer.C
	}
	select {
	case r := <-e.done:
		return r
	case <-deadline:
		t.Fatal("no subagent report before the test deadline")
		return Report{}
	}
}

// The parent's model calls spawn, the chat turn ends at once, and the
// subagent's answer arrives in the parent session as a message, a notice and
// a notification. The subagent ran unattended, without spawn, on its own
// short context.
func TestSpawnDelivers(t *testing.T) {
	e := newEnv(t, nil, "ollama/qwen3:4b")
	e.parentFake.Enqueue(spawnCall("Count the files in the workspace and report.", "count files"),
		fakeollama.Reply{Content: "I started a background task."})
	e.subFake.Enqueue(fakeollama.Reply{Content: "There are 0 files."})

	res, err := e.parent.Send(context.Background(), agent.Request{SessionID: "chat", Text: "count my files in the background"}, nil)
	if err != nil || res.Status != event.StatusOK || res.Final != "I started a background task." {
		t.Fatalf("parent run: %+v %v", res, err)
	}
	sess, _ := e.parents.Load("chat")
	if tr := sess.Entries[2].Content; !strings.Contains(tr, `Started background task "count files" (sub-1)`) {
		t.Errorf("spawn result: %q", tr)
	}
	rep := e.wait(t)
	if rep.Status != event.StatusOK || rep.Result != "There are 0 files." || rep.ParentSessionID != "chat" || rep.Label != "count files" {
		t.Fatalf("report %+v", rep)
	}
	// Whoever reacts to the report (the window refreshing its list) sees it no longer running.
	e.mu.Lock()
	if n := e.runningAtReport[0]; n != 0 {
		t.Errorf("%d subagents listed as running when the report arrived", n)
	}
	e.mu.Unlock()
	sess, err = e.parents.Load("chat")
	if err != nil {
		t.Fatal(err)
	}
	last := sess.Entries[len(sess.Entries)-1]
	if last.Role != llm.RoleAssistant || last.Content != "Background task \"count files\" finished:\n\nThere are 0 files." || last.RunID != "" {
		t.Errorf("parent's last message %+v", last)
	}
	if len(sess.Interrupted) != 0 {
		t.Errorf("the report made the session look interrupted: %+v", sess.Interrupted)
	}
	e.mu.Lock()
	notices := append([]event.Event(nil), e.notices...)
	e.mu.Unlock()
	if len(notices) != 1 || notices[0].Type != event.Notice || notices[0].SessionID != "chat" || notices[0].RunID == "" ||
		notices[0].Data.(event.NoticeData).Message != `Background task "count files" finished.` ||
		notices[0].Data.(event.NoticeData).Code != "notice.subagent.finished" {
		t.Errorf("notices %+v", notices)
	}

	subReq := e.subFake.ChatRequests()[0]
	if subReq.Messages[0].Role != "system" || !strings.Contains(subReq.Messages[0].Content, "helper agent") ||
		len(subReq.Messages) != 2 || !strings.HasPrefix(subReq.Messages[1].Content, "Count the files in the workspace and report.\n\n[Runtime Context]") {
		t.Errorf("subagent context: %+v", subReq.Messages)
	}
	for _, raw := range subReq.Tools {
		if strings.Contains(string(raw), `"spawn"`) {
			t.Errorf("the subagent was offered spawn")
		}
	}
	// A subagent's follow-up question to the parent's model sees the report.
	e.parentFake.Enqueue(fakeollama.Reply{Content: "ok"})
	if _, err := e.parent.Send(context.Background(), agent.Request{SessionID: "chat", Text: "and?"}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := e.parentFake.ChatRequests()
	msgs := reqs[len(reqs)-1].Messages
	found := false
	for _, m := range msgs {
		found = found || strings.Contains(m.Content, "There are 0 files.")
	}
	if !found {
		t.Errorf("the report is not in the parent's next context: %+v", msgs)
	}
}

// At most three at once: the fourth spawn is refused with the names of the
// running ones. /stop on the parent cancels all of them, each reports that
// it was stopped, and the slot frees up.
func TestCapAndCancel(t *testing.T) {
	e := newEnv(t, nil, "ollama/qwen3:4b")
	for _, id := range []string{"chat", "other"} {
		if _, err := e.parents.Create(session.CreateOptions{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		e.subFake.Enqueue(fakeollama.Reply{Chunks: []string{"work"}, Hang: true})
	}
	for i := 1; i <= 3; i++ {
		if _, err := e.mgr.Spawn("chat", fmt.Sprintf("task %d", i), fmt.Sprintf("t%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	// The fourth, through the tool as the model would call it.
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(e.mgr.Tool()); err != nil {
		t.Fatal(err)
	}
	r := reg.Call(tools.WithCall(context.Background(), tools.CallInfo{SessionID: "chat"}), e.mgr.Tool().Name(), json.RawMessage(`{"task": "task 4"}`))
	if !r.IsError || !strings.Contains(r.Content, "3 are running already (t1, t2, t3)") {
		t.Fatalf("fourth spawn: %+v", r)
	}
	if n := len(e.mgr.Running()); n != 3 {
		t.Fatalf("%d running", n)
	}
	// Wait until all three are really inside their model call.
	deadline := time.Now().Add(5 * time.Second)
	for len(e.subFake.ChatRequests()) < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	stop, err := e.parent.Send(context.Background(), agent.Request{SessionID: "chat", Text: "/stop"}, nil)
	if err != nil || stop.Final != "Stopped." {
		t.Fatalf("/stop: %+v %v", stop, err)
	}
	for range 3 {
		rep := e.wait(t)
		if rep.Status != event.StatusCancelled {
			t.Errorf("report %+v", rep)
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancel took %s", d)
	}
	deadline = time.Now().Add(2 * time.Second)
	for len(e.mgr.Running()) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	sess, _ := e.parents.Load("chat")
	stopped := 0
	for _, en := range sess.Entries {
		if strings.Contains(en.Content, "was stopped before it finished") {
			stopped++
		}
	}
	if stopped != 3 {
		t.Errorf("%d stop reports in the parent session", stopped)
	}
	// The slots are free again.
	e.subFake.Enqueue(fakeollama.Reply{Content: "done"})
	if _, err := e.mgr.Spawn("chat", "task 5", "t5"); err != nil {
		t.Fatalf("after cancel: %v", err)
	}
	if rep := e.wait(t); rep.Result != "done" {
		t.Errorf("t5: %+v", rep)
	}
	// Another session's /stop leaves a subagent alone.
	e.subFake.Enqueue(fakeollama.Reply{Chunks: []string{"x"}, DelayMS: 300, Content: ""})
	if _, err := e.mgr.Spawn("other", "task 6", "t6"); err != nil {
		t.Fatal(err)
	}
	if e.mgr.Cancel("chat") {
		t.Error("Cancel(chat) found a subagent of another session")
	}
	if rep := e.wait(t); rep.Status != event.StatusOK || rep.ParentSessionID != "other" {
		t.Errorf("t6: %+v", rep)
	}
}

// A report waits for the parent's running turn to end, so it never lands in
// the middle of a turn's messages.
func TestReportWaitsForParentTurn(t *testing.T) {
	e := newEnv(t, nil, "ollama/qwen3:4b")
	e.parentFake.Enqueue(spawnCall("quick job", "quick"), fakeollama.Reply{Chunks: []string{"a", "b", "c"}, DelayMS: 200})
	e.subFake.Enqueue(fakeollama.Reply{Content: "quick result"})
	res, err := e.parent.Send(context.Background(), agent.Request{SessionID: "chat", Text: "go"}, nil)
	if err != nil || res.Status != event.StatusOK {
		t.Fatal(res, err)
	}
	e.wait(t)
	sess, _ := e.parents.Load("chat")
	last := sess.Entries[len(sess.Entries)-1]
	if !strings.Contains(last.Content, "quick result") {
		t.Errorf("the report is not after the turn's answer: %+v", sess.Entries)
	}
}
