//go:build !headless

package main

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"hearth/backend/activity"
	"hearth/backend/app"
	"hearth/backend/applock"
	"hearth/backend/autostart"
	"hearth/backend/event"
	"hearth/backend/fitness"
	"hearth/backend/i18n"
	"hearth/backend/notify"
	"hearth/backend/schedule"
	"hearth/backend/tray"
)

// Events the window receives from background work (the Reminders view and
// the chat listen): the BackgroundEvent itself, a chat to open (a click on a
// notification), and the tray's New chat.
const (
	eventBackground  = "background"
	eventOpenSession = "session:open"
	eventNewSession  = "session:new"
	eventMCPChanged  = "mcp:changed" // an MCP server's state changed: the MCP view reloads
)

// desktopBackground wires the services' background work, the tray and
// notifications to the window, and ends them all when Hearth quits. Wiring only:
// the logic lives in backend/.
type desktopBackground struct {
	app  *App
	h    *app.App
	lock *applock.Lock

	ctx      context.Context
	tray     *tray.Tray
	trayEnd  func()
	trayOK   atomic.Bool
	ready    chan struct{} // closed when start has finished
	notifier *notify.DBus
	quitting atomic.Bool
	refresh  chan struct{}
	stopOnce sync.Once
	done     chan struct{}
}

func newDesktopBackground(facade *App, h *app.App, lock *applock.Lock) *desktopBackground {
	return &desktopBackground{app: facade, h: h, lock: lock, refresh: make(chan struct{}, 1),
		done: make(chan struct{}), ready: make(chan struct{})}
}

// quitTimeout bounds the orderly end at quit: running turns interrupted and saved,
// helpers cancelled, MCP servers ended, consolidations finished or deferred. The
// session manager kills a logout that takes much longer.
const quitTimeout = 10 * time.Second

// startHidden is set by the autostart entry: start in the tray.
func startHidden() bool { return slices.Contains(os.Args[1:], autostart.HiddenFlag) }

// startup is Wails' OnStartup: the window's own startup, then the tray,
// notifications and the services' background work.
func (b *desktopBackground) startup(ctx context.Context) {
	b.app.startup(ctx)
	b.ctx = ctx
	// The window must not wait for D-Bus and the jobs file: start them beside it.
	go func() {
		defer close(b.ready)
		b.start(ctx)
	}()
}

func (b *desktopBackground) start(ctx context.Context) {
	n, err := notify.NewDBus(notify.Options{Icon: "hearth", OnClick: b.openSession,
		OnAction: func(ref, key string) {
			if err := b.h.Reminders.AnswerMissed(ref, key == notify.ActionRun); err != nil {
				slog.Info("missed reminder answer from its notification", "err", err)
			}
		}})
	if err != nil {
		slog.Warn("desktop notifications unavailable", "err", err)
	}
	b.notifier = n
	b.tray = tray.New(icon, b.locale(), tray.Actions{
		Open:     b.show,
		NewChat:  func() { b.show(); b.app.navigate(event.Nav{Kind: event.NavNewChat}) },
		QuickAsk: b.app.openQuickAsk,
		OpenChat: b.openSession,
		Stop: func(w activity.Work) {
			slog.Info("tray: stop", "kind", w.Kind, "id", w.ID, "stopped", b.h.StopWork(w))
		},
		SetPaused: b.h.Reminders.SetPaused,
		Opened:    b.refreshTray,
		Quit:      b.quit,
	})
	b.trayEnd = b.tray.Start()
	b.trayOK.Store(tray.Available())
	if !b.trayOK.Load() {
		slog.Warn("no system tray on this desktop: closing the window quits Hearth, reminders stop with it")
	}
	if startHidden() && !b.trayOK.Load() {
		b.app.showWindow() // there is no tray to come back from
	}
	// Subscribed before the services start: news they publish at once (a missed
	// reminder that asks, at start) would otherwise be lost when the forwarding
	// goroutine is scheduled late.
	go b.forward(b.subscribe(ctx))
	// The Ollama Hearth manages starts with Hearth, as Ollama's own app does at login;
	// a chat's first request waits for it (models.EnsureOllama serialises the starts).
	go func() {
		if err := b.h.Models.EnsureOllama(ctx); err != nil {
			slog.Warn("Ollama not started at launch", "err", err)
		}
	}()
	if err := b.h.Start(ctx, app.StartOptions{Lock: b.lock, WatchMemory: true}); err != nil {
		slog.Warn("background work not fully started", "err", err)
	}
	if err := b.h.Settings.ApplyLaunchAtLogin(); err != nil {
		slog.Warn("launch at login", "err", err)
	}
	go b.trayLoop()
	b.refreshTray()
	// SIGTERM/SIGINT (logout, kill) must quit, not hide to the tray: Wails
	// quits on them through OnBeforeClose like the close button, so mark
	// the close as a real one (beforeClose waits a moment for this mark).
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		select {
		case <-sigs:
			b.quitting.Store(true)
		case <-b.done:
		}
	}()
}

