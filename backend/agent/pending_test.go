package agent

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// blocker is a tool that tells when it runs and waits until released (or the run
// stops): a run held in a tool call, for as long as a test needs.
type blocker struct {
	ran     chan struct{}
	release chan struct{}
}

func withBlocker(t *testing.T, h *harness) *blocker {
	t.Helper()
	b := &blocker{ran: make(chan struct{}, 8), release: make(chan struct{})}
	err := h.reg.Register(&testTool{name: "block", run: func(ctx context.Context, _ tools.Args) (tools.Result, error) {
		b.ran <- struct{}{}
		select {
		case <-b.release:
			return tools.Result{Content: "block done"}, nil
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *blocker) running(t *testing.T) {
	t.Helper()
	select {
	case <-b.ran:
	case <-time.After(20 * time.Second):
		t.Fatal("the tool never ran")
	}
}

// startRun starts a turn and returns it with its recorder.
func (h *harness) startRun(sessionID, text string) (*Run, *recorder) {
	h.t.Helper()
	rec := newRecorder()
	run, err := h.runner.Start(context.Background(), Request{SessionID: sessionID, Text: text}, rec.sink)
	if err != nil {
		h.t.Fatal(err)
	}
	return run, rec
}

func wait(t *testing.T, run *Run) Result {
	t.Helper()
	select {
	case <-run.Done():
		return run.Wait()
	case <-time.After(30 * time.Second):
		t.Fatal("the run never ended")
		return Result{}
	}
}

// runEvents are the events of one run among a recorder's, once it finished.
func runEvents(t *testing.T, rec *recorder, runID string) []event.Event {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		var evs []event.Event
		for _, e := range rec.all() {
			if e.RunID == runID {
				evs = append(evs, e)
			}
		}
		if len(evs) > 0 && evs[len(evs)-1].Type == event.RunFinished {
			checkEvents(t, evs)
			return evs
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s never finished: %s", runID, describe(rec.all()))
		}
	}
}

func submit(t *testing.T, h *harness, sid, text, mode string, sink event.Sink) (*session.Pending, *Run) {
	t.Helper()
	p, run, err := h.runner.Submit(context.Background(), Message{SessionID: sid, Text: text, Mode: mode}, sink)
	if err != nil {
		t.Fatalf("submit %q: %v", text, err)
	}
	return p, run
}

func TestSteerDuringAToolCallReachesTheNextRequest(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("block", `{}`)}}, {Content: "Looked in docs/ instead."}}})
	b := withBlocker(t, h)
	run, rec := h.startRun("s1", "Find the notes.")
	b.running(t)
	p, started := submit(t, h, "s1", "Look in docs/, not src/.", ModeSteer, nil)
	if p == nil || started != nil || p.Mode != ModeSteer {
		t.Fatalf("a steer during a run: pending %+v, run %v", p, started)
	}
	if got, _ := h.runner.Pending("s1"); len(got) != 1 || got[0].ID != p.ID {
		t.Fatalf("waiting: %+v", got)
	}
	close(b.release)
	res := wait(t, run)
	if res.Status != event.StatusOK {
		t.Fatalf("run: %+v", res)
	}
	reqs := h.fake.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	if n := len(msgs); n < 2 || msgs[n-1].Role != "user" || msgs[n-1].Content != p.Text || msgs[n-2].Role != "tool" {
		t.Fatalf("the request after the tool ends with %+v", msgs[max(0, n-2):])
	}
	if lastUser(reqs[0].Messages) != "Find the notes." {
		t.Fatalf("the first request asks %q", lastUser(reqs[0].Messages))
	}
	// The session holds the steer where the model read it.
	s, err := h.store.Load("s1")
	if err != nil {
		t.Fatal(err)
	}
	roles := ""
	for _, m := range s.Messages() {
		roles += string(m.Role)[:1]
	}
	if roles != "uatua" || s.Messages()[3].Content != p.Text {
		t.Fatalf("session messages %q", roles)
	}
	evs := runEvents(t, rec, run.ID)
	if got := ofType[event.PendingData](evs); len(got) != 1 || got[0].ID != p.ID || got[0].Text != p.Text {
		t.Fatalf("pending events %+v", got)
	}
	if got := ofType[event.TakenData](evs); len(got) != 1 || got[0].ID != p.ID || got[0].AsTurn || got[0].NextRunID != "" {
		t.Fatalf("taken events %+v", got)
	}
	if left, err := h.store.LoadPending("s1"); err != nil || left != nil {
		t.Fatalf("left waiting on disk: %+v %v", left, err)
	}
}

