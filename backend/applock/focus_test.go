package applock

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

type handler chan string

func (h handler) SendMessage(m string) *dbus.Error { h <- m; return nil }

// privateBus starts a throwaway dbus-daemon so the test never touches the user's bus.
func privateBus(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon not installed; the single-instance hand-over is covered by the native smoke test")
	}
	cmd := exec.Command(bin, "--session", "--nofork", "--print-address=1", "--address=unix:dir="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon address: %v", err)
	}
	return strings.TrimSpace(addr)
}

func connect(t *testing.T, addr string) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func TestFocusReachesTheFirstInstance(t *testing.T) {
	addr := privateBus(t)
	first := connect(t, addr)
	name, path := endpoint("io.hearth.test-app")
	if name != "org.wails_app_io_hearth_test_app.SingleInstance" {
		t.Fatalf("endpoint name drifted from Wails' scheme: %s", name)
	}
	got := make(handler, 1)
	if err := first.Export(got, dbus.ObjectPath(path), name); err != nil {
		t.Fatal(err)
	}
	if _, err := first.RequestName(name, dbus.NameFlagDoNotQueue); err != nil {
		t.Fatal(err)
	}

	second := connect(t, addr)
	if err := focusOn(second, "io.hearth.test-app", []string{"--x"}); err != nil {
		t.Fatalf("focus: %v", err)
	}
	select {
	case m := <-got:
		var data struct {
			Args             []string
			WorkingDirectory string
		}
		if err := json.Unmarshal([]byte(m), &data); err != nil {
			t.Fatalf("message is not Wails' SecondInstanceData: %q", m)
		}
		if len(data.Args) != 1 || data.Args[0] != "--x" || data.WorkingDirectory == "" {
			t.Fatalf("unexpected hand-over: %+v", data)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("first instance never heard from the second")
	}
}

func TestFocusWithNobodyListeningFails(t *testing.T) {
	conn := connect(t, privateBus(t))
	if err := focusOn(conn, "io.hearth.nobody", nil); err == nil {
		t.Fatal("focus must fail when no instance owns the name")
	}
}
