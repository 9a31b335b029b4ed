package approval

import (
	"context"
	"encoding/json"
	"errors"
	"os"
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

// rig is a real Runner with the built-in tools, a fake Ollama and a Gate.
type rig struct {
	t      *testing.T
	fake   *fakeollama.Server
	url    string
	ws     string
	store  *session.Store
	gate   *Gate
	runner *agent.Runner
	rules  Rules
	mu     sync.Mutex
}

func newRig(t *testing.T, rules Rules, replies ...fakeollama.Reply) *rig {
	t.Helper()
	root := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, filepath.Join(root, strings.ToLower(v)))
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}, Replies: replies})
	r := &rig{t: t, fake: fake, url: url, ws: filepath.Join(root, "workspace"), rules: rules}
	if err := os.MkdirAll(filepath.Join(r.ws, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.store = session.NewStore(filepath.Join(root, "sessions"), session.Options{})
	r.gate = New(Options{Rules: r.getRules, Workspace: func() string { return r.ws }, Grant: func(tool string) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		if tool == "write_file" {
			return errors.New("config is read-only")
		}
		r.rules.Always = append(append([]string(nil), r.rules.Always...), tool)
		return nil
	}})
	r.runner = r.newRunner(url)
	return r
}

func (r *rig) getRules() Rules {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rules
}

func (r *rig) newRunner(url string) *agent.Runner {
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: r.ws}})...); err != nil {
		r.t.Fatal(err)
	}
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: url, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		r.t.Fatal(err)
	}
	run, err := agent.New(agent.Options{
		Resolve: func(string) (llm.Provider, string, error) { return prov, "qwen3:4b", nil },
		Tools:   reg, Store: r.store, Gate: r.gate, DefaultModel: "ollama/qwen3:4b", Workspace: r.ws,
	})
	if err != nil {
		r.t.Fatal(err)
	}
	return run
}

// watcher records events and answers approval requests with the next
// decision (from inside the sink, as the CLI does).
type watcher struct {
	mu        sync.Mutex
	gate      *Gate
	decisions []Decision
	evs       []event.Event
	requested chan event.Event
}

func newWatcher(g *Gate, ds ...Decision) *watcher {
	return &watcher{gate: g, decisions: ds, requested: make(chan event.Event, 16)}
}

func (w *watcher) sink(ev event.Event) {
	w.mu.Lock()
	w.evs = append(w.evs, ev)
	var d Decision
	if a, ok := ev.Data.(event.ApprovalData); ok && a.State == StateRequested && len(w.decisions) > 0 {
		d, w.decisions = w.decisions[0], w.decisions[1:]
	}
	w.mu.Unlock()
	if a, ok := ev.Data.(event.ApprovalData); ok && a.State == StateRequested {
		if d != "" {
			if err := w.gate.Approve(ev.RunID, a.CallID, d); err != nil {
				panic(err)
			}
		}
		w.requested <- ev
	}
}

func (w *watcher) approvals() []event.ApprovalData {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []event.ApprovalData
	for _, e := range w.evs {
		if a, ok := e.Data.(event.ApprovalData); ok {
			out = append(out, a)
		}
	}
	return out
}

func (w *watcher) results() []event.ToolResultData {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []event.ToolResultData
	for _, e := range w.evs {
		if a, ok := e.Data.(event.ToolResultData); ok {
			out = append(out, a)
		}
	}
	return out
}

func (w *watcher) notices() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, e := range w.evs {
		if n, ok := e.Data.(event.NoticeData); ok {
			out = append(out, n.Message)
		}
	}
	return out
}

func (r *rig) send(req agent.Request, w *watcher) agent.Result {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := r.runner.Send(ctx, req, w.sink)
	if err != nil {
		r.t.Fatal(err)
	}
	return res
}

func execCall(cmd string) fakeollama.Reply {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "exec", Arguments: args}}}
}

func states(as []event.ApprovalData) string {
	var b []string
	for _, a := range as {
		b = append(b, a.State+":"+a.Scope)
	}
	return strings.Join(b, " ")
}

