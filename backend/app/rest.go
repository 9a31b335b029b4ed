package app

import (
	"cmp"
	"runtime/debug"
	"slices"
	"sync"
	"time"
)

// restAfter is how long the app goes without work before it gives back what the last
// burst took. Long enough that a chat's rounds, a start-up's checks and the window
// opening a chat are one burst; short enough to come before anyone looks.
const restAfter = 5 * time.Second

// rest gives back, once the app has rested for restAfter, what a burst of work left
// behind: Go's heap keeps freed memory up to its goal (twice what was live at the
// last collection, so after opening a 2 000-message chat several MB more than a
// resting app holds) until some later allocation runs a collection, and every HTTP
// transport keeps its idle connections for net/http's 90 s, whose closing then wakes
// the app in the middle of its rest. See docs/performance.md ("The window holds and
// does little at rest"). The timer runs only after work: a resting app is not woken.
type rest struct {
	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
	release []func()      // before the collection, which they may free memory for
	rested  []func()      // after it: giving back mapped pages comes last, as the collection runs code
	after   time.Duration // restAfter; tests make it short
}

// touch records work now: the release comes restAfter after the last touch.
func (r *rest) touch() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.arm(cmp.Or(r.after, restAfter))
}

// now brings the rest forward to this moment: the window has gone idle (no input for the
// caret's blink timeout), so the work it asked for is over.
func (r *rest) now() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.arm(0)
}

// arm sets the release to come in d, unless the rest was stopped. r.mu is held.
func (r *rest) arm(d time.Duration) {
	switch {
	case r.stopped:
	case r.timer == nil:
		r.timer = time.AfterFunc(d, r.run)
	default:
		r.timer.Reset(d)
	}
}

// add adds a release to run at rest before the collection, which it may free for.
func (r *rest) add(f func()) {
	r.mu.Lock()
	r.release = append(r.release, f)
	r.mu.Unlock()
}

// addRested adds a release to run at rest after the collection.
func (r *rest) addRested(f func()) {
	r.mu.Lock()
	r.rested = append(r.rested, f)
	r.mu.Unlock()
}

func (r *rest) run() {
	r.mu.Lock()
	before, after := slices.Clone(r.release), slices.Clone(r.rested)
	r.mu.Unlock()
	for _, f := range before {
		f()
	}
	debug.FreeOSMemory() // a collection of a heap of a few MB: milliseconds, once a burst
	for _, f := range after {
		f()
	}
}

// stop ends the timer for good (Close).
func (r *rest) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	if r.timer != nil {
		r.timer.Stop()
	}
}
