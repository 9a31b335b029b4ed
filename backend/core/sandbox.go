package core

import (
	"os"
	"path/filepath"

	"github.com/adrg/xdg"

	"hearth/backend/config"
)

// hearthDirs are Hearth's own folders, which commands may not read: the config (keys),
// data (sessions, index), state (audit log) and cache folders. A workspace inside one
// stays reachable (the sandbox keeps it).
func hearthDirs(p config.Paths) []string {
	return []string{p.ConfigDir, p.DataDir, p.StateDir, filepath.Join(xdg.CacheHome, "hearth")}
}

// sandboxExe is the binary the sandbox re-executes: the CLI launcher when the desktop
// app was started through it (it starts in milliseconds, the desktop binary loads GTK
// and WebKit first), else this binary.
func sandboxExe(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if l := getenv("HEARTH_LAUNCHER"); l != "" {
		if fi, err := os.Stat(l); err == nil && fi.Mode().IsRegular() {
			return l
		}
	}
	return ""
}
