package models

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/fitness"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// checkService is the models service over a fake Ollama with the given models,
// and a runner that chats through it (ResolveChat) and tells it how runs go
// (Observe), as the chat service does.
type checkHarness struct {
	*Service
	runner *agent.Runner
	told   *event.Broker[fitness.Result]
}

func checkService(t *testing.T, models ...fakeollama.Model) (*checkHarness, *fakeollama.Server) {
	t.Helper()
	st := openSettings(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: models})
	if err := st.Update(func(c *config.Config) error { c.Providers.Ollama.Host = url; return nil }); err != nil {
		t.Fatal(err)
	}
	told := event.NewBroker[fitness.Result](0)
	svc := New(st, Options{Retry: llm.RetryPolicy{MaxAttempts: 1}, Checked: told})
	t.Cleanup(svc.Close)
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: t.TempDir()}})...); err != nil {
		t.Fatal(err)
	}
	r, err := agent.New(agent.Options{Resolve: svc.ResolveChat, Tools: reg, Observer: svc.Observe,
		Store: session.NewStore(t.TempDir(), session.Options{}), DefaultModel: "ollama/qwen3:4b"})
	if err != nil {
		t.Fatal(err)
	}
	return &checkHarness{Service: svc, runner: r, told: told}, fake
}

// onChecked calls fn with every new result until the test ends.
func (h *checkHarness) onChecked(t *testing.T, fn func(fitness.Result)) {
	ch := h.told.Subscribe(t.Context())
	go func() {
		for r := range ch {
			fn(r)
		}
	}()
}