// newsFeeds are the services' news the window and the notifications follow.
type newsFeeds struct {
	memory <-chan event.MemoryChanged
	news   <-chan event.Background
	checks <-chan fitness.Result
	mcp    <-chan event.MCPChanged
	end    context.CancelFunc
}

func (b *desktopBackground) subscribe(ctx context.Context) newsFeeds {
	ctx, cancel := context.WithCancel(ctx)
	return newsFeeds{b.h.MemoryNews.Subscribe(ctx), b.h.BackgroundNews.Subscribe(ctx), b.h.CheckNews.Subscribe(ctx),
		b.h.Reach.News().Subscribe(ctx), cancel}
}

// forward hands the services' news to the window (and background news to the
// notifications) until Hearth quits.
func (b *desktopBackground) forward(f newsFeeds) {
	defer f.end()
	memory, news, checks, mcp := f.memory, f.news, f.checks, f.mcp
	for {
		select {
		case <-b.done:
			return
		case c, ok := <-memory:
			if !ok {
				return
			}
			runtime.EventsEmit(b.ctx, memoryChangedEvent, c.File)
		case r, ok := <-checks:
			if !ok {
				return
			}
			runtime.EventsEmit(b.ctx, modelCheckedEvent, r)
		case c, ok := <-mcp:
			if !ok {
				return
			}
			runtime.EventsEmit(b.ctx, eventMCPChanged, c)
		case ev, ok := <-news:
			if !ok {
				return
			}
			b.onEvent(ev)
		}
	}
}

// onEvent shows background news: the window refreshes, the tray follows the jobs, what
// runs and the settings, and anything with text becomes a notification.
func (b *desktopBackground) onEvent(ev event.Background) {
	runtime.EventsEmit(b.ctx, eventBackground, ev)
	switch ev.Kind {
	case event.BackgroundJobs, event.BackgroundActivity, event.BackgroundSettings:
		b.refreshTray()
		return
	}
	if b.notifier != nil {
		// Whatever the source (a reminder, the heartbeat's or a helper's Markdown), a
		// notification is a short plain title and body; the chat holds the rest.
		n := notify.FromBackground(ev, b.locale())
		if err := b.notifier.Notify(n); err != nil {
			slog.Debug("notification not shown", "err", err)
		}
	}
}

// refreshTray asks trayLoop to read the tray's state again.
func (b *desktopBackground) refreshTray() {
	select {
	case b.refresh <- struct{}{}:
	default: // one is pending: it reads the newest state
	}
}

// trayLoop keeps the tray current: on news from the services (refreshTray), when its
// menu opens (renamed or deleted chats), and at midnight, when "today" in the Next line
// becomes a weekday. Nothing polls.
func (b *desktopBackground) trayLoop() {
	midnight := time.NewTimer(untilMidnight(time.Now()))
	defer midnight.Stop()
	for {
		select {
		case <-b.done:
			return
		case <-b.refresh:
		case <-midnight.C:
			midnight.Reset(untilMidnight(time.Now()))
		}
		b.tray.Set(b.locale(), b.trayState())
	}
}

func untilMidnight(now time.Time) time.Duration {
	y, m, d := now.Date()
	return time.Date(y, m, d+1, 0, 0, 1, 0, now.Location()).Sub(now)
}