// askGate holds every call at the approval card until the test answers.
type askGate struct {
	asked  chan struct{}
	answer chan bool
}

func (g *askGate) Check(ctx context.Context, c tools.GateCall) tools.GateDecision {
	c.Emit(event.ApprovalData{State: "requested"})
	g.asked <- struct{}{}
	select {
	case ok := <-g.answer:
		return tools.GateDecision{Allow: ok}
	case <-ctx.Done():
		return tools.GateDecision{}
	}
}

func TestSteerDuringAnApprovalWait(t *testing.T) {
	g := &askGate{asked: make(chan struct{}, 1), answer: make(chan bool)}
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("write_file", `{"path":"a.txt","content":"x"}`)}}, {Content: "Skipped it."}}},
		func(o *Options) { o.Gate = g })
	run, rec := h.startRun("s1", "Write a.txt")
	<-g.asked
	p, _ := submit(t, h, "s1", "Actually, don't write anything.", ModeSteer, nil)
	g.answer <- false // the card is answered; the steer waits for the results
	wait(t, run)
	reqs := h.fake.ChatRequests()
	msgs := reqs[len(reqs)-1].Messages
	if n := len(msgs); msgs[n-1].Content != p.Text || msgs[n-2].Role != "tool" {
		t.Fatalf("the request after the card ends with %+v", msgs[n-2:])
	}
	evs := runEvents(t, rec, run.ID)
	var order []event.Type
	for _, e := range evs {
		switch e.Type {
		case event.Approval, event.Pending, event.ToolResult, event.PendingTaken:
			order = append(order, e.Type)
		}
	}
	want := []event.Type{event.Approval, event.Pending, event.ToolResult, event.PendingTaken}
	if len(order) != len(want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
}

func TestQueueRunsAfterTheTurnEnds(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("block", `{}`)}}, {Content: "First answer."}, {Content: "Second answer."}, {Content: "Third."}}})
	b := withBlocker(t, h)
	run, rec := h.startRun("s1", "One")
	b.running(t)
	p1, _ := submit(t, h, "s1", "Two", ModeQueue, rec.sink)
	p2, _ := submit(t, h, "s1", "Three", ModeQueue, rec.sink)
	close(b.release)
	res := wait(t, run)
	evs := runEvents(t, rec, run.ID)
	fin := finished(evs)
	if res.Next == nil || res.Next.ID != fin.NextRunID {
		t.Fatalf("the result's next run %v, run_finished says %q", res.Next, fin.NextRunID)
	}
	wait(t, res.Next)
	// One stream ends before the next begins: a shared sink reads them in turn.
	last := -1
	for i, e := range rec.all() {
		if e.RunID == run.ID {
			last = i
		} else if last < len(evs)-1 {
			t.Fatalf("event %d of run %s came before run %s ended", i, e.RunID, run.ID)
		}
	}
	taken := ofType[event.TakenData](evs)
	if fin.NextRunID == "" || len(taken) != 1 || taken[0].ID != p1.ID || taken[0].NextRunID != fin.NextRunID || taken[0].AsTurn {
		t.Fatalf("finished %+v, taken %+v", fin, taken)
	}
	second := runEvents(t, rec, fin.NextRunID)
	third := runEvents(t, rec, finished(second).NextRunID)
	if finished(third).NextRunID != "" || finished(third).Status != event.StatusOK {
		t.Fatalf("third run %+v", finished(third))
	}
	if taken := ofType[event.TakenData](second); len(taken) != 1 || taken[0].ID != p2.ID {
		t.Fatalf("second run took %+v", taken)
	}
	reqs := h.fake.ChatRequests()
	if len(reqs) != 4 || lastUser(reqs[2].Messages) != "Two" || lastUser(reqs[3].Messages) != "Three" {
		t.Fatalf("%d requests", len(reqs))
	}
	if s, _ := h.store.Load("s1"); len(s.Runs) != 3 {
		t.Fatalf("%d runs in the session", len(s.Runs))
	}
}

