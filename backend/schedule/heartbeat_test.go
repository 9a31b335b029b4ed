package schedule

import (
	"context"
	"os"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"hearth/backend/event"
	"hearth/backend/workspace"
)

const template = `# Heartbeat

<!-- Hearth reads this file every 30 minutes. Tasks listed under
     "Active tasks" are run; if there are none, nothing happens.
     Example task line: - Check the weather and warn me about rain. -->

## Active tasks

## Done
- Water the plants
`

func TestActiveTasks(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"template", template, ""},
		{"empty", "", ""},
		{"empty checkbox", "## Active tasks\n- [ ]\n-\n", ""},
		{"ticked", "## Active tasks\n- [x] done already\n", ""},
		{"one task", "## Active tasks\n- Check the weather\n\n## Done\n- old\n", "- Check the weather"},
		{"no sections", "# Heartbeat\nRemind me to stretch\n", "Remind me to stretch"},
		{"nested heading stays in", "## Active tasks\n### Morning\n- coffee\n## Done\n", "- coffee"},
	} {
		if got := ActiveTasks(c.in); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// The shipped template must cost nothing.
func TestShippedTemplateHasNoActiveTasks(t *testing.T) {
	dir := t.TempDir()
	if _, err := workspace.Onboard(dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dir + "/HEARTBEAT.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := ActiveTasks(string(data)); got != "" {
		t.Errorf("template has active tasks %q", got)
	}
}

type hbFixture struct {
	file    string
	reply   string
	calls   int
	prompts []string
	news    <-chan event.Background
}

// notified are the replies told since the last call.
func (f *hbFixture) notified() []string {
	var out []string
	for len(f.news) > 0 {
		out = append(out, (<-f.news).Text)
	}
	return out
}

func (f *hbFixture) heartbeat(t *testing.T, clock Clock) *Heartbeat {
	news := event.NewBroker[event.Background](0)
	t.Cleanup(news.Close)
	f.news = news.Subscribe(t.Context())
	h, err := NewHeartbeat(HeartbeatOptions{
		Interval: 30 * time.Minute, Clock: clock,
		Read: func() (string, error) { return f.file, nil },
		Run: func(_ context.Context, p string) (string, error) {
			f.calls++
			f.prompts = append(f.prompts, p)
			return f.reply, nil
		},
		News: news,
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHeartbeatZeroCallsAndSilence(t *testing.T) {
	f := &hbFixture{file: template}
	h := f.heartbeat(t, SystemClock{})
	for range 5 {
		if ran, err := h.Tick(context.Background()); ran || err != nil {
			t.Fatalf("no tasks: ran=%v err=%v", ran, err)
		}
	}
	if f.calls != 0 || h.Calls() != 0 {
		t.Fatalf("no active tasks cost %d model runs, want 0", f.calls)
	}
	f.file = "## Active tasks\n- Tell me if it is Friday\n"
	f.reply = "Nothing to report. HEARTBEAT_OK"
	if ran, _ := h.Tick(context.Background()); !ran || f.calls != 1 || len(f.notified()) != 0 {
		t.Fatalf("HEARTBEAT_OK: ran=%v calls=%d, want one silent run", ran, f.calls)
	}
	if f.prompts[0] != HeartbeatPrompt {
		t.Errorf("prompt %q", f.prompts[0])
	}
	f.reply = "It is Friday!"
	h.Tick(context.Background())
	if told := f.notified(); len(told) != 1 || told[0] != "It is Friday!" {
		t.Errorf("other reply: notified %v", told)
	}
}

// sleeps is the system clock that notes how long each of the loop's sleeps is.
type sleeps struct {
	SystemClock
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) After(d time.Duration) <-chan time.Time {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return s.SystemClock.After(d)
}

// The loop runs in a synctest bubble: its clock is the bubble's, which moves when every
// goroutine in it waits.
func TestHeartbeatLoopInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &hbFixture{file: "- task", reply: HeartbeatOK}
		clock := &sleeps{}
		h := f.heartbeat(t, clock)
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		h.Start(ctx, &wg)
		time.Sleep(30*time.Minute - time.Second)
		synctest.Wait()
		if h.Calls() != 0 {
			t.Fatalf("ran %d times before the interval was up", h.Calls())
		}
		time.Sleep(time.Second)
		synctest.Wait()
		cancel()
		wg.Wait()
		if h.Calls() != 1 {
			t.Errorf("after 30 minutes: %d runs, want 1", h.Calls())
		}
		if len(clock.d) < 30 {
			t.Errorf("%d wake-ups in 30 minutes, want one a minute at least (a changed clock is noticed)", len(clock.d))
		}
		for _, d := range clock.d {
			if d > MaxSleep {
				t.Fatalf("slept %v, more than %v", d, MaxSleep)
			}
		}
	})
}

// Calls is how many model runs the heartbeat started.
func (h *Heartbeat) Calls() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls
}

// With Notify set, a finding goes there (the desktop, a paired phone or both,
// as the channels decide) and not to News.
func TestHeartbeatNotifyTakesTheFinding(t *testing.T) {
	f := &hbFixture{file: "## Active tasks\n- Tell me if it is Friday\n", reply: "It is Friday!"}
	h := f.heartbeat(t, SystemClock{})
	var got []event.Background
	h.opts.Notify = func(ev event.Background) { got = append(got, ev) }
	if ran, err := h.Tick(context.Background()); !ran || err != nil {
		t.Fatalf("ran=%v err=%v", ran, err)
	}
	if len(got) != 1 || got[0].Kind != event.BackgroundHeartbeat || got[0].Text != "It is Friday!" || len(f.notified()) != 0 {
		t.Fatalf("notify %+v news %v", got, f.notified())
	}
}