// trayState gathers what the tray shows from the services.
func (b *desktopBackground) trayState() tray.State {
	st := tray.State{Paused: b.h.Reminders.Paused(), Running: b.h.Activity.List(),
		Model: b.h.Settings.Config().Agents.Defaults.Model}
	if j, ok := b.h.Reminders.Next(); ok {
		st.Next = tray.Next{Title: j.Title(), At: j.NextRun, OK: true}
	}
	chats, err := b.h.Sessions.List()
	if err != nil {
		slog.Debug("tray: recent chats", "err", err)
	}
	for _, c := range chats {
		if len(st.Recent) == tray.MaxRecent {
			break
		}
		if !c.Archived && c.ID != schedule.HeartbeatSession {
			st.Recent = append(st.Recent, tray.Chat{ID: c.ID, Title: c.Title})
		}
	}
	return st
}

// locale is the UI language the tray and notifications speak (ui.language; "auto"
// follows the system's locale variables).
func (b *desktopBackground) locale() i18n.Locale {
	return i18n.Resolve(b.h.Settings.Config().UI.Language, os.Getenv)
}

func (b *desktopBackground) show() {
	b.app.QuickAskDone(true) // the full window, not the Quick ask box
	b.app.showWindow()
}

// openSession is a click on a notification or a recent chat in the tray: show the window
// on that chat. The chat is asked for before the log line and the window, so that whoever
// sees either (a page loading, a test) finds it kept.
func (b *desktopBackground) openSession(sessionID string) {
	if sessionID != "" {
		b.app.navigate(event.Nav{Kind: event.NavOpenChat, SessionID: sessionID})
	}
	slog.Info("notification clicked: opening its chat", "session", sessionID)
	b.show()
}

func (b *desktopBackground) quit() {
	b.quitting.Store(true)
	runtime.Quit(b.ctx)
}

// beforeClose is Wails' OnBeforeClose: with ui.closeToTray and a tray to
// come back from, the window hides and Hearth keeps running; Quit from the
// tray or a signal closes for real.
func (b *desktopBackground) beforeClose(ctx context.Context) bool {
	if !b.quitting.Load() && b.app.quickAskOn() {
		b.app.QuickAskDone(false) // closing the Quick ask box puts the window back as it was
		return true
	}
	if !b.quitting.Load() && b.trayOK.Load() && b.h.Settings.Config().UI.CloseToTray {
		// Wails calls this on its own goroutine; a signal reaches both Wails
		// and our handler at once, so give the handler a moment to mark it.
		time.Sleep(100 * time.Millisecond)
	}
	if !b.quitting.Load() && b.trayOK.Load() && b.h.Settings.Config().UI.CloseToTray {
		first := b.notifier != nil && b.app.win.FirstHide() // saved with the geometry: said once
		b.app.saveWindow(ctx)
		b.app.hideWindow()
		slog.Info("window hidden to the tray")
		if first {
			b.trayNotice()
		}
		return true
	}
	b.app.leaveQuickAsk() // quitting from the Quick ask box: keep the full window's geometry
	return b.app.beforeClose(ctx)
}

// trayNotice tells, at the window's first close, that Hearth still runs in the tray:
// the window is gone, so a notification says where it went.
func (b *desktopBackground) trayNotice() {
	n := notify.FromBackground(event.Background{Kind: event.BackgroundNotice, TitleCode: "notify.tray.title",
		Code: "notify.tray.stillRunning"}, b.locale())
	if err := b.notifier.Notify(n); err != nil {
		slog.Debug("tray notice not shown", "err", err)
	}
}

// shutdown is Wails' OnShutdown (tray Quit, closing the window when it does not
// hide to the tray, SIGTERM, logout): the same orderly end as the command line's —
// running turns interrupted and kept to continue, helpers cancelled, reminders
// stopped (their runs catch up next time), MCP servers ended, consolidations
// finished or deferred, the file watcher stopped — then the tray and notifications.
func (b *desktopBackground) shutdown(context.Context) {
	b.stopOnce.Do(func() {
		select {
		case <-b.ready:
		case <-time.After(5 * time.Second):
			slog.Warn("background start still running at shutdown")
		}
		close(b.done)
		ctx, cancel := context.WithTimeout(context.Background(), quitTimeout)
		defer cancel()
		if err := b.h.Close(ctx); err != nil {
			slog.Warn("quit: not everything ended in time", "err", err)
		}
		slog.Info("quit: services closed")
		if b.trayEnd != nil {
			b.trayEnd()
		}
		if b.notifier != nil {
			b.notifier.Close()
		}
	})
}