func TestAllowOnceThroughRunner(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeRisky}, execCall("echo approved-output"), fakeollama.Reply{Content: "Done."},
		execCall("echo again"), fakeollama.Reply{Content: "Done again."})
	w := newWatcher(r.gate, Once)
	res := r.send(agent.Request{SessionID: "s1", Text: "run it"}, w)
	if res.Status != event.StatusOK || res.Final != "Done." {
		t.Fatalf("result %+v", res)
	}
	rs := w.results()
	if got := states(w.approvals()); got != "requested: allowed:once" || len(rs) != 1 || !rs[0].OK || !strings.Contains(rs[0].Content, "approved-output") {
		t.Errorf("approvals %q, results %+v", got, rs)
	}
	// Once means once: the next call asks again.
	w2 := newWatcher(r.gate, Once)
	r.send(agent.Request{SessionID: "s1", Text: "again"}, w2)
	if got := states(w2.approvals()); got != "requested: allowed:once" {
		t.Errorf("second call: %q", got)
	}
}

func TestDenyThroughRunner(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeRisky}, execCall("touch made-it"), fakeollama.Reply{Content: "Understood."})
	w := newWatcher(r.gate, Deny)
	res := r.send(agent.Request{Text: "touch"}, w)
	if res.Status != event.StatusOK {
		t.Fatalf("result %+v", res)
	}
	rs := w.results()
	if got := states(w.approvals()); got != "requested: denied:user" || len(rs) != 1 || rs[0].OK ||
		!strings.Contains(rs[0].Content, "denied by the user — do not retry this call") {
		t.Errorf("approvals %q, results %+v", got, rs)
	}
	if _, err := os.Stat(filepath.Join(r.ws, "made-it")); err == nil {
		t.Error("the denied command ran")
	}
	msgs := r.fake.ChatRequests()[1].Messages
	if last := msgs[len(msgs)-1]; last.Role != "tool" || !strings.Contains(last.Content, "do not retry") {
		t.Errorf("the model did not read the denial: %+v", last)
	}
}

func TestAllowForChat(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeRisky},
		execCall("echo one"), fakeollama.Reply{Content: "1"},
		execCall("echo two"), fakeollama.Reply{Content: "2"},
		execCall("echo three"), fakeollama.Reply{Content: "3"})
	w := newWatcher(r.gate, Chat)
	r.send(agent.Request{SessionID: "chat-a", Text: "one"}, w)
	if got := states(w.approvals()); got != "requested: allowed:chat" {
		t.Errorf("first: %q", got)
	}
	w2 := newWatcher(r.gate)
	r.send(agent.Request{SessionID: "chat-a", Text: "two"}, w2)
	if got := states(w2.approvals()); got != "allowed:chat" || !w2.results()[0].OK {
		t.Errorf("same chat asked again: %q %+v", got, w2.results())
	}
	// Another chat is asked.
	w3 := newWatcher(r.gate, Deny)
	r.send(agent.Request{SessionID: "chat-b", Text: "three"}, w3)
	if got := states(w3.approvals()); got != "requested: denied:user" {
		t.Errorf("other chat: %q", got)
	}
}

func TestAlwaysAllow(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeRisky},
		execCall("echo one"), fakeollama.Reply{Content: "1"},
		execCall("echo two"), fakeollama.Reply{Content: "2"})
	w := newWatcher(r.gate, Always)
	r.send(agent.Request{SessionID: "a", Text: "one"}, w)
	if got := states(w.approvals()); got != "requested: allowed:always" {
		t.Errorf("first: %q", got)
	}
	if rules := r.getRules(); len(rules.Always) != 1 || rules.Always[0] != "exec" {
		t.Errorf("always was not granted: %+v", rules)
	}
	// Another chat, another run: no question (the saved rule allows it).
	w2 := newWatcher(r.gate)
	r.send(agent.Request{SessionID: "b", Text: "two"}, w2)
	if got := states(w2.approvals()); got != "allowed:always" || !w2.results()[0].OK {
		t.Errorf("asked again after always: %q", got)
	}
}

