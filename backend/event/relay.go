package event

import (
	"sync"
	"time"
)

// Relay delivers a stream's events to the window on a channel of its own
// ("run:<id>", "pull:<id>"). The window learns the id from the call that
// starts the stream and subscribes only then, so a stream's first events would
// be lost; Relay holds them until Attach says the window listens. A run's text
// and reasoning deltas reach the window at most about once a frame, merged
// (relay_merge.go); every other event goes out at once, in order.
type Relay struct {
	emit func(channel string, data any)
	now  func() time.Time

	mu    sync.Mutex
	chans map[string]*relayChan
}

type relayChan struct {
	attached bool
	started  bool // an event was published
	done     bool
	buf      []any
	at       time.Time

	pend  *deltaRun   // deltas waiting for the frame's timer (attached only)
	sent  time.Time   // when a delta last went out
	timer *time.Timer // flushes pend; made on the first delta that has to wait
}

// relayMaxBuffered bounds what an unattended stream can hold (a window that
// never attached must not grow memory without end); older events are dropped.
const relayMaxBuffered = 100_000

// relayForget is how long a finished stream nobody attached to is kept.
const relayForget = time.Minute

// NewRelay returns a relay that hands events to emit (runtime.EventsEmit in
// the desktop app). emit is called with the relay's lock held, so a stream's
// events keep their order.
func NewRelay(emit func(channel string, data any)) *Relay {
	return &Relay{emit: emit, now: time.Now, chans: map[string]*relayChan{}}
}

// Publish sends data on channel, or holds it until Attach. last marks the
// stream's final event; the channel is forgotten once it was delivered.
func (r *Relay) Publish(channel string, data any, last bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.chans[channel]
	if !ok {
		r.sweep()
		c = &relayChan{at: r.now()}
		r.chans[channel] = c
	}
	c.started = true
	if c.attached {
		r.deliver(channel, c, data, last)
		if last {
			delete(r.chans, channel)
		}
		return
	}
	c.hold(data)
	if last {
		c.done, c.at = true, r.now()
	}
}

// Attach says the window listens on channel: held events are sent now, later
// ones as they come. Attaching before the first event is fine.
func (r *Relay) Attach(channel string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.chans[channel]
	if !ok {
		r.chans[channel] = &relayChan{attached: true, at: r.now()}
		return
	}
	for _, d := range c.buf {
		r.emit(channel, held(d))
	}
	c.buf, c.attached = nil, true
	if c.done {
		delete(r.chans, channel)
	}
}

// Pending is the number of channels the relay remembers (for tests).
func (r *Relay) Pending() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.chans)
}

// sweep forgets finished streams nobody attached to and attachments for
// streams that never started. Called with mu held.
func (r *Relay) sweep() {
	cut := r.now().Add(-relayForget)
	for k, c := range r.chans {
		if ((c.done && !c.attached) || (c.attached && !c.started)) && c.at.Before(cut) {
			delete(r.chans, k)
		}
	}
}

// RunChannel is the window's event name of a run's stream.
func RunChannel(runID string) string { return "run:" + runID }

// PullChannel is the window's event name of a model pull's progress.
func PullChannel(pullID string) string { return "pull:" + pullID }
