package event

import (
	"context"
	"testing"
	"time"
)

func recv[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v, ok := <-ch:
		if !ok {
			t.Fatal("channel closed")
		}
		return v
	case <-time.After(5 * time.Second):
		t.Fatal("nothing received")
	}
	var zero T
	return zero
}

func closed[T any](t *testing.T, ch <-chan T) {
	t.Helper()
	select {
	case _, ok := <-ch:
		if ok {
			t.Fatal("value received, want a closed channel")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("channel not closed")
	}
}

func TestBrokerDeliversToEverySubscriberInOrder(t *testing.T) {
	b := NewBroker[MemoryChanged](0)
	ctx := t.Context()
	one, two := b.Subscribe(ctx), b.Subscribe(ctx)
	b.Publish(MemoryChanged{File: "memory/MEMORY.md"})
	b.Publish(MemoryChanged{File: "SOUL.md"})
	for _, ch := range []<-chan MemoryChanged{one, two} {
		if got := recv(t, ch).File; got != "memory/MEMORY.md" {
			t.Errorf("first %q", got)
		}
		if got := recv(t, ch).File; got != "SOUL.md" {
			t.Errorf("second %q", got)
		}
	}
}

func TestBrokerNeverBlocksOnASlowSubscriber(t *testing.T) {
	b := NewBroker[int](2)
	slow := b.Subscribe(t.Context())
	done := make(chan struct{})
	go func() {
		for i := range 10 {
			b.Publish(i)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Publish blocked on a subscriber that does not read")
	}
	if got := recv(t, slow); got != 0 {
		t.Errorf("kept %d first, want the oldest (0)", got)
	}
	if got := recv(t, slow); got != 1 {
		t.Errorf("kept %d second, want 1 (the rest missed)", got)
	}
	select {
	case v := <-slow:
		t.Errorf("kept %d too, want only a buffer's worth", v)
	default:
	}
}

func TestBrokerUnsubscribeAndClose(t *testing.T) {
	b := NewBroker[string](0)
	ctx, cancel := context.WithCancel(t.Context())
	gone := b.Subscribe(ctx)
	stays := b.Subscribe(t.Context())
	cancel()
	closed(t, gone)
	b.Publish("after cancel")
	if got := recv(t, stays); got != "after cancel" {
		t.Errorf("got %q", got)
	}
	b.Close()
	closed(t, stays)
	closed(t, b.Subscribe(t.Context()))
	b.Publish("after close") // no panic on closed channels
	b.Close()
}
