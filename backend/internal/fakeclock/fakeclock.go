// Package fakeclock is a test helper: a clock that moves only when a test tells it to,
// backwards too (a user changing the system clock, a resume from sleep), which
// testing/synctest's bubble clock cannot do. It fits schedule.Clock.
package fakeclock

import (
	"sync"
	"time"
)

// hang bounds the waits: far beyond any load, it turns a loop that never sleeps into a
// failure instead of a test binary stuck until go test's own timeout.
const hang = time.Minute

// Clock is a clock that moves only when told. Safe for concurrent use.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
	afters  int
	asked   chan struct{} // closed and replaced whenever a timer is asked for
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

// New returns a clock standing at now.
func New(now time.Time) *Clock { return &Clock{now: now, asked: make(chan struct{})} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After is time.After on this clock: the channel receives once the clock has moved d on.
func (c *Clock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.afters++
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
	} else {
		c.waiters = append(c.waiters, waiter{at: c.now.Add(d), ch: ch})
	}
	close(c.asked)
	c.asked = make(chan struct{})
	return ch
}

// Advance moves the clock forward by d and fires the timers that are due.
func (c *Clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

// Set moves the clock to t (backwards too) and fires the timers that are due.
func (c *Clock) Set(t time.Time) {
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

// Afters is how many timers were ever asked for (a loop's wake-ups).
func (c *Clock) Afters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.afters
}

// NextTimer is when the earliest pending timer fires (zero if none).
func (c *Clock) NextTimer() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.next()
}

func (c *Clock) next() time.Time {
	var at time.Time
	for _, w := range c.waiters {
		if at.IsZero() || w.at.Before(at) {
			at = w.at
		}
	}
	return at
}

// WaitForWaiters blocks until at least n timers are pending (a loop has gone to sleep);
// false means it waited a minute of real time in vain.
func (c *Clock) WaitForWaiters(n int) bool {
	return c.wait(func() bool { return len(c.waiters) >= n })
}

// WaitForTimerAt blocks until the earliest pending timer fires at t (a loop has seen a
// change and gone to sleep until then); false means it waited a minute in vain.
func (c *Clock) WaitForTimerAt(t time.Time) bool {
	return c.wait(func() bool { return c.next().Equal(t) })
}

// wait checks ok (under the lock) now and after every timer asked for.
func (c *Clock) wait(ok func() bool) bool {
	give := time.After(hang)
	for {
		c.mu.Lock()
		done, asked := ok(), c.asked
		c.mu.Unlock()
		if done {
			return true
		}
		select {
		case <-asked:
		case <-give:
			return false
		}
	}
}
