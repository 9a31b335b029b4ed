package chat

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/tools"
)

// A turn goes through the services the chat was given: memory recalls for its
// message (at each request) and hears once when it ends, the gate is asked before each tool call, the model answers.
func TestStartRunsATurnThroughItsServices(t *testing.T) {
	r := newRig(t)
	ws := r.settings.Paths().Workspace
	if err := os.WriteFile(filepath.Join(ws, "note.txt"), []byte("inside"), 0o600); err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"path": "note.txt"})
	r.fake.Enqueue(fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: args}}},
		fakeollama.Reply{Content: "It says inside."})
	res, evs := r.run(t, agent.Request{SessionID: "c1", Text: "what does note.txt say?"})
	if res.Status != event.StatusOK || res.Final != "It says inside." {
		t.Fatalf("result %+v", res)
	}
	if evs[0].Type != event.RunStarted || evs[len(evs)-1].Type != event.RunFinished {
		t.Errorf("events %+v", evs)
	}
	if calls := r.gate.asked(); len(calls) != 1 || calls[0].Name != "read_file" || calls[0].SessionID != "c1" {
		t.Errorf("gate asked %+v", calls)
	}
	recalled, afterRuns, _ := r.memory.snapshot()
	if len(recalled) == 0 || slices.ContainsFunc(recalled, func(q string) bool { return q != "what does note.txt say?" }) ||
		!slices.Equal(afterRuns, []string{"c1"}) {
		t.Errorf("memory recalled %q, heard the end of %q", recalled, afterRuns)
	}
	if got := r.models(); !slices.Equal(got, []string{"qwen3:4b", "qwen3:4b"}) {
		t.Errorf("models asked %v", got)
	}
	// The model read the file, not the gate's refusal.
	if reqs := r.fake.ChatRequests(); !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "inside") {
		t.Errorf("the tool result did not reach the model: %+v", reqs[1].Messages)
	}
}

// A call the gate denies does not run: the model reads the refusal.
func TestTheGateDecides(t *testing.T) {
	r := newRig(t)
	r.gate.deny = "write_file"
	args, _ := json.Marshal(map[string]string{"path": "x.txt", "content": "no"})
	r.fake.Enqueue(fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "write_file", Arguments: args}}},
		fakeollama.Reply{Content: "I could not."})
	if res, _ := r.run(t, agent.Request{SessionID: "c1", Text: "write x"}); res.Status != event.StatusOK {
		t.Fatalf("result %+v", res)
	}
	if _, err := os.Stat(filepath.Join(r.settings.Paths().Workspace, "x.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a denied write ran: %v", err)
	}
}

// The model is resolved before a run starts; a new chat keeps the model it was created
// with, and a chat that exists answers with its own model whatever the window sends.
func TestModelResolution(t *testing.T) {
	r := newRig(t)
	if _, err := r.svc.Start(context.Background(), agent.Request{SessionID: "c0", Text: "hi", Model: "nosuch/m"}, nil); err == nil ||
		!strings.Contains(err.Error(), `model "nosuch/m"`) {
		t.Errorf("an unknown model: %v", err)
	}
	if _, err := r.svc.Send(Input{Text: "hi", Model: "nosuch/m"}, nil); err == nil {
		t.Error("a new chat with a model that does not resolve was started")
	}
	if len(r.fake.ChatRequests()) != 0 {
		t.Fatal("a refused run reached the model")
	}
	r.fake.Enqueue(fakeollama.Reply{Content: "one"}, fakeollama.Reply{Content: "two"})
	id := r.send(t, Input{Text: "hello", Model: "ollama/small:1b"})
	if sess, err := r.store.Load(id); err != nil || sess.Meta.Model != "ollama/small:1b" {
		t.Fatalf("the new chat's model: %+v %v", sess.Meta, err)
	}
	r.send(t, Input{SessionID: id, Text: "again", Model: "ollama/qwen3:4b"})
	if got := r.models(); !slices.Equal(got, []string{"small:1b", "small:1b"}) {
		t.Errorf("models asked %v, want small:1b twice", got)
	}
}

// send sends from the composer and waits for the turn's end; it returns the chat's id.
func (r *rig) send(t *testing.T, in Input) string {
	t.Helper()
	done := make(chan string, 1)
	if _, err := r.svc.Send(in, func(ev event.Event) {
		if ev.Type == event.RunFinished {
			done <- ev.SessionID
		}
	}); err != nil {
		t.Fatal(err)
	}
	return <-done
}

