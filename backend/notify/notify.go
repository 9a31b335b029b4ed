// Package notify shows desktop notifications (docs/design/background.md#notifications) through the
// freedesktop org.freedesktop.Notifications D-Bus service, and reports a
// click on one (its "default" action) so the caller can open the related
// chat. It needs no Wails and no GUI: the desktop app and headless runs use
// the same code.
package notify

import (
	"cmp"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/godbus/dbus/v5"
)

// Notification is one desktop notification.
type Notification struct {
	Title string
	Body  string
	// SessionID is the chat a click opens; empty means the click only
	// brings the window forward.
	SessionID string
	// Actions are buttons beside the click (a missed reminder's Run / Skip); a press
	// is reported to Options.OnAction with Ref.
	Actions []Action
	Ref     string
	// Quiet asks for low urgency: a follow-up (a reminder's answer after the reminder
	// itself) goes to the notification list without interrupting.
	Quiet bool
}

// Action is a notification button: Key is reported, Label shown.
type Action struct {
	Key   string
	Label string
}

// Notifier shows notifications.
type Notifier interface {
	Notify(n Notification) error
}

// D-Bus names of the freedesktop notification service.
const (
	busName   = "org.freedesktop.Notifications"
	objPath   = "/org/freedesktop/Notifications"
	iface     = "org.freedesktop.Notifications"
	actionKey = "default"
)

// DBus is a Notifier over the session bus. Safe for concurrent use.
type DBus struct {
	conn    *dbus.Conn
	appName string
	icon    string
	onClick func(sessionID string)
	onAct   func(ref, key string)
	log     *slog.Logger

	mu      sync.Mutex
	pending map[uint32]Notification // notification id → what it showed
	sigs    chan *dbus.Signal
	done    chan struct{}
	warned  bool
}

// Options configure NewDBus.
type Options struct {
	AppName string // default "Hearth"
	// Icon is an icon name or an absolute file path ("" for none).
	Icon string
	// OnClick runs when the user clicks a notification (on a D-Bus goroutine).
	OnClick func(sessionID string)
	// OnAction runs when the user presses one of a notification's Actions.
	OnAction func(ref, key string)
	Log      *slog.Logger
}

// NewDBus connects to the session bus (a private connection, closed by
// Close) and listens for clicks.
func NewDBus(opts Options) (*DBus, error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, fmt.Errorf("notifications: connect to the session bus: %w", err)
	}
	return newOnConn(conn, opts)
}

func newOnConn(conn *dbus.Conn, opts Options) (*DBus, error) {
	opts.AppName = cmp.Or(opts.AppName, "Hearth")
	opts.Log = cmp.Or(opts.Log, slog.Default())
	d := &DBus{conn: conn, appName: opts.AppName, icon: opts.Icon, onClick: opts.OnClick, onAct: opts.OnAction, log: opts.Log,
		pending: map[uint32]Notification{}, sigs: make(chan *dbus.Signal, 16), done: make(chan struct{})}
	for _, member := range []string{"ActionInvoked", "NotificationClosed"} {
		if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(objPath), dbus.WithMatchInterface(iface),
			dbus.WithMatchMember(member)); err != nil {
			conn.Close()
			return nil, fmt.Errorf("notifications: listen for %s: %w", member, err)
		}
	}
	conn.Signal(d.sigs)
	go d.listen()
	return d, nil
}

func (d *DBus) listen() {
	defer close(d.done)
	for sig := range d.sigs {
		if sig == nil || len(sig.Body) < 2 {
			continue
		}
		id, ok := sig.Body[0].(uint32)
		if !ok {
			continue
		}
		d.mu.Lock()
		n, known := d.pending[id]
		if sig.Name == iface+".NotificationClosed" || sig.Name == iface+".ActionInvoked" {
			delete(d.pending, id)
		}
		d.mu.Unlock()
		if !known || sig.Name != iface+".ActionInvoked" {
			continue
		}
		switch action, _ := sig.Body[1].(string); {
		case action == actionKey && d.onClick != nil:
			d.onClick(n.SessionID)
		case action != actionKey && d.onAct != nil && slices.ContainsFunc(n.Actions, func(a Action) bool { return a.Key == action }):
			d.onAct(n.Ref, action)
		}
	}
}

// Notify shows n. Without a notification service on the bus it returns an
// error (and logs it once, so a desktop without one is not flooded).
func (d *DBus) Notify(n Notification) error {
	urgency := byte(1) // normal
	if n.Quiet {
		urgency = 0
	}
	hints := map[string]dbus.Variant{
		"desktop-entry": dbus.MakeVariant("hearth"),
		"urgency":       dbus.MakeVariant(urgency),
	}
	actions := []string{actionKey, "Open"}
	for _, a := range n.Actions {
		actions = append(actions, a.Key, a.Label)
	}
	call := d.conn.Object(busName, objPath).Call(iface+".Notify", 0,
		d.appName, uint32(0), d.icon, n.Title, n.Body, actions, hints, int32(-1))
	if call.Err != nil {
		d.mu.Lock()
		first := !d.warned
		d.warned = true
		d.mu.Unlock()
		if first {
			d.log.Warn("desktop notifications unavailable (no notification service on the session bus)", "err", call.Err)
		}
		return fmt.Errorf("notify: %w", call.Err)
	}
	var id uint32
	if err := call.Store(&id); err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	d.mu.Lock()
	d.pending[id] = n
	d.mu.Unlock()
	return nil
}

// Close ends the connection and the click listener.
func (d *DBus) Close() error {
	if d == nil || d.conn == nil {
		return nil
	}
	err := d.conn.Close()
	<-d.done
	return err
}
