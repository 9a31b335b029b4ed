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
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"
	"time"

	"fyne.io/systray"
	"github.com/godbus/dbus/v5"
)

// Actions are what the menu entries do. They run on the tray's goroutine.
type Actions struct {
	Open      func()
	NewChat   func()
	SetPaused func(paused bool)
	Quit      func()
}

// Menu labels (the native test looks for them).
const (
	LabelOpen    = "Open Hearth"
	LabelNewChat = "New chat"
	LabelPause   = "Pause reminders"
	LabelResume  = "Resume reminders"
	LabelQuit    = "Quit"
	LabelNoNext  = "Next: no reminders"
	LabelPaused  = "Next: reminders paused"
)

// Tray is the tray icon. Only one can run per process (systray is global).
type Tray struct {
	icon []byte
	act  Actions

	mu      sync.Mutex
	ready   bool
	next    string
	paused  bool
	mNext   *systray.MenuItem
	mPause  *systray.MenuItem
	stop    chan struct{}
	stopped sync.Once
}

// New returns a tray with icon (PNG, any size: it is scaled to 64×64).
func New(icon []byte, act Actions) *Tray {
	return &Tray{icon: scaleIcon(icon, 64), act: act, next: LabelNoNext, stop: make(chan struct{})}
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
	open := systray.AddMenuItem(LabelOpen, "Show the Hearth window")
	newChat := systray.AddMenuItem(LabelNewChat, "Start a new chat")
	systray.AddSeparator()
	t.mu.Lock()
	t.mNext = systray.AddMenuItem(t.next, "The next reminder")
	t.mNext.Disable()
	label := LabelPause
	if t.paused {
		label = LabelResume
	}
	t.mPause = systray.AddMenuItem(label, "Pause or resume reminders and the heartbeat")
	t.ready = true
	next := t.next
	t.mu.Unlock()
	systray.SetTooltip(tooltip(next))
	systray.AddSeparator()
	quit := systray.AddMenuItem(LabelQuit, "Quit Hearth (reminders stop)")
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

func tooltip(next string) string { return "Hearth — " + next }

// SetNext sets the "Next:" entry and the tooltip (use NextLabel).
func (t *Tray) SetNext(label string) {
	t.mu.Lock()
	t.next = label
	ready, item := t.ready, t.mNext
	t.mu.Unlock()
	if ready {
		item.SetTitle(label)
		systray.SetTooltip(tooltip(label))
	}
}

// SetPaused shows the Pause/Resume entry for the given state.
func (t *Tray) SetPaused(paused bool) {
	t.mu.Lock()
	t.paused = paused
	ready, item := t.ready, t.mPause
	t.mu.Unlock()
	if ready {
		if paused {
			item.SetTitle(LabelResume)
		} else {
			item.SetTitle(LabelPause)
		}
	}
}

// NextLabel words the next reminder for the menu: "Next: tea at 16:40"
// today, "Next: standup Tue 09:00" later, LabelNoNext without one.
func NextLabel(title string, at, now time.Time, ok bool) string {
	if !ok {
		return LabelNoNext
	}
	at = at.In(now.Location())
	y1, m1, d1 := at.Date()
	y2, m2, d2 := now.Date()
	if y1 == y2 && m1 == m2 && d1 == d2 {
		return fmt.Sprintf("Next: %s at %s", title, at.Format("15:04"))
	}
	return fmt.Sprintf("Next: %s %s", title, at.Format("Mon 15:04"))
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
