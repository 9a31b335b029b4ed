package event

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// stream publishes a run's events on "run:r" with consecutive seqs.
type stream struct {
	t   *testing.T
	r   *Relay
	seq int64
}

func (s *stream) pub(typ Type, data any) Event {
	s.seq++
	ev := Event{RunID: "r", SessionID: "s", Seq: s.seq, Type: typ, Data: data}
	s.r.Publish("run:r", ev, typ == RunFinished)
	return ev
}

func (s *stream) text(t string) Event      { return s.pub(TextDelta, DeltaData{Text: t}) }
func (s *stream) reasoning(t string) Event { return s.pub(ReasoningDelta, DeltaData{Text: t}) }

// events are what the window got on "run:r", checked against the contract: every seq
// accounted for once, in order (a merged delta covers FirstSeq..Seq).
func events(t *testing.T, e *emitted) []Event {
	t.Helper()
	var out []Event
	next := int64(1)
	for _, d := range e.on("run:r") {
		ev := d.(Event)
		from := ev.Seq
		if dd, ok := ev.Data.(DeltaData); ok && dd.FirstSeq != 0 {
			from = dd.FirstSeq
			if from >= ev.Seq {
				t.Fatalf("merged delta covers %d..%d", from, ev.Seq)
			}
		}
		if from != next {
			t.Fatalf("event %s starts at seq %d, want %d (got %v)", ev.Type, from, next, e.on("run:r"))
		}
		next = ev.Seq + 1
		out = append(out, ev)
	}
	return out
}

func summary(evs []Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(ev.Type))
		if d, ok := ev.Data.(DeltaData); ok {
			b.WriteString("(" + d.Text + ")")
		}
	}
	return b.String()
}

func attached(t *testing.T) (*Relay, *emitted, *stream) {
	var e emitted
	r := NewRelay(e.emit)
	r.Attach("run:r")
	return r, &e, &stream{t: t, r: r}
}

func TestRelayDeltaAtRestGoesOutAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, e, s := attached(t)
		s.pub(RunStarted, StartedData{Model: "m"})
		s.text("Hel")
		if got := summary(events(t, e)); got != "run_started text_delta(Hel)" {
			t.Fatalf("first delta held back: %s", got)
		}
		// After a pause longer than a frame the next one goes at once too.
		time.Sleep(time.Second)
		s.text("lo")
		if got := summary(events(t, e)); got != "run_started text_delta(Hel) text_delta(lo)" {
			t.Fatalf("delta after a pause held back: %s", got)
		}
		s.pub(RunFinished, FinishedData{Status: StatusOK})
	})
}

func TestRelayMergesDeltasWithinAFrame(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, e, s := attached(t)
		s.text("a")
		s.text("b")
		s.text("c")
		s.text("d")
		if got := summary(events(t, e)); got != "text_delta(a)" {
			t.Fatalf("within the frame: %s", got)
		}
		time.Sleep(relayFrame)
		synctest.Wait()
		evs := events(t, e)
		if got := summary(evs); got != "text_delta(a) text_delta(bcd)" {
			t.Fatalf("after the frame: %s", got)
		}
		if d := evs[1].Data.(DeltaData); evs[1].Seq != 4 || d.FirstSeq != 2 || evs[1].RunID != "r" || evs[1].SessionID != "s" {
			t.Errorf("merged delta %+v, want seq 4 from 2 of run r", evs[1])
		}
		// Nothing waits now: no timer fires again and the next delta is at rest.
		time.Sleep(10 * relayFrame)
		synctest.Wait()
		if n := len(e.on("run:r")); n != 2 {
			t.Errorf("%d events after the stream paused, want 2", n)
		}
		s.text("e")
		if n := len(e.on("run:r")); n != 3 {
			t.Errorf("delta after the pause held back: %v", e.on("run:r"))
		}
	})
}

