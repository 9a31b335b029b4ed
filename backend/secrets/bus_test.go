package secrets

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// Without a session bus the keyring check must not connect (it would autolaunch a
// D-Bus daemon that outlives Hearth): the store answers "unavailable" at once.
func TestNoSessionBusMeansNoKeyringAndNoConnect(t *testing.T) {
	run := t.TempDir() // an XDG_RUNTIME_DIR without a bus socket
	called := &countingKeyring{}
	s := New(Options{LookupEnv: envOf(map[string]string{"XDG_RUNTIME_DIR": run})})
	kr, ok := s.kr.(busKeyring)
	if !ok {
		t.Fatalf("the OS keyring is %T, want it behind the session-bus check", s.kr)
	}
	kr.os = called
	s.kr = kr
	if s.Available() {
		t.Fatal("keyring reported available without a session bus")
	}
	if _, err := s.Get("openai"); err == nil {
		t.Fatal("Get without a session bus succeeded")
	}
	if err := s.Set("openai", "sk-x"); err == nil {
		t.Fatal("Set without a session bus succeeded")
	}
	if called.n != 0 {
		t.Fatalf("the keyring was asked %d times without a session bus", called.n)
	}
	// Once a bus is there, the keyring is asked.
	kr.lookup = envOf(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"})
	if _, err := kr.Get(Service, "x"); err != nil || called.n != 1 {
		t.Fatalf("with a bus: err %v, asked %d times", err, called.n)
	}
}

type countingKeyring struct{ n int }

func (c *countingKeyring) Get(service, user string) (string, error) { c.n++; return "", nil }
func (c *countingKeyring) Set(service, user, secret string) error   { c.n++; return nil }
func (c *countingKeyring) Delete(service, user string) error        { c.n++; return nil }

func TestSessionBus(t *testing.T) {
	run := t.TempDir()
	plain := t.TempDir()
	if err := os.WriteFile(filepath.Join(plain, "bus"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(run, "bus"))
	if err != nil {
		t.Skipf("no Unix sockets here: %v", err)
	}
	defer l.Close()
	cases := []struct {
		name string
		goos string
		env  map[string]string
		want bool
	}{
		{"nothing", "linux", nil, false},
		{"address", "linux", map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}, true},
		{"disabled", "linux", map[string]string{"DBUS_SESSION_BUS_ADDRESS": "disabled:"}, false},
		{"autolaunch", "linux", map[string]string{"DBUS_SESSION_BUS_ADDRESS": "autolaunch:"}, false},
		{"blank address, runtime socket", "linux", map[string]string{"DBUS_SESSION_BUS_ADDRESS": " ", "XDG_RUNTIME_DIR": run}, true},
		{"runtime socket", "linux", map[string]string{"XDG_RUNTIME_DIR": run}, true},
		{"runtime file not socket", "linux", map[string]string{"XDG_RUNTIME_DIR": plain}, false},
		{"relative runtime dir", "linux", map[string]string{"XDG_RUNTIME_DIR": "run"}, false},
		{"macOS keychain", "darwin", nil, true},
		{"windows credential manager", "windows", nil, true},
	}
	for _, c := range cases {
		if got := sessionBus(c.goos, envOf(c.env)); got != c.want {
			t.Errorf("%s: sessionBus = %v, want %v", c.name, got, c.want)
		}
	}
}
