package app

import (
	"context"
	"testing"

	"hearth/backend/chat"
	"hearth/backend/event"
	"hearth/backend/models"
	"hearth/backend/sessions"
)

// open builds an App over the test's XDG dirs and closes it when the test ends.
func open(t testing.TB, opts Options) *App {
	t.Helper()
	setXDG(t) // the test's own folders, if it has not set them up already
	a, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	return a
}

// started is open followed by Start without the lock (as the CLI's agent does).
func started(t testing.TB, opts Options) *App {
	t.Helper()
	a := open(t, opts)
	if err := a.Start(context.Background(), StartOptions{}); err != nil {
		t.Fatal(err)
	}
	return a
}

// onBackground calls fn with every background news until the test ends, but the tray's
// own (what runs, a setting saved: no text, no notification; activity_test.go reads them).
func onBackground(t *testing.T, a *App, fn func(event.Background)) {
	ch := a.BackgroundNews.Subscribe(t.Context())
	go func() {
		for ev := range ch {
			if ev.Kind != event.BackgroundActivity && ev.Kind != event.BackgroundSettings {
				fn(ev)
			}
		}
	}()
}

// onMemoryChange calls fn with every changed memory file until the test ends.
func onMemoryChange(t *testing.T, a *App, fn func(string)) {
	ch := a.MemoryNews.Subscribe(t.Context())
	go func() {
		for c := range ch {
			fn(c.File)
		}
	}()
}

// desk is the window's side as app.go wires it: streams go through a Relay on
// "run:<id>" and "pull:<id>", held until the window attaches.
type desk struct {
	a     *App
	relay *event.Relay
}

func newDesk(a *App, emit func(string, any)) *desk { return &desk{a: a, relay: event.NewRelay(emit)} }

func (d *desk) sink(ev event.Event) {
	d.relay.Publish(event.RunChannel(ev.RunID), ev, ev.Type == event.RunFinished)
}

func (d *desk) Send(in chat.Input) (string, error) { return d.a.Chat.Send(in, d.sink) }
func (d *desk) Continue(id string) (string, error) {
	run, err := d.a.Chat.Continue(context.Background(), id, d.sink)
	if err != nil {
		return "", err
	}
	return run.ID, nil
}
func (d *desk) Attach(ch string)                            { d.relay.Attach(ch) }
func (d *desk) History(id string) (sessions.History, error) { return d.a.Sessions.History(id) }
func (d *desk) Pull(name string) (string, error) {
	return d.a.Models.StartPull(name, func(ev models.PullEvent) { d.relay.Publish(event.PullChannel(ev.PullID), ev, ev.Done) })
}
func (d *desk) CancelPull(id string) bool { return d.a.Models.CancelPull(id) }
