// Package tray is Hearth's system-tray icon and menu (docs/design/background.md#tray): Open Hearth,
// New chat, Next: <reminder>, Pause/Resume reminders, Quit. It uses
// fyne.io/systray with the external loop (the desktop app already runs the
// GTK loop for Wails; two loops crash), talks StatusNotifierItem over D-Bus,
// and needs no Wails: main.go hands it plain funcs.
//
// On a desktop without a tray host the item is still exported and the app
// keeps running; Available tells the caller, which logs it once and keeps
// the window's close button closing (or it could not be reopened).
package tray

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strconv"
	"sync"
	"time"

	"fyne.io/systray"
	"github.com/godbus/dbus/v5"

	"hearth/backend/i18n"
)

// Actions are what the menu entries do. They run on the tray's goroutine.
type Actions struct {
	Open      func()
	NewChat   func()
	SetPaused func(paused bool)
	Quit      func()
}

// Tray is the tray icon. Only one can run per process (systray is global). Its
// labels are worded in the UI language (backend/i18n, codes tray.*).
type Tray struct {
	icon []byte
	act  Actions

	mu      sync.Mutex
	loc     i18n.Locale
	ready   bool
	next    string
	paused  bool
	mOpen   *systray.MenuItem
	mNew    *systray.MenuItem
	mNext   *systray.MenuItem
	mPause  *systray.MenuItem
	mQuit   *systray.MenuItem
	stop    chan struct{}
	stopped sync.Once
}

// New returns a tray with icon (PNG, any size: it is scaled to 64×64) worded in loc.
func New(icon []byte, loc i18n.Locale, act Actions) *Tray {
	return &Tray{icon: scaleIcon(icon, 64), act: act, loc: loc, next: i18n.T(loc, "tray.next.none"), stop: make(chan struct{})}
}

// Start exports the tray item on the session bus and returns the function
// that removes it (call Start in Wails' OnStartup, end in OnShutdown).
func (t *Tray) Start() (end func()) {
	start, stop := systray.RunWithExternalLoop(t.onReady, func() {})
	start()
	return func() {
		t.stopped.Do(func() { close(t.stop) })
		stop()
	}
}

func (t *Tray) onReady() {
	systray.SetIcon(t.icon)
	systray.SetTitle("Hearth")
	t.mu.Lock()
	l := t.loc
	open := systray.AddMenuItem(i18n.T(l, "tray.open"), i18n.T(l, "tray.open.tip"))
	newChat := systray.AddMenuItem(i18n.T(l, "tray.newChat"), i18n.T(l, "tray.newChat.tip"))
	systray.AddSeparator()
	t.mOpen, t.mNew = open, newChat
	t.mNext = systray.AddMenuItem(t.next, i18n.T(l, "tray.next.tip"))
	t.mNext.Disable()
	t.mPause = systray.AddMenuItem(pauseLabel(l, t.paused), i18n.T(l, "tray.pause.tip"))
	systray.SetTooltip(tooltip(l, t.next))
	systray.AddSeparator()
	quit := systray.AddMenuItem(i18n.T(l, "tray.quit"), i18n.T(l, "tray.quit.tip"))
	t.mQuit = quit
	t.ready = true
	t.mu.Unlock()
	systray.SetOnTapped(func() { call(t.act.Open) })
	go func() {
		for {
			select {
			case <-t.stop:
				return
			case <-open.ClickedCh:
				call(t.act.Open)
			case <-newChat.ClickedCh:
				call(t.act.NewChat)
			case <-t.mPause.ClickedCh:
				t.mu.Lock()
				paused := !t.paused
				t.mu.Unlock()
				t.SetPaused(paused)
				if t.act.SetPaused != nil {
					t.act.SetPaused(paused)
				}
			case <-quit.ClickedCh:
				call(t.act.Quit)
			}
		}
	}()
}

func call(f func()) {
	if f != nil {
		f()
	}
}

func tooltip(l i18n.Locale, next string) string { return i18n.T(l, "tray.tooltip", "next", next) }

func pauseLabel(l i18n.Locale, paused bool) string {
	if paused {
		return i18n.T(l, "tray.resume")
	}
	return i18n.T(l, "tray.pause")
}

