package secrets

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// sessionBus reports whether a D-Bus session bus is there to ask. Why ask first: the
// Secret Service client connects to the session bus, and where none runs it autolaunches
// one (dbus-launch), a daemon that outlives Hearth. So without an address in the
// environment and without the bus socket in $XDG_RUNTIME_DIR the keyring counts as
// unavailable and nothing is connected to. An address that itself asks for an autolaunch
// ("autolaunch:") or none ("disabled:") counts as no bus. Systems without D-Bus (macOS,
// Windows) have their own keyrings and always ask them.
func sessionBus(goos string, lookup func(string) (string, bool)) bool {
	if goos == "darwin" || goos == "windows" {
		return true
	}
	if addr, ok := lookup("DBUS_SESSION_BUS_ADDRESS"); ok && strings.TrimSpace(addr) != "" {
		for _, a := range strings.Split(addr, ";") {
			if a = strings.TrimSpace(a); a != "" && !strings.HasPrefix(a, "autolaunch:") && !strings.HasPrefix(a, "disabled:") {
				return true
			}
		}
		return false
	}
	dir, ok := lookup("XDG_RUNTIME_DIR")
	if !ok || !filepath.IsAbs(dir) {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, "bus"))
	return err == nil && fi.Mode()&os.ModeSocket != 0
}

// busKeyring is the OS keyring asked only while a session bus is there: each call
// looks first (the bus may come up after Hearth started), and without one answers
// "unavailable" without connecting anywhere.
type busKeyring struct {
	lookup func(string) (string, bool)
	os     Keyring
}

func (b busKeyring) bus() bool { return sessionBus(runtime.GOOS, b.lookup) }

func (b busKeyring) Get(service, user string) (string, error) {
	if !b.bus() {
		return "", ErrUnavailable
	}
	return b.os.Get(service, user)
}

func (b busKeyring) Set(service, user, secret string) error {
	if !b.bus() {
		return ErrUnavailable
	}
	return b.os.Set(service, user, secret)
}

func (b busKeyring) Delete(service, user string) error {
	if !b.bus() {
		return ErrUnavailable
	}
	return b.os.Delete(service, user)
}

// osKeyringHere is the OS keyring behind the session-bus check.
func osKeyringHere(lookup func(string) (string, bool)) Keyring {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	return busKeyring{lookup: lookup, os: OSKeyring()}
}