func send(t *testing.T, svc *checkHarness, model, text string) []event.Event {
	t.Helper()
	var mu sync.Mutex
	var evs []event.Event
	run, err := svc.runner.Start(context.Background(), agent.Request{Model: model, Text: text},
		func(e event.Event) { mu.Lock(); evs = append(evs, e); mu.Unlock() })
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("run %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	return append([]event.Event(nil), evs...)
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func notices(evs []event.Event) []string {
	var out []string
	for _, e := range evs {
		if n, ok := e.Data.(event.NoticeData); ok {
			out = append(out, n.Message)
		}
	}
	return out
}

// A checked model's result is kept under the state dir and listed with the model.
func TestCheckModelKeptAndListed(t *testing.T) {
	svc, fake := checkService(t, fakeollama.DefaultModel())
	told := make(chan fitness.Result, 2)
	svc.onChecked(t, func(r fitness.Result) { told <- r })
	r, err := svc.Check(context.Background(), "qwen3:4b")
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != "ollama/qwen3:4b" || r.Verdict != fitness.VerdictGood {
		t.Errorf("result %+v", r)
	}
	select {
	case got := <-told:
		if got.Model != r.Model {
			t.Errorf("told %+v", got)
		}
	case <-time.After(10 * time.Second):
		t.Error("the result was not published")
	}
	if len(fake.ChatRequests()) != 0 || len(fake.ProbeRequests()) != 3 {
		t.Errorf("%d chats, %d probes", len(fake.ChatRequests()), len(fake.ProbeRequests()))
	}
	if _, err := os.Stat(filepath.Join(svc.settings.Paths().StateDir, fitness.FileName)); err != nil {
		t.Error(err)
	}
	models, err := svc.List(context.Background())
	if err != nil || len(models) != 1 || models[0].Fitness == nil || models[0].Fitness.Verdict != fitness.VerdictGood {
		t.Fatalf("list %+v %v", models, err)
	}
	// Re-pulled (a new digest): the old result no longer counts.
	m := fakeollama.DefaultModel()
	m.Digest = "sha256:new"
	fake.SetModels(m)
	if models, _ := svc.List(context.Background()); models[0].Fitness != nil {
		t.Errorf("a result for the old digest is listed: %+v", models[0].Fitness)
	}
}

// A model the check found unable to call tools chats without tool schemas and
// says so once per run. Left out, they leave room: with every tool this 4096-token
// model could not take the first message on default settings.
func TestChatOnlyModelGetsNoToolSchemas(t *testing.T) {
	mute := fakeollama.Model{Name: "mute:1b", Family: "gemma", ContextLength: 4096, Capabilities: []string{"completion", "tools"}, ToolStyle: "none"}
	svc, fake := checkService(t, fakeollama.DefaultModel(), mute)
	if r, err := svc.Check(context.Background(), "mute:1b"); err != nil || r.Verdict != fitness.VerdictChatOnly {
		t.Fatalf("check %+v %v", r, err)
	}
	fake.Enqueue(fakeollama.Reply{Content: "Hi."}, fakeollama.Reply{Content: "Hi again."}, fakeollama.Reply{Content: "With tools."})
	evs := send(t, svc, "ollama/mute:1b", "hello")
	req := fake.ChatRequests()[0]
	if len(req.Tools) != 0 {
		t.Errorf("%d tool schemas sent to a chat-only model", len(req.Tools))
	}
	if n := notices(evs); len(n) != 1 || !strings.Contains(n[0], "mute:1b cannot use tools") {
		t.Errorf("notices %q", n)
	}
	if sys := req.Messages[0].Content; strings.Contains(sys, `"read_file"`) {
		t.Error("tool schemas in the system prompt")
	}
	send(t, svc, "ollama/mute:1b", "and now?")
	if len(fake.ChatRequests()[1].Tools) != 0 {
		t.Error("tools sent on the second message")
	}
	// Another model of the same server keeps its tools.
	send(t, svc, "ollama/qwen3:4b", "hello")
	if reqs := fake.ChatRequests(); len(reqs[2].Tools) == 0 {
		t.Error("the checked model's verdict leaked to another model")
	}
}

// The check's context maximum reaches the run through the provider's Show: a
// smaller one than the server reports bounds num_ctx.
func TestCheckContextMaxBoundsTheWindow(t *testing.T) {
	svc, fake := checkService(t, fakeollama.DefaultModel())
	o, err := svc.ollama()
	if err != nil {
		t.Fatal(err)
	}
	d, err := o.Show(context.Background(), "qwen3:4b")
	if err != nil || d.Digest == "" || d.ContextLength != 40960 {
		t.Fatalf("show %+v %v", d, err)
	}
	r := fitness.Result{Model: "ollama/qwen3:4b", Digest: d.Digest, ToolCalls: fitness.CallsStructured, Restraint: true,
		StopsAfterResult: true, ContextMax: 7800, Verdict: fitness.VerdictGood, Version: fitness.Version}
	if err := svc.checks.store.Put("ollama/qwen3:4b", r); err != nil {
		t.Fatal(err)
	}
	fake.Enqueue(fakeollama.Reply{Content: "Hi."})
	send(t, svc, "", "hello")
	if got := fake.ChatRequests()[0].Options["num_ctx"]; got != float64(7800) {
		t.Errorf("num_ctx %v, want the check's 7800 (the server says 40960, the config 8192)", got)
	}
}

// idle reports that no background check is running.
func (c *modelChecks) idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cancel == nil
}

// The desktop checks a model by itself after its first reply, once per digest,
// and again when the model changed.
func TestAutoCheckOncePerDigest(t *testing.T) {
	svc, fake := checkService(t, fakeollama.DefaultModel())
	svc.AutoCheck()
	var mu sync.Mutex
	var told []fitness.Result
	svc.onChecked(t, func(r fitness.Result) { mu.Lock(); told = append(told, r); mu.Unlock() })
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(told) }

	fake.Enqueue(fakeollama.Reply{Content: "First."}, fakeollama.Reply{Content: "Second."}, fakeollama.Reply{Content: "Third."})
	send(t, svc, "", "hello")
	waitFor(t, func() bool { return count() == 1 }, "the background check")
	if n := len(fake.ProbeRequests()); n != 3 {
		t.Errorf("%d probes", n)
	}
	// The user's first request carried every tool: the check came after it.
	if first := fake.Requests(); first[len(first)-1].Probe == false {
		t.Error("the last request was not the check's")
	}
	svc.checks.mu.Lock()
	svc.checks.recheck = 0 // look at the digest after every reply from now on
	svc.checks.mu.Unlock()
	send(t, svc, "", "again")
	waitFor(t, func() bool { return svc.checks.idle() }, "the digest look-up")
	if n := len(fake.ProbeRequests()); n != 3 || count() != 1 {
		t.Errorf("checked again for the same digest: %d probes, told %d", n, count())
	}
	m := fakeollama.DefaultModel()
	m.Digest = "sha256:repulled"
	fake.SetModels(m)
	send(t, svc, "", "after a pull")
	waitFor(t, func() bool { return count() == 2 }, "the re-check")
	if r, ok := svc.Checked("ollama/qwen3:4b", "sha256:repulled"); !ok || r.Digest != "sha256:repulled" {
		t.Errorf("re-check %+v %v", r, ok)
	}
	if n := len(fake.ChatRequests()); n != 3 {
		t.Errorf("%d chat requests, want the three messages'", n)
	}
}

