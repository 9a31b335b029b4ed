// Package autostart manages Hearth's XDG autostart entry
// ($XDG_CONFIG_HOME/autostart/hearth.desktop), which desktop sessions read
// at login (config ui.launchAtLogin). It only ever removes an entry it wrote.
package autostart

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"hearth/backend/internal/atomicfile"

	"github.com/adrg/xdg"
)

// HiddenFlag is passed by the autostart entry: the app starts in the tray.
const HiddenFlag = "--hidden"

// marker identifies entries Hearth wrote.
const marker = "X-Hearth-Autostart=true"

// Path is the autostart entry's file.
func Path() string { return filepath.Join(xdg.ConfigHome, "autostart", "hearth.desktop") }

// Entry is the desktop entry text for exe. TryExec names exe too, so once Hearth is
// uninstalled (its package removed) the session skips the entry instead of failing to
// start a missing program.
func Entry(exe string) string {
	return "[Desktop Entry]\nType=Application\nName=Hearth\nComment=Personal AI agent: reminders and heartbeat in the tray\n" +
		"Exec=" + execValue(exe) + " " + HiddenFlag + "\nTryExec=" + escape(exe) + "\nIcon=hearth\nTerminal=false\n" +
		"X-GNOME-Autostart-enabled=true\n" + marker + "\n"
}

// execValue quotes a program path for the Exec key as the Desktop Entry spec says: an
// argument with reserved characters goes in double quotes with " ` $ \ escaped by a
// backslash, % is doubled, and the result is escaped again as a string value.
func execValue(s string) string {
	if strings.ContainsAny(s, " \t\n\"'\\><~|&;$*?#()`") {
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`)
		s = `"` + r.Replace(s) + `"`
	}
	return escape(strings.ReplaceAll(s, "%", "%%"))
}

// escape writes s as a desktop entry string value.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
}

// Set writes (enabled) or removes (disabled) the entry for exe. A file the
// user wrote themselves (without Hearth's marker) is never removed.
func Set(enabled bool, exe string) error {
	p := Path()
	if !enabled {
		data, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("launch at login: %w", err)
		}
		if !strings.Contains(string(data), marker) {
			return nil
		}
		if err := os.Remove(p); err != nil {
			return fmt.Errorf("launch at login: %w", err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("launch at login: %w", err)
	}
	want := Entry(exe)
	if cur, err := os.ReadFile(p); err == nil && string(cur) == want {
		return nil
	}
	if err := atomicfile.WriteExact(p, []byte(want), 0o644); err != nil {
		return fmt.Errorf("launch at login: write %s: %w", p, err)
	}
	return nil
}
