// Command fakenotify is the notification daemon of the browser tests and the native
// smoke test: it owns org.freedesktop.Notifications on the session bus, keeps every
// notification it is given, and serves them on a local HTTP port so a test can read
// what a person would have seen (GET /notifications) and click one (POST
// /invoke?id=N&action=default). It prints its URL on the first line of stdout, and a
// line per notification on stderr for a shell script to grep:
//
//	notify <id> <summary>: <body>
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/godbus/dbus/v5"
)

const (
	busName = "org.freedesktop.Notifications"
	objPath = "/org/freedesktop/Notifications"
	iface   = "org.freedesktop.Notifications"
)

type shown struct {
	ID      uint32   `json:"id"`
	App     string   `json:"app"`
	Title   string   `json:"title"`
	Body    string   `json:"body"`
	Actions []string `json:"actions"`
	// Urgency is the "urgency" hint: 0 low (a quiet follow-up), 1 normal, 2 critical.
	Urgency int `json:"urgency"`
}

type daemon struct {
	mu   sync.Mutex
	list []shown
}

func (d *daemon) Notify(app string, _ uint32, _, summary, body string, actions []string,
	hints map[string]dbus.Variant, _ int32) (uint32, *dbus.Error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id := uint32(len(d.list) + 1)
	urgency := 1
	if u, ok := hints["urgency"].Value().(byte); ok {
		urgency = int(u)
	}
	d.list = append(d.list, shown{ID: id, App: app, Title: summary, Body: body, Actions: actions, Urgency: urgency})
	fmt.Fprintf(os.Stderr, "notify %d %s: %s\n", id, summary, strings.ReplaceAll(body, "\n", " "))
	return id, nil
}

func (d *daemon) CloseNotification(uint32) *dbus.Error { return nil }

func (d *daemon) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"actions", "body"}, nil
}

func (d *daemon) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "fakenotify", "hearth", "1", "1.2", nil
}

func main() {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		log.Fatalf("fakenotify: session bus: %v", err)
	}
	d := &daemon{}
	if err := conn.Export(d, objPath, iface); err != nil {
		log.Fatalf("fakenotify: export: %v", err)
	}
	if reply, err := conn.RequestName(busName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		log.Fatalf("fakenotify: own %s: %v (reply %v)", busName, err, reply)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatalf("fakenotify: listen: %v", err)
	}
	http.HandleFunc("GET /notifications", func(w http.ResponseWriter, _ *http.Request) {
		d.mu.Lock()
		defer d.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(append([]shown{}, d.list...))
	})
	http.HandleFunc("POST /invoke", func(w http.ResponseWriter, r *http.Request) {
		id, err := strconv.ParseUint(r.URL.Query().Get("id"), 10, 32)
		if err != nil {
			http.Error(w, "id: "+err.Error(), http.StatusBadRequest)
			return
		}
		action := r.URL.Query().Get("action")
		if action == "" {
			action = "default"
		}
		if err := conn.Emit(objPath, iface+".ActionInvoked", uint32(id), action); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	fmt.Fprintf(os.Stdout, "http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, nil))
}
