package notify

import (
	"bufio"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// privateBus starts a dbus-daemon of the test's own (skips without one).
func privateBus(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon not installed")
	}
	cmd := exec.Command(bin, "--session", "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(addr)
}

func connect(t *testing.T, addr string) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// server is a fake notification daemon.
type server struct {
	mu    sync.Mutex
	calls [][]any
}

func (s *server) Notify(app string, replaces uint32, icon, summary, body string, actions []string,
	hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, []any{app, summary, body, actions, hints["desktop-entry"].Value(), hints["urgency"].Value()})
	return uint32(len(s.calls) + 6), nil
}

func TestNotifyAndClick(t *testing.T) {
	addr := privateBus(t)
	srvConn := connect(t, addr)
	defer srvConn.Close()
	srv := &server{}
	if err := srvConn.Export(srv, objPath, iface); err != nil {
		t.Fatal(err)
	}
	if reply, err := srvConn.RequestName(busName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v %v", busName, reply, err)
	}
	clicked := make(chan string, 1)
	d, err := newOnConn(connect(t, addr), Options{OnClick: func(s string) { clicked <- s }})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Notify(Notification{Title: "tea", Body: "Tea is ready", SessionID: "cron:1a2b3c4d"}); err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	call := srv.calls[0]
	srv.mu.Unlock()
	if call[0] != "Hearth" || call[1] != "tea" || call[2] != "Tea is ready" || call[4] != "hearth" {
		t.Errorf("Notify call %v", call)
	}
	if a := call[3].([]string); len(a) != 2 || a[0] != "default" {
		t.Errorf("actions %v", a)
	}
	if call[5] != byte(1) {
		t.Errorf("urgency %v, want normal", call[5])
	}
	// A follow-up (a reminder's answer) is quiet: low urgency.
	if err := d.Notify(Notification{Title: "tea", Body: "Green tea steeps 3 minutes", Quiet: true}); err != nil {
		t.Fatal(err)
	}
	srv.mu.Lock()
	quiet := srv.calls[1]
	srv.mu.Unlock()
	if quiet[5] != byte(0) {
		t.Errorf("quiet urgency %v, want low", quiet[5])
	}
	// A click on another app's notification is ignored; ours opens its chat.
	srvConn.Emit(objPath, iface+".ActionInvoked", uint32(99), "default")
	srvConn.Emit(objPath, iface+".ActionInvoked", uint32(7), "default")
	select {
	case s := <-clicked:
		if s != "cron:1a2b3c4d" {
			t.Errorf("click opened %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("click not reported")
	}
}

func TestNotifyWithoutService(t *testing.T) {
	addr := privateBus(t)
	d, err := newOnConn(connect(t, addr), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Notify(Notification{Title: "x"}); err == nil {
		t.Error("no error without a notification service")
	}
}
