package event

import (
	"sync"
	"testing"
	"time"
)

type emitted struct {
	mu  sync.Mutex
	got map[string][]any
}

func (e *emitted) emit(ch string, d any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.got == nil {
		e.got = map[string][]any{}
	}
	e.got[ch] = append(e.got[ch], d)
}

func (e *emitted) on(ch string) []any {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]any(nil), e.got[ch]...)
}

func TestRelayHoldsUntilAttached(t *testing.T) {
	var e emitted
	r := NewRelay(e.emit)
	r.Publish("run:a", 1, false)
	r.Publish("run:a", 2, false)
	if len(e.on("run:a")) != 0 {
		t.Fatal("events delivered before Attach")
	}
	r.Attach("run:a")
	r.Publish("run:a", 3, true)
	if got := e.on("run:a"); len(got) != 3 || got[0] != 1 || got[2] != 3 {
		t.Fatalf("got %v, want 1 2 3 in order", got)
	}
	if r.Pending() != 0 {
		t.Errorf("finished attached channel kept: %d", r.Pending())
	}
	// Attach first, then a whole stream.
	r.Attach("run:b")
	r.Publish("run:b", "x", true)
	if got := e.on("run:b"); len(got) != 1 {
		t.Fatalf("run:b got %v", got)
	}
	// A finished stream attached late still arrives whole, then is forgotten.
	r.Publish("run:c", "y", false)
	r.Publish("run:c", "z", true)
	r.Attach("run:c")
	if got := e.on("run:c"); len(got) != 2 || r.Pending() != 0 {
		t.Fatalf("run:c got %v, pending %d", got, r.Pending())
	}
}

func TestRelayForgetsAbandonedStreams(t *testing.T) {
	var e emitted
	r := NewRelay(e.emit)
	now := time.Unix(1000, 0)
	r.now = func() time.Time { return now }
	r.Publish("run:old", 1, true) // never attached
	now = now.Add(2 * relayForget)
	r.Publish("run:new", 1, false)
	if r.Pending() != 1 {
		t.Fatalf("pending %d, want only run:new", r.Pending())
	}
}