// One run per chat: a second is refused while the first goes, the chat cannot be
// deleted, and Stop ends it.
func TestARunInUse(t *testing.T) {
	r := newRig(t)
	r.fake.Enqueue(fakeollama.Reply{Content: "partial", Hang: true})
	streaming := make(chan struct{}, 1)
	run, err := r.svc.Start(context.Background(), agent.Request{SessionID: "c1", Text: "long"}, func(ev event.Event) {
		if ev.Type == event.TextDelta {
			select {
			case streaming <- struct{}{}:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	<-streaming
	if err := r.svc.InUse("c1"); !errors.Is(err, agent.ErrBusy) || !strings.Contains(err.Error(), run.ID) {
		t.Errorf("InUse of a running chat: %v", err)
	}
	if !r.svc.Running() || r.svc.InUse("c2") != nil {
		t.Error("Running or InUse of another chat wrong")
	}
	if _, err := r.svc.Start(context.Background(), agent.Request{SessionID: "c1", Text: "more"}, nil); !errors.Is(err, agent.ErrBusy) {
		t.Errorf("a second run of the same chat: %v", err)
	}
	if !r.svc.Stop("c1") {
		t.Fatal("Stop found nothing running")
	}
	if res := run.Wait(); res.Status != event.StatusCancelled || res.Final != "partial" {
		t.Errorf("stopped run %+v", res)
	}
	if r.svc.Stop("c1") || r.svc.InUse("c1") != nil || r.svc.Running() {
		t.Error("the chat still counts as running after its run ended")
	}
}

// Close interrupts a running turn (kept on disk to be continued) and refuses new ones.
func TestCloseInterrupts(t *testing.T) {
	r := newRig(t)
	r.fake.Enqueue(fakeollama.Reply{Content: "partial", Hang: true})
	started := make(chan struct{}, 1)
	run, err := r.svc.Start(context.Background(), agent.Request{SessionID: "c1", Text: "long"}, func(ev event.Event) {
		if ev.Type == event.TextDelta {
			select {
			case started <- struct{}{}:
			default:
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.svc.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusInterrupted {
		t.Errorf("run after Close: %+v", res)
	}
	if _, err := r.svc.Start(context.Background(), agent.Request{SessionID: "c2", Text: "hi"}, nil); err == nil {
		t.Error("a run started after Close")
	}
}

// A background consolidation that failed is told on the chat's next turn, once.
func TestAFailedConsolidationIsToldOnce(t *testing.T) {
	r := newRig(t)
	r.memory.failure = errors.New("disk full")
	r.fake.Enqueue(fakeollama.Reply{Content: "one"}, fakeollama.Reply{Content: "two"})
	_, evs := r.run(t, agent.Request{SessionID: "c1", Text: "hi"})
	if n := notices(evs); len(n) != 1 || !strings.Contains(n[0], "disk full") || !strings.Contains(n[0], "tried again") {
		t.Errorf("notices %q", n)
	}
	if _, evs := r.run(t, agent.Request{SessionID: "c1", Text: "hi again"}); len(notices(evs)) != 0 {
		t.Errorf("told twice: %q", notices(evs))
	}
}

// /remember goes to memory, not to the model.
func TestRememberGoesToMemory(t *testing.T) {
	r := newRig(t)
	res, _ := r.run(t, agent.Request{SessionID: "c1", Text: "/remember I like tea"})
	if _, _, remembered := r.memory.snapshot(); res.Status != event.StatusOK || !slices.Equal(remembered, []string{"I like tea"}) {
		t.Errorf("result %+v, remembered %q", res, remembered)
	}
	if len(r.fake.ChatRequests()) != 0 {
		t.Error("a command reached the model")
	}
}

// A settings change is followed: exec turned off is withdrawn from both registries;
// helpers never get spawn.
func TestApplyFollowsTheSettings(t *testing.T) {
	r := newRig(t)
	main, sub := r.svc.Registries()[0], r.svc.Registries()[1]
	has := func(reg *tools.Registry, name string) bool { _, ok := reg.Get(name); return ok }
	if !has(main, "exec") || !has(sub, "exec") || !has(main, "spawn") || has(sub, "spawn") {
		t.Fatal("tools at start")
	}
	if err := r.settings.Update(func(c *config.Config) error { c.Tools.Exec.Enabled = false; return nil }); err != nil {
		t.Fatal(err)
	}
	r.svc.Apply()
	if has(main, "exec") || has(sub, "exec") || !has(main, "read_file") {
		t.Error("exec still offered after it was turned off")
	}
}

// Send refuses what cannot start a turn, with a hint.
func TestSendRefuses(t *testing.T) {
	r := newRig(t)
	for _, in := range []Input{{Text: "  "}, {Again: true}, {Text: "x", Images: []string{"not base64!"}}} {
		if _, err := r.svc.Send(in, nil); err == nil || !strings.Contains(err.Error(), "hint:") {
			t.Errorf("%+v: %v", in, err)
		}
	}
}

// A helper a run spawned reports back: its report is one background notice naming
// the chat (the desktop's notification), and it is no longer listed.
func TestSubagentReportIsNews(t *testing.T) {
	r := newRig(t)
	news := r.news.Subscribe(t.Context())
	args, _ := json.Marshal(map[string]string{"task": "Say done.", "label": "demo"})
	// The parent's answer and the helper's race for the queue: both say "done".
	r.fake.Enqueue(fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "spawn", Arguments: args}}},
		fakeollama.Reply{Content: "done"}, fakeollama.Reply{Content: "done"})
	if res, _ := r.run(t, agent.Request{SessionID: "c1", Text: "in the background"}); res.Status != event.StatusOK {
		t.Fatalf("result %+v", res)
	}
	select {
	case n := <-news:
		if n.Kind != event.BackgroundSubagent || n.TitleCode != "notify.subagent.finished" || n.Args["label"] != "demo" ||
			n.Text != "done" || n.SessionID != "c1" {
			t.Errorf("notice %+v", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no report")
	}
	for deadline := time.Now().Add(30 * time.Second); len(r.svc.Helpers()) > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("helpers still listed: %+v", r.svc.Helpers())
		}
	}
}
