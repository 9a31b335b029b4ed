//go:build !headless

package main

import (
	"sync"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"hearth/backend/winstate"
)

// Quick ask (the tray's "Quick ask…"): Wails v2 has one window per process and Hearth
// runs once, so the small window is the main window in a compact mode — a box of
// quickWidth×quickHeight, centred and kept on top, titled "Hearth — Quick ask", whose
// page shows only the Quick ask view (eventQuickAsk). QuickAskDone puts the window back
// where and how it was, hidden again when it was in the tray. The question goes out as
// a new chat, so the answer stays in the sidebar to open later
// (docs/reminders-and-tray.md#quick-ask).
const (
	eventQuickAsk      = "quickask:open"
	eventQuickAskClose = "quickask:close"
	quickWidth         = 520
	quickHeight        = 400
	quickTitle         = "Hearth — Quick ask"
)

// compact is the window as it was before Quick ask took it over.
type compact struct {
	mu      sync.Mutex
	on      bool
	before  winstate.State
	visible bool // it was on screen (not hidden to the tray)
}

// openQuickAsk turns the window into the Quick ask box. A second call while it is open
// only brings it forward.
func (a *App) openQuickAsk() {
	a.quick.mu.Lock()
	if !a.quick.on {
		visible := a.shown.Load()
		before := winstate.State{Maximised: runtime.WindowIsMaximised(a.ctx)}
		before.Width, before.Height = runtime.WindowGetSize(a.ctx)
		before.X, before.Y = runtime.WindowGetPosition(a.ctx)
		before.HasPos = true
		a.quick.on, a.quick.before, a.quick.visible = true, before, visible
		if before.Maximised {
			runtime.WindowUnmaximise(a.ctx)
		}
		runtime.WindowSetMinSize(a.ctx, quickWidth, quickHeight)
		resizeWindow(a.ctx, quickWidth, quickHeight) // after the new minimum, on the main loop
		runtime.WindowCenter(a.ctx)
		runtime.WindowSetAlwaysOnTop(a.ctx, true)
		runtime.WindowSetTitle(a.ctx, quickTitle)
	}
	a.quick.mu.Unlock()
	runtime.EventsEmit(a.ctx, eventQuickAsk)
	a.showWindow()
}

// QuickAskDone ends Quick ask: the window gets its size, place and title back and hides
// again if it was in the tray — unless stay is set (the person opens the answer's chat
// in the full window).
func (a *App) QuickAskDone(stay bool) {
	if !a.leaveQuickAsk() {
		return
	}
	a.quick.mu.Lock()
	visible := a.quick.visible
	a.quick.mu.Unlock()
	if stay || visible {
		a.showWindow()
	} else {
		a.hideWindow()
	}
}

// leaveQuickAsk restores the window's geometry (not its visibility) and tells the page;
// it reports whether Quick ask was on.
func (a *App) leaveQuickAsk() bool {
	a.quick.mu.Lock()
	defer a.quick.mu.Unlock()
	if !a.quick.on {
		return false
	}
	a.quick.on = false
	b := a.quick.before
	runtime.WindowSetAlwaysOnTop(a.ctx, false)
	runtime.WindowSetTitle(a.ctx, "Hearth")
	runtime.WindowSetMinSize(a.ctx, winstate.MinWidth, winstate.MinHeight)
	resizeWindow(a.ctx, b.Width, b.Height)
	runtime.WindowSetPosition(a.ctx, b.X, b.Y)
	if b.Maximised {
		runtime.WindowMaximise(a.ctx)
	}
	runtime.EventsEmit(a.ctx, eventQuickAskClose)
	return true
}

// QuickAskOpen reports whether the window is the Quick ask box now. The page asks when it
// loads: "Quick ask…" clicked in the tray right after start reaches the window before its
// page listens, and the event alone would be lost (the window a small box showing the
// whole chat view).
func (a *App) QuickAskOpen() bool { return a.quickAskOn() }

// quickAskOn reports whether the window is the Quick ask box now.
func (a *App) quickAskOn() bool {
	a.quick.mu.Lock()
	defer a.quick.mu.Unlock()
	return a.quick.on
}
