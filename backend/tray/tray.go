// Package tray is Hearth's system-tray icon and menu (docs/design/background.md#tray), a
// status of what Hearth is doing: Open Hearth, New chat, Quick ask…, Recent chats, the next
// reminder, what runs now with Stop for each, the current model, Pause/Resume reminders,
// Quit. menu.go decides what it shows for a State; this file sends that to the tray
// host. It uses fyne.io/systray with the external loop (the desktop app already runs the
// GTK loop for Wails; two loops crash), talks StatusNotifierItem over D-Bus, and needs no
// Wails: main.go hands it plain funcs.
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

	"hearth/backend/activity"
	"hearth/backend/i18n"
)

// Actions are what the menu entries do. They run on the tray's goroutines.
type Actions struct {
	Open     func()
	NewChat  func()
	QuickAsk func()
	OpenChat func(id string)
	// Stop ends one running thing (a chat's or reminder's turn, the heartbeat, Dream).
	Stop      func(w activity.Work)
	SetPaused func(paused bool)
	// Opened hears that the menu opens (a tray host that tells): the caller may read
	// what changed without news (a chat renamed in the window).
	Opened func()
	Quit   func()
}

// Tray is the tray icon and its menu, a view of a State (menu.go): Set hands it a new
// State and only the entries that changed are sent to the tray host. Only one can run
// per process (systray is global). Its labels are worded in the UI language
// (backend/i18n, codes tray.*).
type Tray struct {
	icon []byte
	act  Actions
	now  func() time.Time

	mu      sync.Mutex
	loc     i18n.Locale
	st      State
	entries []Entry // what each slot shows, in slot order
	tooltip string
	tipSent string // the tooltip the host has
	ready   bool
	slots   []*slot
	stop    chan struct{}
	stopped sync.Once
}

// slot is one menu item; the menu has a fixed set of them (some hidden), so an update
// changes labels instead of rebuilding the menu.
type slot struct {
	item    *systray.MenuItem
	shown   Entry
	visible bool
}

// The slots in menu order: the fixed entries, MaxRecent chats in the Recent submenu,
// MaxRunning running lines.
const (
	slotOpen = iota
	slotNew
	slotQuick
	slotRecent
	slotRecent0
	slotNext     = slotRecent0 + MaxRecent
	slotRunning0 = slotNext + 1
	slotModel    = slotRunning0 + MaxRunning
	slotPause    = slotModel + 1
	slotQuit     = slotPause + 1
	slotCount    = slotQuit + 1
)

// New returns a tray with icon (PNG, any size: it is scaled to 64×64) worded in loc.
func New(icon []byte, loc i18n.Locale, act Actions) *Tray {
	t := &Tray{icon: scaleIcon(icon, 64), act: act, loc: loc, now: time.Now, stop: make(chan struct{})}
	t.entries, t.tooltip = layout(Build(loc, t.st, t.now()))
	return t
}

// layout flattens m into one entry per slot (an empty label hides the slot).
func layout(m Menu) ([]Entry, string) {
	e := make([]Entry, slotCount)
	e[slotOpen], e[slotNew], e[slotQuick], e[slotRecent] = m.Open, m.NewChat, m.QuickAsk, m.RecentTitle
	copy(e[slotRecent0:slotNext], m.Recent)
	e[slotNext] = m.Next
	copy(e[slotRunning0:slotModel], m.Running)
	e[slotModel], e[slotPause], e[slotQuit] = m.Model, m.Pause, m.Quit
	return e, m.Tooltip
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
	t.slots = make([]*slot, slotCount)
	for i := range slotCount {
		var it *systray.MenuItem
		switch {
		case i >= slotRecent0 && i < slotNext:
			it = t.slots[slotRecent].item.AddSubMenuItem("", "")
		default:
			if i == slotNext || i == slotQuit {
				systray.AddSeparator()
			}
			it = systray.AddMenuItem("", "")
		}
		t.slots[i] = &slot{item: it, visible: true}
	}
	t.ready = true
	t.applyLocked()
	t.mu.Unlock()
	systray.SetOnTapped(func() { call(t.act.Open) })
	go func() {
		for {
			select {
			case <-t.stop:
				return
			case <-systray.TrayOpenedCh:
				call(t.act.Opened)
			}
		}
	}()
	for i, s := range t.slots {
		go func() {
			for {
				select {
				case <-t.stop:
					return
				case <-s.item.ClickedCh:
					t.click(i)
				}
			}
		}()
	}
}

// applyLocked sends the host what changed since the last time.
func (t *Tray) applyLocked() {
	if !t.ready {
		return
	}
	for i, s := range t.slots {
		e := t.entries[i]
		visible := e.Label != ""
		if visible != s.visible {
			if visible {
				s.item.Show()
			} else {
				s.item.Hide()
			}
			s.visible = visible
		}
		if !visible {
			continue
		}
		if e.Label != s.shown.Label {
			s.item.SetTitle(e.Label)
		}
		if e.Tip != s.shown.Tip {
			s.item.SetTooltip(e.Tip)
		}
		if e.Enabled != s.shown.Enabled || s.shown.Label == "" {
			if e.Enabled {
				s.item.Enable()
			} else {
				s.item.Disable()
			}
		}
		s.shown = e
	}
	if t.tooltip != t.tipSent {
		systray.SetTooltip(t.tooltip)
		t.tipSent = t.tooltip
	}
}

// Set shows st worded in l.
func (t *Tray) Set(l i18n.Locale, st State) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.loc, t.st = l, st
	t.entries, t.tooltip = layout(Build(l, st, t.now()))
	t.applyLocked()
}

// click runs what slot i shows now.
func (t *Tray) click(i int) {
	t.mu.Lock()
	a := t.entries[i].Action
	t.mu.Unlock()
	t.Do(a)
}

// Do runs an entry's action. Pause and Resume show their new state at once (the
// service's news confirms it).
func (t *Tray) Do(a Action) {
	switch a.Kind {
	case DoOpen:
		call(t.act.Open)
	case DoNewChat:
		call(t.act.NewChat)
	case DoQuickAsk:
		call(t.act.QuickAsk)
	case DoOpenChat:
		if t.act.OpenChat != nil {
			t.act.OpenChat(a.ChatID)
		}
	case DoStop:
		if t.act.Stop != nil {
			t.act.Stop(a.Work)
		}
	case DoPause, DoResume:
		paused := a.Kind == DoPause
		t.mu.Lock()
		st := t.st
		st.Paused = paused
		t.mu.Unlock()
		t.Set(t.locale(), st)
		if t.act.SetPaused != nil {
			t.act.SetPaused(paused)
		}
	case DoQuit:
		call(t.act.Quit)
	}
}

func (t *Tray) locale() i18n.Locale {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.loc
}

func call(f func()) {
	if f != nil {
		f()
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
