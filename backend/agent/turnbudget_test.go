package agent

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/tools"
)

// count is how many of the space-separated codes are want.
func count(codes, want string) int {
	n := 0
	for _, s := range strings.Fields(codes) {
		if s == want {
			n++
		}
	}
	return n
}

// A model that calls tools for ever is stopped by the tool-round budget: it is told
// as the limit nears, sums up without tools, the run ends well naming the budget,
// and Continue is a new turn with budgets of its own that goes on from the summary.
func TestToolRoundBudgetStopsLoopAndContinueGoesOn(t *testing.T) {
	list := fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{call("list_dir", `{"path":"."}`)}}
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{list, list, list, list, list,
		{Content: "I listed the folder five times; what is left is reading the files."},
		list, {Content: "Read them: all done."}}},
		func(o *Options) { o.MaxToolIterations = 5 })
	res, evs := h.send("", "keep listing")
	if res.Status != event.StatusOK || res.Limit != LimitToolRounds || !strings.Contains(res.Final, "what is left") {
		t.Fatalf("result %+v %s", res, describe(evs))
	}
	if f := finished(evs); f.Limit != LimitToolRounds {
		t.Errorf("run_finished %+v: want the limit named", f)
	}
	codes := noticeCodes(evs)
	if count(codes, "notice.budgetNear.rounds") != 1 || count(codes, "notice.toolRounds") != 1 || count(codes, "notice.budgetNear.time") != 0 {
		t.Errorf("notices %v", codes)
	}
	for _, n := range ofType[event.NoticeData](evs) {
		if n.Code == "notice.budgetNear.rounds" && (n.Args["used"] != "4" || n.Args["max"] != "5") {
			t.Errorf("near notice at %v: want 4 of 5", n.Args)
		}
	}
	if sess, _ := h.store.Load(res.SessionID); len(sess.Runs) != 1 || sess.Runs[0].Limit != LimitToolRounds {
		t.Errorf("the run line does not name the limit (a chat opened again offers Continue): %+v", sess.Runs)
	}
	if reqs := h.fake.ChatRequests(); len(reqs) != 6 || len(reqs[5].Tools) != 0 {
		t.Fatalf("%d requests, the last offering %d tools", len(reqs), len(h.fake.ChatRequests()[len(reqs)-1].Tools))
	}

	res2, evs2 := h.send(res.SessionID, ContinueText)
	if res2.Status != event.StatusOK || res2.Limit != "" || res2.Final != "Read them: all done." {
		t.Fatalf("continue: %+v %s", res2, describe(evs2))
	}
	if codes := noticeCodes(evs2); codes != "" {
		t.Errorf("a continued turn starts with fresh budgets, yet was told %v", codes)
	}
	reqs := h.fake.ChatRequests()
	first := reqs[6]
	if len(first.Tools) == 0 || !strings.Contains(joinContents(first.Messages), "what is left is reading the files") {
		t.Errorf("the continued turn must offer tools and carry the summary: %d tools", len(first.Tools))
	}
}

func joinContents(msgs []fakeollama.ChatMessage) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Content + "\n")
	}
	return b.String()
}

// fakeClock is a clock the test moves: no wall time is waited for.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// The wall-clock budget is checked at each safe point: a turn whose tool rounds took
// past it sums up, told at four fifths, and names the time limit.
func TestTurnTimeBudgetSumsUp(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)}
	slow := fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{call("slow", `{}`)}}
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{slow, slow, slow, {Content: "Three slow steps done; two to go."}}},
		func(o *Options) { o.Now, o.TurnTime = clock.Now, 10*time.Minute })
	_ = h.reg.Register(&testTool{name: "slow", run: func(context.Context, tools.Args) (tools.Result, error) {
		clock.advance(4 * time.Minute) // each round takes four minutes of the clock
		return tools.Text("done"), nil
	}})
	res, evs := h.send("", "do the slow thing")
	if res.Status != event.StatusOK || res.Limit != LimitTime || res.Final != "Three slow steps done; two to go." {
		t.Fatalf("result %+v %s", res, describe(evs))
	}
	codes := noticeCodes(evs)
	if count(codes, "notice.budgetNear.time") != 1 || count(codes, "notice.turnTime") != 1 || count(codes, "notice.toolRounds") != 0 {
		t.Errorf("notices %v", codes)
	}
	for _, n := range ofType[event.NoticeData](evs) {
		if n.Code == "notice.budgetNear.time" && (n.Args["used"] != "8" || n.Args["max"] != "10") {
			t.Errorf("near notice at %v: want 8 of 10 minutes", n.Args)
		}
	}
	reqs := h.fake.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests: want three rounds (0, 4, 8 minutes) and the summary at 12", len(reqs))
	}
	last := reqs[3]
	if len(last.Tools) != 0 || !strings.Contains(last.Messages[len(last.Messages)-1].Content, "[Time limit reached]") {
		t.Errorf("the summary request: %d tools, %q", len(last.Tools), last.Messages[len(last.Messages)-1].Content)
	}
	if f := finished(evs); f.Limit != LimitTime {
		t.Errorf("run_finished %+v", f)
	}
}

// A steer taken in the middle of a turn resets neither budget: the rounds before it
// count, and the turn still ends at its limit with a summary.
func TestSteerResetsNoBudget(t *testing.T) {
	step := fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{call("step", `{}`)}}
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{step, step, step, {Content: "Summed up."}}},
		func(o *Options) { o.MaxToolIterations = 3 })
	var sid string
	var once sync.Once
	_ = h.reg.Register(&testTool{name: "step", run: func(context.Context, tools.Args) (tools.Result, error) {
		once.Do(func() {
			if _, _, err := h.runner.Submit(context.Background(), Message{SessionID: sid, Text: "also check the logs", Mode: ModeSteer}, nil); err != nil {
				t.Errorf("steer: %v", err)
			}
		})
		return tools.Text("stepped"), nil
	}})
	sid = "steered"
	res, evs := h.send(sid, "walk")
	if res.Status != event.StatusOK || res.Limit != LimitToolRounds || res.Final != "Summed up." {
		t.Fatalf("result %+v %s", res, describe(evs))
	}
	reqs := h.fake.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests: want three rounds and the summary", len(reqs))
	}
	if !strings.Contains(joinContents(reqs[1].Messages), "also check the logs") {
		t.Error("the steer did not reach the next request")
	}
	sess, _ := h.store.Load(sid)
	users := 0
	for _, e := range sess.Entries {
		if e.Role == llm.RoleUser {
			users++
		}
	}
	if users != 2 {
		t.Errorf("%d user messages in the chat: want the question and the steer", users)
	}
}

// slowPerson is a Gate that takes an hour of the clock to allow each call.
type slowPerson struct{ clock *fakeClock }

func (g slowPerson) Check(context.Context, tools.GateCall) tools.GateDecision {
	g.clock.advance(time.Hour)
	return tools.GateDecision{Allow: true}
}

// The time a person takes to answer an approval is not the turn's: a card answered an
// hour later lets the turn go on rather than end it.
func TestApprovalWaitIsNotTurnTime(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)}
	list := fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{call("list_dir", `{"path":"."}`)}}
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{list, list, {Content: "Listed."}}},
		func(o *Options) { o.Now, o.TurnTime, o.Gate = clock.Now, 10*time.Minute, slowPerson{clock} })
	res, evs := h.send("", "list twice")
	if res.Status != event.StatusOK || res.Limit != "" || res.Final != "Listed." {
		t.Fatalf("result %+v %s", res, describe(evs))
	}
	if codes := noticeCodes(evs); codes != "" {
		t.Errorf("notices %v", codes)
	}
}
