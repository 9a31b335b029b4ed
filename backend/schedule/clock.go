package schedule

import (
	"sync"
	"time"
)

// Clock is the scheduler's time source. The real one is SystemClock; tests
// use FakeClock to move time (and time zones, DST changes, sleep/resume) at will.
type Clock interface {
	Now() time.Time
	// After is time.After: the channel receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// SystemClock is the wall clock.
type SystemClock struct{}

// Now implements Clock.
func (SystemClock) Now() time.Time { return time.Now() }

// After implements Clock.
func (SystemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// FakeClock is a Clock that moves only when told. Safe for concurrent use.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []fakeWaiter
	afters  int
}

type fakeWaiter struct {
	at time.Time
	ch chan time.Time
}

// NewFakeClock returns a clock standing at now.
func NewFakeClock(now time.Time) *FakeClock { return &FakeClock{now: now} }

// Now implements Clock.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After implements Clock.
func (c *FakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.afters++
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, fakeWaiter{at: c.now.Add(d), ch: ch})
	return ch
}

// Advance moves the clock forward by d and fires the timers that are due.
func (c *FakeClock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Set moves the clock to t (backwards too, like a user changing the system
// clock) and fires the timers that are due.
func (c *FakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if !w.at.After(t) {
			w.ch <- t
			continue
		}
		kept = append(kept, w)
	}
	c.waiters = kept
}

// Waiters is how many timers are pending.
func (c *FakeClock) Waiters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// Afters is how many timers were ever asked for (the scheduler's wake-ups).
func (c *FakeClock) Afters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.afters
}

// NextTimer is when the earliest pending timer fires (zero if none).
func (c *FakeClock) NextTimer() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	var at time.Time
	for _, w := range c.waiters {
		if at.IsZero() || w.at.Before(at) {
			at = w.at
		}
	}
	return at
}

// WaitForWaiters polls (real time) until at least n timers are pending, up
// to timeout; it reports whether they were.
func (c *FakeClock) WaitForWaiters(n int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if c.Waiters() >= n {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return c.Waiters() >= n
}
