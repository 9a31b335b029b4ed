package telegram

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"hearth/backend/channels"
	"hearth/backend/internal/fakebot"
)

// waitLong bounds how long a test waits for something that should happen: a
// failure guard only, never a speed claim.
const waitLong = 30 * time.Second

var alice = fakebot.User{ID: 4242, FirstName: "Alice", Username: "alice"}

// sleeps records the waits the adapter asked for; each returns at once, and
// then runs the hook (a test ends an outage from there).
type sleeps struct {
	mu    sync.Mutex
	all   []time.Duration
	total time.Duration
	hook  func(total time.Duration)
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.all = append(s.all, d)
	s.total += d
	total, hook := s.total, s.hook
	s.mu.Unlock()
	if hook != nil {
		hook(total)
	}
	return ctx.Err()
}

func (s *sleeps) list() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.all...)
}

func newAdapter(t *testing.T, fake *fakebot.Server, dir string, sl *sleeps, tweak ...func(*Options)) *Adapter {
	t.Helper()
	if sl == nil {
		sl = &sleeps{}
	}
	o := Options{Token: fakebot.Token, BaseURL: fake.URL, StateDir: dir, Sleep: sl.sleep, Jitter: func() float64 { return 0.5 }}
	for _, f := range tweak {
		f(&o)
	}
	a, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// run starts Receive; what it hands arrives on the returned channel, and its
// end on the error channel. The test's cleanup stops it.
func run(t *testing.T, a *Adapter) (<-chan channels.Inbound, <-chan error, context.CancelFunc) {
	t.Helper()
	return runWith(t, a, nil)
}

func runWith(t *testing.T, a *Adapter, handle func(channels.Inbound)) (<-chan channels.Inbound, <-chan error, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan channels.Inbound, 100)
	errc := make(chan error, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		errc <- a.Receive(ctx, func(_ context.Context, in channels.Inbound) {
			if handle != nil {
				handle(in)
			}
			got <- in
		})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(waitLong):
		}
	})
	return got, errc, cancel
}

func next(t *testing.T, got <-chan channels.Inbound) channels.Inbound {
	t.Helper()
	select {
	case in := <-got:
		return in
	case <-time.After(waitLong):
		t.Fatal("no update arrived")
	}
	return channels.Inbound{}
}

func ended(t *testing.T, errc <-chan error) error {
	t.Helper()
	select {
	case err := <-errc:
		return err
	case <-time.After(waitLong):
		t.Fatal("Receive did not end")
	}
	return nil
}

// none checks that nothing more was handed once a later marker arrived: the
// marker is queued last, so everything before it has been handed by then.
func none(t *testing.T, fake *fakebot.Server, got <-chan channels.Inbound) {
	t.Helper()
	id := fake.Send(fakebot.Msg{From: alice, Text: "marker"})
	in := next(t, got)
	if in.UpdateID != id {
		t.Fatalf("update %d (%q) arrived before the marker %d", in.UpdateID, in.Text, id)
	}
}

func isCtx(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