// gated holds its n-th model call until released.
type gated struct {
	llm.Provider
	n, at   atomic.Int32
	entered chan struct{}
	release chan struct{}
}

func (g *gated) Chat(ctx context.Context, req llm.Request, fn func(llm.Chunk)) (llm.Response, error) {
	if g.n.Add(1) == g.at.Load() {
		g.entered <- struct{}{}
		<-g.release
	}
	return g.Provider.Chat(ctx, req, fn)
}

func TestASteerWithNoSafePointBecomesTheNextTurn(t *testing.T) {
	g := &gated{entered: make(chan struct{}, 1), release: make(chan struct{})}
	g.at.Store(1)
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "Done."}, {Content: "Now in French."}}},
		func(o *Options) {
			resolve := o.Resolve
			o.Resolve = func(name string) (llm.Provider, string, error) {
				p, m, err := resolve(name)
				g.Provider = p
				return g, m, err
			}
		})
	run, rec := h.startRun("s1", "Say hi")
	<-g.entered
	p, _ := submit(t, h, "s1", "In French please", ModeSteer, rec.sink)
	close(g.release)
	wait(t, run)
	evs := runEvents(t, rec, run.ID)
	taken := ofType[event.TakenData](evs)
	if len(taken) != 1 || taken[0].ID != p.ID || !taken[0].AsTurn || taken[0].NextRunID == "" {
		t.Fatalf("taken %+v", taken)
	}
	runEvents(t, rec, taken[0].NextRunID)
	if reqs := h.fake.ChatRequests(); len(reqs) != 2 || lastUser(reqs[1].Messages) != p.Text {
		t.Fatalf("requests %d", len(reqs))
	}
}

func TestStopAndSend(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("block", `{}`)}}, {Content: "New answer."}}})
	b := withBlocker(t, h)
	run, rec := h.startRun("s1", "Long task")
	b.running(t)
	q, _ := submit(t, h, "s1", "queued before the stop", ModeQueue, rec.sink)
	p, next := submit(t, h, "s1", "Do this instead", ModeStop, rec.sink)
	if p != nil || next == nil {
		t.Fatalf("stop and send: pending %+v, run %v", p, next)
	}
	if res := wait(t, run); res.Status != event.StatusCancelled {
		t.Fatalf("the stopped run ended %s", res.Status)
	}
	evs := runEvents(t, rec, run.ID)
	if held := ofType[event.PendingData](evs); len(held) != 2 || !held[1].Held || held[1].ID != q.ID {
		t.Fatalf("the queued message is not held at the stop: %+v", held)
	}
	if res := wait(t, next); res.Status != event.StatusOK || res.Final != "New answer." {
		t.Fatalf("the new turn: %+v", res)
	}
	if reqs := h.fake.ChatRequests(); lastUser(reqs[len(reqs)-1].Messages) != "Do this instead" {
		t.Fatal("the new turn did not ask the new message")
	}
	// The held message is still offered, and is sent only when asked.
	if got, _ := h.runner.Pending("s1"); len(got) != 1 || !got[0].Held {
		t.Fatalf("waiting after the new turn: %+v", got)
	}
	sent, err := h.runner.SendPending(context.Background(), "s1", q.ID, rec.sink)
	if err != nil || sent == nil {
		t.Fatalf("send pending: %v", err)
	}
	wait(t, sent)
	if got, _ := h.runner.Pending("s1"); len(got) != 0 {
		t.Fatalf("still waiting: %+v", got)
	}
}

