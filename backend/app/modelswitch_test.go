package app

import (
	"context"
	"strings"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/chat"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// switchRig is an App over a fake Ollama with two installed models.
func switchRig(t *testing.T) (*App, *fakeollama.Server) {
	t.Helper()
	setXDG(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel(),
		{Name: "small:1b", Capabilities: []string{"completion", "tools"}, ContextLength: 4096}}})
	svc := open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1}})
	return svc, fake
}

// runEvents starts a turn from the window's composer and collects its events.
func runEvents(t *testing.T, svc *App, in chat.Input) []event.Event {
	t.Helper()
	done := make(chan struct{})
	var evs []event.Event
	if _, err := svc.Chat.Send(in, func(ev event.Event) {
		evs = append(evs, ev)
		if ev.Type == event.RunFinished {
			close(done)
		}
	}); err != nil {
		t.Fatal(err)
	}
	<-done
	return evs
}

func finished(evs []event.Event) event.FinishedData {
	for _, ev := range evs {
		if d, ok := ev.Data.(event.FinishedData); ok {
			return d
		}
	}
	return event.FinishedData{}
}

// One source of truth: /model stores the chat's model on the session and the next
// message goes to it, whatever model the window sends along with it.
func TestModelSwitchTakesTheNextMessage(t *testing.T) {
	svc, fake := switchRig(t)
	fake.Enqueue(fakeollama.Reply{Content: "first"}, fakeollama.Reply{Content: "second"})
	runEvents(t, svc, chat.Input{SessionID: "c1", Text: "hello"})
	evs := runEvents(t, svc, chat.Input{SessionID: "c1", Text: "/model ollama/small:1b"})
	if f := finished(evs); f.Status != event.StatusOK || f.ChatModel != "ollama/small:1b" {
		t.Fatalf("/model finished %+v", f)
	}
	// A window that still holds the old model sends it: the session's wins.
	runEvents(t, svc, chat.Input{SessionID: "c1", Text: "and now?", Model: "ollama/qwen3:4b"})
	reqs := fake.ChatRequests()
	if len(reqs) != 2 || reqs[0].Model != "qwen3:4b" || reqs[1].Model != "small:1b" {
		var got []string
		for _, r := range reqs {
			got = append(got, r.Model)
		}
		t.Errorf("models asked: %v, want qwen3:4b then small:1b", got)
	}
}

// A new chat is created with the model the window picked, in the one call that sends
// its first message: no second call sets it.
func TestNewChatKeepsItsModelFromTheFirstCall(t *testing.T) {
	svc, fake := switchRig(t)
	fake.Enqueue(fakeollama.Reply{Content: "hi"}, fakeollama.Reply{Content: "again"})
	evs := runEvents(t, svc, chat.Input{Text: "hello", Model: "ollama/small:1b"})
	id := evs[0].SessionID
	sess, err := svc.Sessions.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if sess.Meta.Model != "ollama/small:1b" {
		t.Errorf("new chat's model %q", sess.Meta.Model)
	}
	runEvents(t, svc, chat.Input{SessionID: id, Text: "again"})
	if reqs := fake.ChatRequests(); len(reqs) != 2 || reqs[0].Model != "small:1b" || reqs[1].Model != "small:1b" {
		t.Errorf("requests %+v", reqs)
	}
	if _, err := svc.Chat.Send(chat.Input{Text: "x", Model: "nosuchprovider/m"}, nil); err == nil {
		t.Error("a new chat with a model that does not resolve was started")
	}
}

// /model with a model Ollama has not downloaded says so, keeps the chat's model and
// offers the installed ones.
func TestModelSwitchToAModelNotInstalled(t *testing.T) {
	svc, fake := switchRig(t)
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "c2", Text: "/model ollama/huge:70b"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := run.Wait()
	if res.Status != event.StatusOK || !strings.Contains(res.Final, "huge:70b") || !strings.Contains(res.Final, "not installed") ||
		!strings.Contains(res.Final, "small:1b") || !strings.Contains(res.Final, "Models") {
		t.Errorf("reply %+v", res)
	}
	if sess, err := svc.Sessions.Load("c2"); err == nil && sess.Meta.Model != "" {
		t.Errorf("the chat's model became %q", sess.Meta.Model)
	}
	// "qwen3" is "qwen3:latest", not qwen3:4b; small:1b is there.
	if ok, _, err := svc.modelInstalled(context.Background(), "ollama/small:1b"); !ok || err != nil {
		t.Errorf("small:1b: %v %v", ok, err)
	}
	if ok, _, _ := svc.modelInstalled(context.Background(), "ollama/qwen3"); ok {
		t.Error("qwen3 (latest) taken for qwen3:4b")
	}
	if len(fake.ChatRequests()) != 0 {
		t.Error("a command reached the model")
	}
}
