package core

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/fitness"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// checkService is chatService with the given models.
func checkService(t *testing.T, models ...fakeollama.Model) (*Service, *fakeollama.Server) {
	t.Helper()
	setXDG(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: models})
	svc := Open(Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1}})
	t.Cleanup(func() { _ = svc.Shutdown(context.Background()) })
	return svc, fake
}

func send(t *testing.T, svc *Service, model, text string) []agent.Event {
	t.Helper()
	var ev events
	run, err := svc.SendRequest(context.Background(), agent.Request{Model: model, Text: text}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != agent.StatusOK {
		t.Fatalf("run %+v", res)
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	return append([]agent.Event(nil), ev.evs...)
}

func notices(evs []agent.Event) []string {
	var out []string
	for _, e := range evs {
		if n, ok := e.Data.(agent.NoticeData); ok {
			out = append(out, n.Message)
		}
	}
	return out
}

// A checked model's result is kept under the state dir and listed with the model.
func TestCheckModelKeptAndListed(t *testing.T) {
	svc, fake := checkService(t, fakeollama.DefaultModel())
	var got []fitness.Result
	svc.OnModelChecked(func(r fitness.Result) { got = append(got, r) })
	r, err := svc.CheckModel(context.Background(), "qwen3:4b")
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != "ollama/qwen3:4b" || r.Verdict != fitness.VerdictGood || len(got) != 1 {
		t.Errorf("result %+v, %d told", r, len(got))
	}
	if len(fake.ChatRequests()) != 0 || len(fake.ProbeRequests()) != 3 {
		t.Errorf("%d chats, %d probes", len(fake.ChatRequests()), len(fake.ProbeRequests()))
	}
	if _, err := os.Stat(filepath.Join(svc.Paths().StateDir, fitness.FileName)); err != nil {
		t.Error(err)
	}
	models, err := svc.ListModels(context.Background())
	if err != nil || len(models) != 1 || models[0].Fitness == nil || models[0].Fitness.Verdict != fitness.VerdictGood {
		t.Fatalf("list %+v %v", models, err)
	}
	// Re-pulled (a new digest): the old result no longer counts.
	m := fakeollama.DefaultModel()
	m.Digest = "sha256:new"
	fake.SetModels(m)
	if models, _ := svc.ListModels(context.Background()); models[0].Fitness != nil {
		t.Errorf("a result for the old digest is listed: %+v", models[0].Fitness)
	}
}

// A model the check found unable to call tools chats without tool schemas and
// says so once per run. Left out, they leave room: with every tool this 4096-token
// model could not take the first message on default settings.
func TestChatOnlyModelGetsNoToolSchemas(t *testing.T) {
	mute := fakeollama.Model{Name: "mute:1b", Family: "gemma", ContextLength: 4096, Capabilities: []string{"completion", "tools"}, ToolStyle: "none"}
	svc, fake := checkService(t, fakeollama.DefaultModel(), mute)
	if r, err := svc.CheckModel(context.Background(), "mute:1b"); err != nil || r.Verdict != fitness.VerdictChatOnly {
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
	svc.AutoCheckModels()
	var mu sync.Mutex
	var told []fitness.Result
	svc.OnModelChecked(func(r fitness.Result) { mu.Lock(); told = append(told, r); mu.Unlock() })
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
	if r, ok := svc.ModelCheck("ollama/qwen3:4b", "sha256:repulled"); !ok || r.Digest != "sha256:repulled" {
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
	svc.AutoCheckModels()
	done := make(chan fitness.Result, 2)
	svc.OnModelChecked(func(r fitness.Result) { done <- r })
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
	svc.AutoCheckModels()
	told := 0
	svc.OnModelChecked(func(fitness.Result) { told++ })
	fake.Enqueue(fakeollama.Reply{Content: "First."}, fakeollama.Reply{Content: "Second."}, fakeollama.Reply{Content: "Third."})
	evs := send(t, svc, "", "hello")
	waitFor(t, func() bool { return len(fake.ProbeRequests()) > 0 && svc.checks.idle() }, "the failed check")
	if len(notices(evs)) != 0 || told != 0 {
		t.Errorf("notices %q, told %d", notices(evs), told)
	}
	if _, ok := svc.checks.store.Lookup("ollama/qwen3:4b"); ok {
		t.Error("a failed check left a result")
	}
	probes := len(fake.ProbeRequests())
	send(t, svc, "", "again")
	time.Sleep(100 * time.Millisecond)
	if n := len(fake.ProbeRequests()); n != probes {
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
	send(t, svc, "", "hello")
	time.Sleep(100 * time.Millisecond)
	if n := len(fake.ProbeRequests()); n != 0 {
		t.Errorf("%d probes", n)
	}
}