// SetLocale rewords the fixed entries in l; the caller sets the "Next:" entry again
// (SetNext with a NextLabel in l).
func (t *Tray) SetLocale(l i18n.Locale) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.loc == l {
		return
	}
	t.loc = l
	if !t.ready {
		return
	}
	t.mOpen.SetTitle(i18n.T(l, "tray.open"))
	t.mOpen.SetTooltip(i18n.T(l, "tray.open.tip"))
	t.mNew.SetTitle(i18n.T(l, "tray.newChat"))
	t.mNew.SetTooltip(i18n.T(l, "tray.newChat.tip"))
	t.mNext.SetTooltip(i18n.T(l, "tray.next.tip"))
	t.mPause.SetTitle(pauseLabel(l, t.paused))
	t.mPause.SetTooltip(i18n.T(l, "tray.pause.tip"))
	t.mQuit.SetTitle(i18n.T(l, "tray.quit"))
	t.mQuit.SetTooltip(i18n.T(l, "tray.quit.tip"))
}

// SetNext sets the "Next:" entry and the tooltip (use NextLabel).
func (t *Tray) SetNext(label string) {
	t.mu.Lock()
	t.next = label
	ready, item, l := t.ready, t.mNext, t.loc
	t.mu.Unlock()
	if ready {
		item.SetTitle(label)
		systray.SetTooltip(tooltip(l, label))
	}
}

// SetPaused shows the Pause/Resume entry for the given state.
func (t *Tray) SetPaused(paused bool) {
	t.mu.Lock()
	t.paused = paused
	ready, item, l := t.ready, t.mPause, t.loc
	t.mu.Unlock()
	if ready {
		item.SetTitle(pauseLabel(l, paused))
	}
}

// NextLabel words the next reminder for the menu in l: "Next: tea at 16:40"
// today, "Next: standup Tue 09:00" later, "Next: no reminders" without one and
// "Next: reminders paused" when paused.
func NextLabel(l i18n.Locale, title string, at, now time.Time, ok, paused bool) string {
	switch {
	case paused:
		return i18n.T(l, "tray.next.paused")
	case !ok:
		return i18n.T(l, "tray.next.none")
	}
	at = at.In(now.Location())
	y1, m1, d1 := at.Date()
	y2, m2, d2 := now.Date()
	if y1 == y2 && m1 == m2 && d1 == d2 {
		return i18n.T(l, "tray.next.today", "title", title, "time", at.Format("15:04"))
	}
	day := i18n.T(l, "weekday."+strconv.Itoa(int(at.Weekday())))
	return i18n.T(l, "tray.next.later", "title", title, "day", day, "time", at.Format("15:04"))
}

// Available reports whether a StatusNotifier host (a tray) is on the
// session bus.
func Available() bool {
	conn, err := dbus.SessionBus()
	if err != nil {
		return false
	}
	var has bool
	err = conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, "org.kde.StatusNotifierWatcher").Store(&has)
	return err == nil && has
}

// scaleIcon shrinks a PNG to size×size (box filter): the tray sends raw
// ARGB pixels over D-Bus, and a 1024² app icon would be 4 MB per update.
func scaleIcon(data []byte, size int) []byte {
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil || src.Bounds().Dx() <= size {
		return data
	}
	b := src.Bounds()
	dst := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			x0, x1 := b.Min.X+x*b.Dx()/size, b.Min.X+(x+1)*b.Dx()/size
			y0, y1 := b.Min.Y+y*b.Dy()/size, b.Min.Y+(y+1)*b.Dy()/size
			var r, g, bl, a, n uint64
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					c := color.NRGBAModel.Convert(src.At(sx, sy)).(color.NRGBA)
					r, g, bl, a, n = r+uint64(c.R), g+uint64(c.G), bl+uint64(c.B), a+uint64(c.A), n+1
				}
			}
			if n > 0 {
				dst.SetNRGBA(x, y, color.NRGBA{uint8(r / n), uint8(g / n), uint8(bl / n), uint8(a / n)})
			}
		}
	}
	var out bytes.Buffer
	if err := png.Encode(&out, dst); err != nil {
		return data
	}
	return out.Bytes()
}