func TestPendingSurvivesAKillAndIsOfferedNotRun(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("block", `{}`)}}, {Content: "A"}, {Content: "B"}}})
	b := withBlocker(t, h)
	run, _ := h.startRun("s1", "Work")
	b.running(t)
	q, _ := submit(t, h, "s1", "after that, this", ModeQueue, nil)
	s, _ := submit(t, h, "s1", "and steer so", ModeSteer, nil)
	// As after kill -9: a new process reads the same files; nothing of the old one's
	// memory is used.
	again, err := New(Options{Resolve: h.runner.opts.Resolve, Tools: h.reg, Store: session.NewStore(h.store.Dir(), session.Options{}),
		DefaultModel: "ollama/qwen3:4b"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := again.Pending("s1")
	if err != nil || len(got) != 2 || got[0].ID != q.ID || got[1].ID != s.ID || !got[0].Held || !got[1].Held || got[1].Mode != ModeSteer {
		t.Fatalf("after the kill: %+v, %v", got, err)
	}
	_ = h.runner.Shutdown(context.Background()) // the old process is gone
	close(b.release)
	wait(t, run)
	// A new turn in the new process does not run the offered messages.
	res, err := again.Send(context.Background(), Request{SessionID: "s1", Text: "hello"}, nil)
	if err != nil || res.Status != event.StatusOK {
		t.Fatalf("new turn: %+v %v", res, err)
	}
	if got, _ := again.Pending("s1"); len(got) != 2 {
		t.Fatalf("the offered messages were run: %+v", got)
	}
	if err := again.RemovePending("s1", q.ID); err != nil {
		t.Fatal(err)
	}
	if err := again.RemovePending("s1", q.ID); !errors.Is(err, ErrNoPending) {
		t.Fatalf("removed twice: %v", err)
	}
}

func TestEditSwitchAndRemoveUntilTaken(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("block", `{}`)}}, {Content: "ok"}}})
	b := withBlocker(t, h)
	run, rec := h.startRun("s1", "Go")
	b.running(t)
	a, _ := submit(t, h, "s1", "later maybe", ModeQueue, nil)
	gone, _ := submit(t, h, "s1", "never mind", ModeSteer, nil)
	if _, err := h.runner.EditPending("s1", a.ID, "use tabs", ModeSteer); err != nil {
		t.Fatal(err)
	}
	if err := h.runner.RemovePending("s1", gone.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := h.runner.EditPending("s1", a.ID, "x", "now"); err == nil {
		t.Fatal("a mode that does not exist was taken")
	}
	close(b.release)
	wait(t, run)
	reqs := h.fake.ChatRequests()
	msgs := reqs[1].Messages
	if msgs[len(msgs)-1].Content != "use tabs" || msgs[len(msgs)-2].Role != "tool" {
		t.Fatalf("the edited, switched message did not steer: %+v", msgs[len(msgs)-1])
	}
	for _, m := range msgs {
		if m.Content == "never mind" || m.Content == "later maybe" {
			t.Fatalf("the model read %q", m.Content)
		}
	}
	evs := runEvents(t, rec, run.ID)
	if d := ofType[event.DroppedData](evs); len(d) != 1 || d[0].ID != gone.ID {
		t.Fatalf("dropped %+v", d)
	}
	if _, err := h.runner.EditPending("s1", a.ID, "y", ModeQueue); !errors.Is(err, ErrNoPending) {
		t.Fatalf("edited after it was taken: %v", err)
	}
}

func TestSubmitWithNoRunStartsATurn(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "hi"}}})
	p, run, err := h.runner.Submit(context.Background(), Message{SessionID: "s1", Text: "hello", Mode: ModeSteer}, nil)
	if err != nil || p != nil || run == nil {
		t.Fatalf("%+v %v %v", p, run, err)
	}
	wait(t, run)
	if _, _, err := h.runner.Submit(context.Background(), Message{SessionID: "s1", Text: "x", Mode: "later"}, nil); err == nil {
		t.Fatal("an unknown mode was taken")
	}
}
