package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/adrg/xdg"
)

// AppName is the directory name under each XDG base directory.
const AppName = "hearth"

// Paths are every place Hearth reads or writes
// (docs/design/files-and-config.md#where-files-live). Nothing here is created by
// resolving it; writers create what they need.
type Paths struct {
	ConfigFile string `json:"configFile"` // $XDG_CONFIG_HOME/hearth/config.json or --config
	ConfigDir  string `json:"configDir"`  // directory of ConfigFile

	DataDir     string `json:"dataDir"`     // $XDG_DATA_HOME/hearth
	Workspace   string `json:"workspace"`   // --workspace > agents.defaults.workspace > DataDir/workspace
	SessionsDir string `json:"sessionsDir"` // DataDir/sessions
	IndexDir    string `json:"indexDir"`    // DataDir/index
	// WorkspacesDir holds each workspace's state folder (memory history,
	// inbox, Dream's state), out of the workspace and hidden from commands.
	WorkspacesDir string `json:"workspacesDir"` // DataDir/workspaces
	CronDir       string `json:"cronDir"`       // DataDir/cron

	StateDir   string `json:"stateDir"`   // $XDG_STATE_HOME/hearth
	LogsDir    string `json:"logsDir"`    // StateDir/logs
	AuditDir   string `json:"auditDir"`   // StateDir/audit
	WindowFile string `json:"windowFile"` // StateDir/window.json
	LockFile   string `json:"lockFile"`   // StateDir/hearth.lock
}

// DefaultConfigFile is $XDG_CONFIG_HOME/hearth/config.json as the xdg package last
// loaded it (tests call xdg.Reload after changing XDG_* variables).
func DefaultConfigFile() string {
	return filepath.Join(xdg.ConfigHome, AppName, "config.json")
}

// ConfigFile resolves the --config flag value: empty means DefaultConfigFile; "~" is
// expanded and a relative path is made absolute against the working directory.
func ConfigFile(flag string) (string, error) {
	if strings.TrimSpace(flag) == "" {
		return DefaultConfigFile(), nil
	}
	p, err := absPath(flag, "")
	if err != nil {
		return "", fmt.Errorf("config path %q: %w", flag, err)
	}
	return p, nil
}

// ResolvePaths computes all paths from the config file (already resolved by ConfigFile),
// the --workspace flag and the loaded config. The workspace is the flag if set, else
// agents.defaults.workspace (a relative value is taken relative to the config file's
// directory, so the config means the same from any working directory), else the default.
func ResolvePaths(configFile, workspaceFlag string, cfg *Config) (Paths, error) {
	data := filepath.Join(xdg.DataHome, AppName)
	state := filepath.Join(xdg.StateHome, AppName)
	p := Paths{
		ConfigFile:    configFile,
		ConfigDir:     filepath.Dir(configFile),
		DataDir:       data,
		Workspace:     filepath.Join(data, "workspace"),
		SessionsDir:   filepath.Join(data, "sessions"),
		IndexDir:      filepath.Join(data, "index"),
		WorkspacesDir: filepath.Join(data, "workspaces"),
		CronDir:       filepath.Join(data, "cron"),
		StateDir:      state,
		LogsDir:       filepath.Join(state, "logs"),
		AuditDir:      filepath.Join(state, "audit"),
		WindowFile:    filepath.Join(state, "window.json"),
		LockFile:      filepath.Join(state, "hearth.lock"),
	}
	var err error
	switch {
	case strings.TrimSpace(workspaceFlag) != "":
		if p.Workspace, err = absPath(workspaceFlag, ""); err != nil {
			return p, fmt.Errorf("workspace %q: %w", workspaceFlag, err)
		}
	case cfg != nil && strings.TrimSpace(cfg.Agents.Defaults.Workspace) != "":
		ws := cfg.Agents.Defaults.Workspace
		if p.Workspace, err = absPath(ws, p.ConfigDir); err != nil {
			return p, fmt.Errorf("agents.defaults.workspace %q: %w", ws, err)
		}
	}
	return p, nil
}

// ExpandHome replaces a leading "~" or "~/" with the user's home directory.
func ExpandHome(p string) string {
	if p == "~" {
		return xdg.Home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(xdg.Home, rest)
	}
	if rest, ok := strings.CutPrefix(p, "~"+string(os.PathSeparator)); ok {
		return filepath.Join(xdg.Home, rest)
	}
	return p
}

// absPath expands "~" and makes p absolute against base (the working directory if empty).
func absPath(p, base string) (string, error) {
	p = ExpandHome(strings.TrimSpace(p))
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if base != "" {
		return filepath.Join(base, p), nil
	}
	return filepath.Abs(p)
}

// HearthDirs are Hearth's own folders, which commands may not read: the config (keys),
// data (sessions, index), state (audit log) and cache folders. A workspace inside one
// stays reachable (the sandbox keeps it).
func (p Paths) HearthDirs() []string {
	return []string{p.ConfigDir, p.DataDir, p.StateDir, filepath.Join(xdg.CacheHome, AppName)}
}

// EgressDir holds the egress log (StateDir/egress), one JSONL file per day.
func (p Paths) EgressDir() string {
	if p.StateDir == "" {
		return ""
	}
	return filepath.Join(p.StateDir, "egress")
}