// Saving "always" can fail (a read-only config): the call keeps waiting and
// can still be answered.
func TestAlwaysSaveFails(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeRisky},
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "write_file", Arguments: json.RawMessage(`{"path":"a.txt","content":"x"}`)}}},
		fakeollama.Reply{Content: "written"})
	w := newWatcher(r.gate)
	run, err := r.runner.Start(context.Background(), agent.Request{Text: "write"}, w.sink)
	if err != nil {
		t.Fatal(err)
	}
	ev := <-w.requested
	a := ev.Data.(event.ApprovalData)
	if err := r.gate.Approve(ev.RunID, a.CallID, Always); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("always with a failing save: %v", err)
	}
	if p := r.gate.Pendings(); len(p) != 1 || p[0].Tool != "write_file" || p[0].Why.Code != "gate.why.write" || p[0].Reason != "It writes a file outside the memory files." || !strings.Contains(string(p[0].Args), "a.txt") {
		t.Fatalf("pending after failed save: %+v", p)
	}
	if err := r.gate.Approve(ev.RunID, a.CallID, Once); err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Final != "written" {
		t.Errorf("result %+v", res)
	}
	if err := r.gate.Approve(ev.RunID, a.CallID, Once); !errors.Is(err, ErrNoPending) {
		t.Errorf("answering twice: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(r.ws, "a.txt")); err != nil || string(data) != "x" {
		t.Errorf("file: %q %v", data, err)
	}
}

// A waiting call blocks nothing but its run, and Stop ends it within a second.
func TestStopWhileWaiting(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeRisky}, execCall("echo never"))
	w := newWatcher(r.gate)
	run, err := r.runner.Start(context.Background(), agent.Request{SessionID: "s", Text: "go"}, w.sink)
	if err != nil {
		t.Fatal(err)
	}
	<-w.requested
	if len(r.gate.Pendings()) != 1 {
		t.Fatalf("pendings %+v", r.gate.Pendings())
	}
	start := time.Now()
	r.runner.Stop("s")
	res := run.Wait()
	if res.Status != event.StatusCancelled || time.Since(start) > time.Second {
		t.Errorf("status %s after %v", res.Status, time.Since(start))
	}
	if got := states(w.approvals()); got != "requested: denied:cancelled" || len(r.gate.Pendings()) != 0 {
		t.Errorf("approvals %q, pendings %+v", got, r.gate.Pendings())
	}
}

// A pending approval does not survive a restart: the run is interrupted and
// "continue" asks again.
func TestRestartAsksAgain(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeRisky}, execCall("echo first"), execCall("echo resumed"), fakeollama.Reply{Content: "Finished."})
	w := newWatcher(r.gate)
	run, err := r.runner.Start(context.Background(), agent.Request{SessionID: "s", Text: "go"}, w.sink)
	if err != nil {
		t.Fatal(err)
	}
	<-w.requested
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.runner.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusInterrupted {
		t.Fatalf("status %s", res.Status)
	}
	// "Restart": a new gate (nothing pending) and a new runner on the same store.
	r.gate = New(Options{Rules: r.getRules, Workspace: func() string { return r.ws }})
	r.runner = r.newRunner(r.url)
	w2 := newWatcher(r.gate, Once)
	cont, err := r.runner.Continue(context.Background(), "s", w2.sink)
	if err != nil {
		t.Fatal(err)
	}
	res := cont.Wait()
	if res.Status != event.StatusOK || res.Final != "Finished." {
		t.Fatalf("continued: %+v", res)
	}
	if got := states(w2.approvals()); got != "requested: allowed:once" || !strings.Contains(w2.results()[0].Content, "resumed") {
		t.Errorf("continue did not ask again: %q %+v", got, w2.results())
	}
}

