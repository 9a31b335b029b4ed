package chat

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/tools"
)

// events collects the events of every run a sink is handed to.
type events struct {
	mu  sync.Mutex
	all []event.Event
}

func (e *events) sink(ev event.Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
}

// finished waits for run id's run_finished.
func (e *events) finished(t *testing.T, id string) event.FinishedData {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		e.mu.Lock()
		for _, ev := range e.all {
			if ev.RunID == id && ev.Type == event.RunFinished {
				e.mu.Unlock()
				return ev.Data.(event.FinishedData)
			}
		}
		e.mu.Unlock()
	}
	t.Fatalf("run %s never finished", id)
	return event.FinishedData{}
}

// The window's composer stays live during a run: Submit steers, queues or stops and
// sends through the chat service, and the waiting list is the chat's.
func TestSubmitWhileATurnRuns(t *testing.T) {
	ran, release := make(chan struct{}, 4), make(chan struct{})
	block := tools.New(tools.Def[struct{}]{Name: "block", Short: "Waits.", Description: "Waits.",
		Run: func(ctx context.Context, _ struct{}) (tools.Result, error) {
			ran <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return tools.Result{Content: "waited"}, nil
		}})
	r := newRig(t, func(o *Options) {
		o.Sources = append(o.Sources, func() ([]tools.Tool, error) { return []tools.Tool{block}, nil })
	})
	r.fake.Enqueue(fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "block", Arguments: json.RawMessage(`{}`)}}},
		fakeollama.Reply{Content: "first"}, fakeollama.Reply{Content: "second"})
	var evs events
	first, err := r.svc.Submit(Input{SessionID: "c1", Text: "go", Mode: "steer"}, evs.sink)
	if err != nil || first.RunID == "" || first.Pending != nil {
		t.Fatalf("no run going: %+v %v", first, err)
	}
	<-ran
	steer, err := r.svc.Submit(Input{SessionID: "c1", Text: "use the other file", Mode: "steer"}, evs.sink)
	if err != nil || steer.Pending == nil {
		t.Fatalf("steer: %+v %v", steer, err)
	}
	queued, err := r.svc.Submit(Input{SessionID: "c1", Text: "then summarise", Mode: "queue"}, evs.sink)
	if err != nil || queued.Pending == nil {
		t.Fatalf("queue: %+v %v", queued, err)
	}
	if _, err := r.svc.Submit(Input{SessionID: "c1", Text: "look", Mode: "queue", Images: []string{"AQID"}}, evs.sink); err == nil {
		t.Fatal("a picture waits for a running turn")
	}
	if list, err := r.svc.Pending("c1"); err != nil || len(list) != 2 {
		t.Fatalf("waiting: %+v %v", list, err)
	}
	close(release)
	next := evs.finished(t, first.RunID).NextRunID
	if next == "" {
		t.Fatal("the queued message started no turn")
	}
	evs.finished(t, next)
	reqs := r.fake.ChatRequests()
	last := func(q fakeollama.ChatRequest) string { // the words, without the runtime context the builder adds
		text, _, _ := strings.Cut(q.Messages[len(q.Messages)-1].Content, "\n\n[Runtime Context]")
		return text
	}
	if len(reqs) != 3 || last(reqs[1]) != "use the other file" || last(reqs[2]) != "then summarise" {
		for _, q := range reqs {
			for _, m := range q.Messages {
				t.Logf("%s: %.80q", m.Role, m.Content)
			}
			t.Log("--")
		}
		t.Fatalf("requests: %d", len(reqs))
	}
	if list, _ := r.svc.Pending("c1"); len(list) != 0 {
		t.Fatalf("still waiting: %+v", list)
	}
}

func TestSubmitStopAndSend(t *testing.T) {
	r := newRig(t)
	r.fake.Enqueue(fakeollama.Reply{Content: "partial", Hang: true}, fakeollama.Reply{Content: "instead"})
	var evs events
	streaming := make(chan struct{}, 1)
	first, err := r.svc.Submit(Input{SessionID: "c1", Text: "long"}, func(ev event.Event) {
		evs.sink(ev)
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
	sent, err := r.svc.Submit(Input{SessionID: "c1", Text: "do this instead", Mode: "stop"}, evs.sink)
	if err != nil || sent.RunID == "" || sent.RunID == first.RunID {
		t.Fatalf("stop and send: %+v %v", sent, err)
	}
	if f := evs.finished(t, first.RunID); f.Status != event.StatusCancelled || f.Final != "partial" {
		t.Fatalf("the stopped turn: %+v", f)
	}
	if f := evs.finished(t, sent.RunID); f.Status != event.StatusOK || f.Final != "instead" {
		t.Fatalf("the new turn: %+v", f)
	}
}