func TestRelayFlushesDeltasBeforeOtherEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, e, s := attached(t)
		s.pub(RunStarted, StartedData{})
		s.reasoning("think")
		s.reasoning("ing")
		s.reasoning(" more")
		s.text("So")
		s.text(":")
		s.pub(ToolCall, ToolCallData{CallID: "c1", Name: "read_file"})
		// The tool call went out at once, after the deltas before it.
		want := "run_started reasoning_delta(think) reasoning_delta(ing more) text_delta(So:) tool_call"
		if got := summary(events(t, e)); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
		s.pub(Approval, ApprovalData{CallID: "c1", State: "requested"})
		s.text("x")
		s.pub(Notice, NoticeData{Level: LevelInfo, Message: "n"})
		want += " approval text_delta(x) notice"
		if got := summary(events(t, e)); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
		// A slash command's worded reply is never merged.
		s.pub(TextDelta, DeltaData{Text: "reply", Lines: []Line{{Code: "c"}}})
		s.text("y")
		want += " text_delta(reply)"
		if got := summary(events(t, e)); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
		time.Sleep(relayFrame)
		synctest.Wait()
		if got := summary(events(t, e)); got != want+" text_delta(y)" {
			t.Fatalf("got %s", got)
		}
	})
}

func TestRelayFinalEventFlushesEverything(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, e, s := attached(t)
		s.text("a")
		s.text("b")
		s.text("c")
		s.pub(RunFinished, FinishedData{Status: StatusOK, Final: "abc"})
		if got := summary(events(t, e)); got != "text_delta(a) text_delta(bc) run_finished" {
			t.Fatalf("got %s", got)
		}
		if r.Pending() != 0 {
			t.Errorf("finished channel kept: %d", r.Pending())
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := len(e.on("run:r")); n != 3 {
			t.Errorf("events after run_finished: %v", e.on("run:r"))
		}
	})
}

// A token stream faster than the frame reaches the window about once a frame, whole.
func TestRelayFastStreamOnceAFrame(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, e, s := attached(t)
		s.pub(RunStarted, StartedData{})
		var want strings.Builder
		const tokens = 1000 // one a millisecond: a second of streaming
		for i := range tokens {
			tok := " w" + string(rune('a'+i%26))
			want.WriteString(tok)
			s.text(tok)
			time.Sleep(time.Millisecond)
		}
		time.Sleep(relayFrame)
		synctest.Wait()
		if c := r.chans["run:r"]; c.pend != nil || c.timer.Stop() {
			t.Errorf("deltas still waiting or the timer armed after the stream paused")
		}
		s.pub(RunFinished, FinishedData{Status: StatusOK})
		evs := events(t, e)
		var got strings.Builder
		deltas := 0
		for _, ev := range evs {
			if ev.Type == TextDelta {
				got.WriteString(ev.Data.(DeltaData).Text)
				deltas++
			}
		}
		if got.String() != want.String() {
			t.Errorf("text differs: %d bytes, want %d", got.Len(), want.Len())
		}
		// A second is 62.5 frames; the first delta goes out on its own.
		if frames := int(time.Second/relayFrame) + 2; deltas > frames || deltas < frames-4 {
			t.Errorf("%d delta events for %d tokens in a second, want about %d", deltas, tokens, frames)
		}
	})
}

func TestRelayMergesHeldDeltas(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var e emitted
		r := NewRelay(e.emit)
		s := &stream{t: t, r: r}
		s.pub(RunStarted, StartedData{})
		s.text("a")
		s.text("b")
		s.reasoning("c")
		s.text("d")
		s.text("e")
		if len(e.on("run:r")) != 0 {
			t.Fatal("delivered before Attach")
		}
		r.Attach("run:r")
		want := "run_started text_delta(ab) reasoning_delta(c) text_delta(de)"
		if got := summary(events(t, &e)); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
		// A lone held delta comes out as it went in.
		if d := events(t, &e)[2].Data.(DeltaData); d.FirstSeq != 0 {
			t.Errorf("lone delta marked merged: %+v", d)
		}
		s.pub(RunFinished, FinishedData{Status: StatusOK})
		if r.Pending() != 0 {
			t.Errorf("pending %d", r.Pending())
		}
	})
}

// Other channels (a model pull's progress) are relayed as they come.
func TestRelayPassesOtherStreamsThrough(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var e emitted
		r := NewRelay(e.emit)
		r.Attach("pull:p")
		for i := range 5 {
			r.Publish("pull:p", i, i == 4)
		}
		if got := e.on("pull:p"); len(got) != 5 {
			t.Fatalf("got %v", got)
		}
	})
}