func TestUnattendedThroughRunner(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeRisky}, execCall("echo cron"), fakeollama.Reply{Content: "Could not."},
		execCall("echo allowed-job"), fakeollama.Reply{Content: "Ran."})
	w := newWatcher(r.gate)
	res := r.send(agent.Request{Text: "check", Unattended: true}, w)
	rs := w.results()
	if res.Status != event.StatusOK || len(rs) != 1 || rs[0].OK || !strings.Contains(rs[0].Content, "unattended") {
		t.Fatalf("result %+v, tool results %+v", res, rs)
	}
	if n := w.notices(); len(n) != 1 || !strings.Contains(n[0], "exec was not run") {
		t.Errorf("notices %q", n)
	}
	if got := states(w.approvals()); got != "denied:unattended" {
		t.Errorf("approvals %q", got)
	}
	w2 := newWatcher(r.gate)
	r.send(agent.Request{Text: "check", Unattended: true, AllowTools: []string{"exec"}}, w2)
	if rs := w2.results(); len(rs) != 1 || !rs[0].OK || states(w2.approvals()) != "allowed:job" {
		t.Errorf("allow-listed job: %+v %q", rs, states(w2.approvals()))
	}
}

// Parallel read-only calls in ask mode wait together; "for this chat" on one
// answers the other too.
func TestParallelPendingChat(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeAsk},
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{
			{Name: "list_dir", Arguments: json.RawMessage(`{"path":"."}`)},
			{Name: "list_dir", Arguments: json.RawMessage(`{"path":"memory"}`)}}},
		fakeollama.Reply{Content: "Listed."})
	w := newWatcher(r.gate)
	run, err := r.runner.Start(context.Background(), agent.Request{SessionID: "p", Text: "ls"}, w.sink)
	if err != nil {
		t.Fatal(err)
	}
	ev := <-w.requested
	<-w.requested
	if p := r.gate.Pendings(); len(p) != 2 {
		t.Fatalf("pendings %+v", p)
	}
	if err := r.gate.Approve(ev.RunID, ev.Data.(event.ApprovalData).CallID, Chat); err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Final != "Listed." {
		t.Fatalf("result %+v", res)
	}
	if rs := w.results(); len(rs) != 2 || !rs[0].OK || !rs[1].OK {
		t.Errorf("results %+v", rs)
	}
}

// "No, do this instead" while a call waits: the call is denied by the user (not
// cancelled), the run stops before it asks the model again — no fragment of a new
// answer — and the next turn reads the denial, then the person's message.
func TestDenyInsteadStopsBeforeTheModel(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeRisky}, execCall("touch made-it"),
		fakeollama.Reply{Content: "a fragment that must never be asked for"},
		fakeollama.Reply{Content: "Listing instead."})
	w := newWatcher(r.gate)
	run, err := r.runner.Start(context.Background(), agent.Request{SessionID: "s", Text: "touch it"}, w.sink)
	if err != nil {
		t.Fatal(err)
	}
	<-w.requested
	if !r.runner.DenyInstead("s") {
		t.Fatal("no run to deny")
	}
	res := run.Wait()
	if res.Status != event.StatusCancelled || res.Final != "" {
		t.Errorf("result %+v", res)
	}
	if n := len(r.fake.ChatRequests()); n != 1 {
		t.Errorf("%d model requests, want the first alone", n)
	}
	rs := w.results()
	if got := states(w.approvals()); got != "requested: denied:user" || len(rs) != 1 || rs[0].OK ||
		!strings.Contains(rs[0].Content, "denied by the user") {
		t.Errorf("approvals %q, results %+v", got, rs)
	}
	if _, err := os.Stat(filepath.Join(r.ws, "made-it")); err == nil {
		t.Error("the denied command ran")
	}
	if r.runner.DenyInstead("s") {
		t.Error("a finished run denied again")
	}
	next := r.send(agent.Request{SessionID: "s", Text: "list the files instead"}, newWatcher(r.gate))
	if next.Status != event.StatusOK {
		t.Fatalf("next turn %+v", next)
	}
	msgs := r.fake.ChatRequests()[1].Messages
	var tail []string
	for _, m := range msgs[1:] {
		tail = append(tail, m.Role+":"+m.Content)
	}
	joined := strings.Join(tail, "\n")
	if strings.Contains(joined, "fragment") || !strings.Contains(joined, "denied by the user") ||
		!strings.Contains(msgs[len(msgs)-1].Content, "list the files instead") {
		t.Errorf("the next turn's request:\n%s", joined)
	}
}
