package applock

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/godbus/dbus/v5"
)

// Focus asks the running Hearth window to come forward, through the same D-Bus endpoint
// Wails' single-instance lock exports (org.wails_app_<id>.SingleInstance). We call it
// ourselves because Wails' own path exits the second process with status 1.
func Focus(uniqueID string, args []string) error {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return fmt.Errorf("connect to the session bus: %w", err)
	}
	defer conn.Close()
	return focusOn(conn, uniqueID, args)
}

func focusOn(conn *dbus.Conn, uniqueID string, args []string) error {
	name, path := endpoint(uniqueID)
	wd, _ := os.Getwd()
	// Field names match Wails' options.SecondInstanceData JSON.
	msg, err := json.Marshal(struct {
		Args             []string `json:"Args"`
		WorkingDirectory string   `json:"WorkingDirectory"`
	}{Args: append([]string{}, args...), WorkingDirectory: wd})
	if err != nil {
		return err
	}
	call := conn.Object(name, dbus.ObjectPath(path)).Call(name+".SendMessage", 0, string(msg))
	if call.Err != nil {
		return fmt.Errorf("ask the running window to show itself: %w", call.Err)
	}
	return nil
}

// endpoint reproduces Wails' naming (internal/frontend/desktop/linux/single_instance.go).
func endpoint(uniqueID string) (name, path string) {
	id := "wails_app_" + strings.NewReplacer("-", "_", ".", "_").Replace(uniqueID)
	return "org." + id + ".SingleInstance", "/org/" + id + "/SingleInstance"
}
