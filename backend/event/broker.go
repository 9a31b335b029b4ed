package event

import (
	"context"
	"sync"
)

// DefaultBuffer is how many values a subscriber may fall behind before Publish drops
// values for it.
const DefaultBuffer = 64

// Broker delivers values of one kind of news (a memory file changed, a reminder is
// due, …) to every subscriber. Publish never blocks the publisher: each subscriber
// has a buffer of its own, and a subscriber that falls that far behind misses values
// rather than stalling a scheduler or a file watcher. News is a
// hint to refresh, never the only copy of anything. The zero value is not usable:
// make one with NewBroker.
type Broker[T any] struct {
	buffer int

	mu     sync.Mutex
	subs   map[chan T]struct{}
	closed bool
}

// NewBroker returns a broker whose subscribers buffer buffer values (DefaultBuffer
// when buffer < 1).
func NewBroker[T any](buffer int) *Broker[T] {
	if buffer < 1 {
		buffer = DefaultBuffer
	}
	return &Broker[T]{buffer: buffer, subs: map[chan T]struct{}{}}
}

// Subscribe returns a channel of every value published from now on. It is closed
// when ctx ends or the broker closes; a subscriber that stops reading must cancel
// ctx.
func (b *Broker[T]) Subscribe(ctx context.Context) <-chan T {
	ch := make(chan T, b.buffer)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		close(ch)
		return ch
	}
	b.subs[ch] = struct{}{}
	go func() {
		<-ctx.Done()
		b.unsubscribe(ch)
	}()
	return ch
}

func (b *Broker[T]) unsubscribe(ch chan T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.subs[ch]; ok {
		delete(b.subs, ch)
		close(ch)
	}
}

// Publish hands v to every subscriber without waiting; after Close it does nothing.
func (b *Broker[T]) Publish(v T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs {
		select {
		case ch <- v:
		default: // missed: news is only a hint to refresh
		}
	}
}

// Close closes every subscriber's channel; later subscribers get a closed channel.
func (b *Broker[T]) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	for ch := range b.subs {
		delete(b.subs, ch)
		close(ch)
	}
}
