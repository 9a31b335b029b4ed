package event

import (
	"strings"
	"time"
)

// relayFrame is how often, at most, the window gets a run's deltas while they arrive
// faster than that: about one display frame. Every event costs the page a task of its
// own, so a token per event kept its main thread busy for the whole answer; the window
// cannot show more than one update a frame anyway. See
// docs/design/events.md#the-windows-deltas.
const relayFrame = 16 * time.Millisecond

// deltaRun is consecutive deltas of one type merged into one event: the envelope of
// the last (its seq), their texts joined, and the seq of the first as FirstSeq.
type deltaRun struct {
	ev    Event
	first int64
	text  strings.Builder
}

// mergeable returns data as a delta that may be merged with its neighbours: a run's
// text or reasoning, not a slash command's worded reply nor an already merged delta.
func mergeable(data any) (Event, bool) {
	ev, ok := data.(Event)
	if !ok || (ev.Type != TextDelta && ev.Type != ReasoningDelta) {
		return ev, false
	}
	d, ok := ev.Data.(DeltaData)
	return ev, ok && d.Lines == nil && d.FirstSeq == 0
}

func newDeltaRun(ev Event) *deltaRun {
	m := &deltaRun{ev: ev, first: ev.Seq}
	m.text.WriteString(ev.Data.(DeltaData).Text)
	return m
}

// add merges ev if it continues the run: same run and type, the next seq. A delta
// that does not (a seq skipped) stays an event of its own, so the seqs the window
// sees still account for every event.
func (m *deltaRun) add(ev Event) bool {
	if ev.Type != m.ev.Type || ev.RunID != m.ev.RunID || ev.SessionID != m.ev.SessionID || ev.Seq != m.ev.Seq+1 {
		return false
	}
	m.text.WriteString(ev.Data.(DeltaData).Text)
	m.ev.Seq = ev.Seq
	return true
}

// event is the merged delta; one delta alone comes out as it went in.
func (m *deltaRun) event() Event {
	ev := m.ev
	d := DeltaData{Text: m.text.String()}
	if m.first != ev.Seq {
		d.FirstSeq = m.first
	}
	ev.Data = d
	return ev
}

// deliver emits data on an attached channel. A delta goes out at once when none went
// out in the last frame; otherwise it waits, merged with those that follow, for the
// frame's timer. Anything else first sends what waits, so no event is delayed behind
// deltas or overtakes them. Called with mu held.
func (r *Relay) deliver(channel string, c *relayChan, data any, last bool) {
	ev, delta := mergeable(data)
	if !delta || last {
		r.flush(channel, c)
		r.emit(channel, data)
		return
	}
	now := r.now()
	switch {
	case c.pend == nil && now.Sub(c.sent) >= relayFrame:
		r.emit(channel, data)
		c.sent = now
	case c.pend == nil:
		c.pend = newDeltaRun(ev)
		r.arm(channel, c, c.sent.Add(relayFrame).Sub(now))
	case !c.pend.add(ev):
		// Text after reasoning (or a gap): the frame's timer stays armed for the new run.
		r.emit(channel, c.pend.event())
		c.pend = newDeltaRun(ev)
	}
}

// flush sends the channel's waiting deltas and stops its timer. Called with mu held.
func (r *Relay) flush(channel string, c *relayChan) {
	if c.timer != nil {
		c.timer.Stop()
	}
	if c.pend == nil {
		return
	}
	r.emit(channel, c.pend.event())
	c.pend, c.sent = nil, r.now()
}

// arm starts the channel's one timer (made on its first use, reused after). Called
// with mu held.
func (r *Relay) arm(channel string, c *relayChan, d time.Duration) {
	if c.timer == nil {
		c.timer = time.AfterFunc(d, func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			// A timer that fired while a flush held the lock finds nothing, or the next
			// frame's deltas a little early: either way in order.
			r.flush(channel, c)
		})
		return
	}
	c.timer.Reset(d)
}

// hold adds data to an unattached channel's buffer, merging a delta into the one
// before it: a run's first tokens arrive together on Attach as one event, not many.
// Called with mu held.
func (c *relayChan) hold(data any) {
	if ev, ok := mergeable(data); ok {
		if n := len(c.buf); n > 0 {
			if m, ok := c.buf[n-1].(*deltaRun); ok && m.add(ev) {
				return
			}
		}
		data = newDeltaRun(ev)
	}
	if len(c.buf) >= relayMaxBuffered {
		c.buf = c.buf[1:]
	}
	c.buf = append(c.buf, data)
}

// held is a buffered value as it is emitted.
func held(data any) any {
	if m, ok := data.(*deltaRun); ok {
		return m.event()
	}
	return data
}
