//go:build !headless

package main

import (
	"context"
	"log/slog"
	"sync/atomic"

	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"hearth/backend/app"
	"hearth/backend/cleanpages"
	"hearth/backend/event"
	"hearth/backend/settings"
	"hearth/backend/winstate"
)

// The facade the window calls is one bound struct per area of the window (ChatAPI,
// MemoryAPI, …, each at most 25 methods, main.go binds them all) and App for the window
// itself (the event relay, navigation, Quick ask, dialogs). Methods are thin: they forward
// to the backend services; backend/internal/arch checks both.

// core is what every part of the facade shares: the services and the window.
type core struct {
	ctx     context.Context
	h       *app.App // Hearth's services
	winPath string
	win     winstate.State
	winErr  error
	relay   *event.Relay     // runs on "run:<id>", pulls on "pull:<id>", held until the window attaches
	quick   compact          // the window's Quick ask mode (app_quickask.go)
	nav     event.PendingNav // a chat to open or start, for a page not loaded yet (app_nav.go)
	shown   atomic.Bool      // the window is on screen (not hidden to the tray)
}

// App is the window's own part of the facade; it holds the shared core.
type App struct{ *core }

// The window's areas. Each holds the shared core, so its methods read a.h, a.ctx and
// a.relay like the window's own.
type (
	ChatAPI      struct{ *core } // runs: app_ui.go
	SessionsAPI  struct{ *core } // the chats: app_ui.go
	ModelsAPI    struct{ *core } // Ollama's models and the first run: app_ui.go
	SettingsAPI  struct{ *core } // the Settings view and API keys: app_ui.go, app_keys.go
	SafetyAPI    struct{ *core } // approval, the audit and egress logs: app_approval.go, app_safety.go
	MemoryAPI    struct{ *core } // the memory sidebar and Dream: app_memory.go, app_dream.go
	RemindersAPI struct{ *core } // reminders and the background settings: app_reminders.go
	ReachAPI     struct{ *core } // MCP servers and skills: app_reach.go
	ChannelsAPI  struct{ *core } // Settings › Channels (Telegram): app_channels.go
	KnowledgeAPI struct{ *core } // Settings › Knowledge: app_knowledge.go
)

// bound is everything the window may call, for Wails' Bind.
func (a *App) bound() []any {
	c := a.core
	return []any{a, &ChatAPI{c}, &SessionsAPI{c}, &ModelsAPI{c}, &SettingsAPI{c}, &SafetyAPI{c},
		&MemoryAPI{c}, &RemindersAPI{c}, &ReachAPI{c}, &ChannelsAPI{c}, &KnowledgeAPI{c}}
}

// NewApp wraps the services for binding. winErr is a window-state load problem to log
// once the window is up (it never stops the window from opening).
func NewApp(h *app.App, winPath string, win winstate.State, winErr error) *App {
	a := &App{&core{h: h, winPath: winPath, win: win, winErr: winErr}}
	a.relay = event.NewRelay(a.emit)
	return a
}

// rested runs each time the app has rested after work: the C heap's free pages go back,
// and so do the mapped pages of code and data the last burst ran (GTK, WebKit, the GL
// driver's LLVM, which this process loads only to look up a display).
func rested() {
	trimCHeap()
	cleanpages.DropAll()
}

func (a *App) startup(ctx context.Context) {
	a.ctx = ctx
	a.shown.Store(!startHidden())
	// MCP servers connect from now on, not with the first message (without
	// waiting for any), and the memory files are watched; the reminders start
	// with the tray (background.go), which holds the lock. The desktop checks a
	// model's fitness by itself after its first reply.
	a.h.Models.AutoCheck()
	if err := a.h.Start(ctx, app.StartOptions{Rested: rested, DropStartPages: true, WatchMemory: true}); err != nil {
		slog.Warn("background work not fully started", "err", err)
	}
	if a.winErr != nil {
		slog.Warn("window state ignored", "err", a.winErr)
	}
	if a.win.HasPos && !a.win.Maximised {
		runtime.WindowSetPosition(ctx, a.win.X, a.win.Y)
	}
}

// beforeClose records the window geometry; it never prevents closing. Wails also runs it
// on SIGTERM/SIGINT (logout, `kill`), so the geometry survives those too.
func (a *App) beforeClose(ctx context.Context) bool {
	a.saveWindow(ctx)
	return false
}

func (a *App) saveWindow(ctx context.Context) {
	seen := winstate.Seen{Shown: a.shown.Load()}
	if seen.Shown { // a hidden window reports 0,0: keep where it was (winstate.Next)
		seen.Maximised = runtime.WindowIsMaximised(ctx)
		seen.Width, seen.Height = runtime.WindowGetSize(ctx)
		seen.X, seen.Y = runtime.WindowGetPosition(ctx)
	}
	a.win = a.win.Next(seen)
	if err := winstate.Save(a.winPath, a.win); err != nil {
		slog.Warn("window state not saved", "err", err)
	}
}

// secondInstance runs when another `hearth` launch hands over to this one.
func (a *App) secondInstance(options.SecondInstanceData) {
	if a.ctx == nil {
		return
	}
	a.showWindow()
}

// showWindow brings the window on screen.
func (a *App) showWindow() {
	a.shown.Store(true)
	runtime.WindowUnminimise(a.ctx)
	runtime.WindowShow(a.ctx)
}

// hideWindow hides it to the tray.
func (a *App) hideWindow() {
	a.shown.Store(false)
	runtime.WindowHide(a.ctx)
}

// Status reports what the footer shows: workspace, model, config problems, Ollama.
func (a *SettingsAPI) Status() settings.Status {
	return a.h.Status(a.ctx)
}
