package schedule

import "time"

// Clock is the scheduler's time source. The real one is SystemClock; tests move time
// (backwards too: a changed system clock, a resume) with backend/internal/fakeclock, or
// run the real one in a testing/synctest bubble.
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