// A message sent while the background check runs stops it; it is tried again
// after that reply, so the check never holds up the user.
func TestAutoCheckYieldsToTheUser(t *testing.T) {
	slow := fakeollama.DefaultModel()
	slow.ProbeDelayMS = 1000
	svc, fake := checkService(t, slow)
	svc.AutoCheck()
	done := make(chan fitness.Result, 2)
	svc.onChecked(t, func(r fitness.Result) { done <- r })
	fake.Enqueue(fakeollama.Reply{Content: "First."}, fakeollama.Reply{Content: "Second."})
	send(t, svc, "", "hello")
	waitFor(t, func() bool { return len(fake.ProbeRequests()) == 1 }, "the first probe")
	start := time.Now()
	send(t, svc, "", "quick question")
	if d := time.Since(start); d > time.Second {
		t.Errorf("the reply waited %v for the check", d)
	}
	select {
	case r := <-done:
		if r.Verdict != fitness.VerdictGood {
			t.Errorf("%+v", r)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the check did not run again after the reply")
	}
	weather := 0
	for _, p := range fake.ProbeRequests() {
		if p.Messages[len(p.Messages)-1].Content == fitness.CallPrompt {
			weather++
		}
	}
	if weather != 2 {
		t.Errorf("the tool-call probe was sent %d times, want 2 (stopped, then again)", weather)
	}
}

// A background check that fails bothers nobody: no result, no event, the run is
// fine; it is tried again only after a while.
func TestAutoCheckFailureIsQuiet(t *testing.T) {
	broken := fakeollama.DefaultModel()
	broken.ToolStyle = "broken"
	svc, fake := checkService(t, broken)
	svc.AutoCheck()
	var told atomic.Int32
	svc.onChecked(t, func(fitness.Result) { told.Add(1) })
	fake.Enqueue(fakeollama.Reply{Content: "First."}, fakeollama.Reply{Content: "Second."}, fakeollama.Reply{Content: "Third."})
	evs := send(t, svc, "", "hello")
	waitFor(t, func() bool { return len(fake.ProbeRequests()) > 0 && svc.checks.idle() }, "the failed check")
	if len(notices(evs)) != 0 || told.Load() != 0 {
		t.Errorf("notices %q, told %d", notices(evs), told.Load())
	}
	if _, ok := svc.checks.store.Lookup("ollama/qwen3:4b"); ok {
		t.Error("a failed check left a result")
	}
	probes := len(fake.ProbeRequests())
	send(t, svc, "", "again") // the check is decided as the run ends: none started is none to come
	if n := len(fake.ProbeRequests()); n != probes || !svc.checks.idle() {
		t.Errorf("retried at once: %d probes, then %d", probes, n)
	}
	svc.checks.mu.Lock()
	svc.checks.autoRetry = 0
	svc.checks.mu.Unlock()
	send(t, svc, "", "later")
	waitFor(t, func() bool { return len(fake.ProbeRequests()) > probes }, "the retry")
}

// Without the desktop no check runs by itself: a one-shot CLI run exits at once.
func TestNoAutoCheckOutsideTheDesktop(t *testing.T) {
	svc, fake := checkService(t, fakeollama.DefaultModel())
	fake.Enqueue(fakeollama.Reply{Content: "Hi."})
	send(t, svc, "", "hello") // the check is decided as the run ends: none started is none to come
	if n := len(fake.ProbeRequests()); n != 0 || !svc.checks.idle() {
		t.Errorf("%d probes", n)
	}
}

// Checked returns the kept result of a model's check, when it is current for the
// digest given ("" when unknown).
func (s *Service) Checked(name, digest string) (fitness.Result, bool) {
	key, err := s.modelKey(name)
	if err != nil {
		return fitness.Result{}, false
	}
	return s.checks.store.Get(key, digest)
}
