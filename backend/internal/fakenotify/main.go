// Command fakenotify is a stand-in notification daemon for the native smoke
// test: it owns org.freedesktop.Notifications on the session bus, answers
// Notify with increasing ids and prints one line per notification:
//
//	notify <id> <summary>: <body>
//
// so the test can check what was shown and click it (emit ActionInvoked).
package main

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/godbus/dbus/v5"
)

type daemon struct {
	mu sync.Mutex
	id uint32
}

func (d *daemon) Notify(app string, replaces uint32, icon, summary, body string, actions []string,
	hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	d.mu.Lock()
	d.id++
	id := d.id
	d.mu.Unlock()
	fmt.Printf("notify %d %s: %s\n", id, summary, strings.ReplaceAll(body, "\n", " "))
	return id, nil
}

func (d *daemon) CloseNotification(id uint32) *dbus.Error { return nil }

func (d *daemon) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"actions", "body"}, nil
}

func (d *daemon) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "fakenotify", "hearth", "1", "1.2", nil
}

func main() {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakenotify:", err)
		os.Exit(1)
	}
	defer conn.Close()
	if err := conn.Export(&daemon{}, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		fmt.Fprintln(os.Stderr, "fakenotify:", err)
		os.Exit(1)
	}
	reply, err := conn.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		fmt.Fprintln(os.Stderr, "fakenotify: name taken:", err)
		os.Exit(1)
	}
	fmt.Println("fakenotify ready")
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	<-sigs
}
