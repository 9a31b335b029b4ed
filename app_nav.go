//go:build !headless

package main

import (
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"hearth/backend/event"
)

// navigate asks the window to open a chat or start one (a clicked notification, the
// tray's menu): announced at once to a page that listens, and kept for a page that has
// not loaded yet, which takes it when it does (TakeNavigation).
func (a *App) navigate(n event.Nav) {
	a.nav.Set(n)
	if a.ctx == nil {
		return
	}
	switch n.Kind {
	case event.NavOpenChat:
		runtime.EventsEmit(a.ctx, eventOpenSession, n.SessionID)
	case event.NavNewChat:
		runtime.EventsEmit(a.ctx, eventNewSession)
	}
}

// TakeNavigation returns the move a notification or the tray asked of the window and not
// yet made (kind "" when none), and forgets it. The page asks when it loads: a click right
// after start reaches the window before its page listens, and the event alone would be
// lost (the window opening on another chat). It asks again after each such event, so
// the move is made once.
func (a *App) TakeNavigation() event.Nav {
	n, _ := a.nav.Take()
	return n
}
