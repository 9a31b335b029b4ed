package chat

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// tiny is the injected idle time: a chat is idle at once.
func tiny() time.Duration { return time.Millisecond }

// wait receives from ch or fails the test after a generous bound (the
// bound only catches a hang; no assertion depends on how long it takes).
func wait[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("%s never happened", what)
		var zero T
		return zero
	}
}

type compacted struct {
	id    string
	saved int
	err   error
}

// A chat left idle after a turn is compacted by memory, in the background, and the
// compaction that saved something is reported (the Activity log).
func TestIdleCompactsAfterATurn(t *testing.T) {
	calls, reports := make(chan string, 4), make(chan compacted, 4)
	r := newRig(t, func(o *Options) {
		o.IdleAfter = tiny
		o.Compacted = func(id string, _ time.Time, n int, err error) { reports <- compacted{id, n, err} }
	})
	r.memory.compact = func(_ context.Context, id string) (int, error) { calls <- id; return 6, nil }
	res, _ := r.run(t, agent.Request{SessionID: "idle1", Text: "hello"})
	if res.Status != event.StatusOK {
		t.Fatalf("turn: %+v", res)
	}
	if id := wait(t, calls, "the idle compaction"); id != "idle1" {
		t.Errorf("compacted %q", id)
	}
	if rep := wait(t, reports, "the report"); rep != (compacted{"idle1", 6, nil}) {
		t.Errorf("report %+v", rep)
	}
}

// A turn that starts while its chat is being compacted wins: the compaction is
// cancelled and has stopped before the turn starts, and the turn runs as usual.
func TestIdleCompactionYieldsToATurn(t *testing.T) {
	started, stopped := make(chan struct{}, 4), make(chan struct{}, 4)
	r := newRig(t, func(o *Options) { o.IdleAfter = tiny })
	r.memory.compact = func(ctx context.Context, _ string) (int, error) {
		started <- struct{}{}
		<-ctx.Done() // a long consolidation: it ends only when cancelled
		stopped <- struct{}{}
		return 0, nil
	}
	r.fake.Enqueue(fakeollama.Reply{Content: "one"}, fakeollama.Reply{Content: "two"})
	if res, _ := r.run(t, agent.Request{SessionID: "idle2", Text: "first"}); res.Status != event.StatusOK {
		t.Fatalf("first turn: %+v", res)
	}
	wait(t, started, "the idle compaction")
	run, err := r.svc.Start(context.Background(), agent.Request{SessionID: "idle2", Text: "second"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	default:
		t.Fatal("the turn started before the compaction stopped")
	}
	if res := run.Wait(); res.Status != event.StatusOK || res.Final != "two" {
		t.Fatalf("second turn: %+v", res)
	}
}

// fireNow fires a chat's idle timer at once, in the test's goroutine.
func fireNow(i *idler, id string) {
	t := &idleTimer{}
	i.mu.Lock()
	i.timers[id] = t
	i.mu.Unlock()
	i.fire(id, t)
}

// Nothing is compacted while a turn of the chat runs or a message waits for it.
func TestIdleWaitsForQuiet(t *testing.T) {
	ran, release := make(chan struct{}, 2), make(chan struct{})
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
		o.IdleAfter = func() time.Duration { return 0 } // fired by hand only
		o.Sources = append(o.Sources, func() ([]tools.Tool, error) { return []tools.Tool{block}, nil })
	})
	var mu sync.Mutex
	var calls []string
	r.memory.compact = func(_ context.Context, id string) (int, error) {
		mu.Lock()
		calls = append(calls, id)
		mu.Unlock()
		return 0, nil
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(calls) }

	r.fake.Enqueue(fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "block", Arguments: json.RawMessage(`{}`)}}},
		fakeollama.Reply{Content: "done"})
	run, err := r.svc.Start(context.Background(), agent.Request{SessionID: "idle3", Text: "go"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wait(t, ran, "the tool call")
	fireNow(r.svc.idle, "idle3")
	if count() != 0 {
		t.Error("compacted while a turn ran")
	}
	close(release)
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("turn: %+v", res)
	}

	held := []session.Pending{{ID: "p1", Mode: session.ModeQueue, Text: "later", At: "2026-12-07T10:00:00Z", Held: true}}
	if err := r.store.SavePending("idle3", held); err != nil {
		t.Fatal(err)
	}
	fireNow(r.svc.idle, "idle3")
	if count() != 0 {
		t.Error("compacted while a message waited")
	}
	if err := r.svc.RemovePending("idle3", "p1"); err != nil {
		t.Fatal(err)
	}
	fireNow(r.svc.idle, "idle3")
	if count() != 1 {
		t.Errorf("quiet chat not compacted: %d calls", count())
	}
}

// Close stops every timer and cancels and waits for a running compaction: no
// goroutine of the idler outlives the service.
func TestIdleStopsAtClose(t *testing.T) {
	started := make(chan struct{}, 4)
	var exited sync.WaitGroup
	r := newRig(t, func(o *Options) { o.IdleAfter = tiny })
	r.memory.compact = func(ctx context.Context, _ string) (int, error) {
		exited.Add(1)
		defer exited.Done()
		started <- struct{}{}
		<-ctx.Done()
		return 0, nil
	}
	if res, _ := r.run(t, agent.Request{SessionID: "idle4", Text: "hi"}); res.Status != event.StatusOK {
		t.Fatalf("turn: %+v", res)
	}
	wait(t, started, "the idle compaction")
	r.svc.idle.turnEnded("other") // a timer still waiting
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.svc.Close(ctx); err != nil {
		t.Fatal(err)
	}
	exited.Wait() // returned already: close waited for it
	i := r.svc.idle
	i.mu.Lock()
	timers, running := len(i.timers), len(i.running)
	i.mu.Unlock()
	if timers != 0 || running != 0 {
		t.Errorf("after close: %d timers, %d running", timers, running)
	}
	i.turnEnded("idle4")
	if i.mu.Lock(); len(i.timers) != 0 {
		t.Error("a timer set after close")
	}
	i.mu.Unlock()
}

// The idle time is the setting's unless injected; 0 turns it off.
func TestIdleTimeFromSettings(t *testing.T) {
	r := newRig(t)
	if d := r.svc.idle.delay(); d != 10*time.Minute {
		t.Errorf("default idle time %v", d)
	}
}
