// Package core is Hearth's application service: it owns the loaded config, the resolved
// paths and (later) the agent, sessions, memory and scheduler, and exposes the operations
// that app.go (desktop) and backend/cli call. It never imports Wails.
package core

import (
	"context"
	"net/http"
	"sync"

	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/guard"
	"hearth/backend/llm"
	"hearth/backend/mcp"
	"hearth/backend/memory"
	"hearth/backend/models"
	"hearth/backend/reach"
	"hearth/backend/schedule"
	keystore "hearth/backend/secrets"
	"hearth/backend/sessions"
	"hearth/backend/settings"
)

// Options configure Open. The zero value works: default config path, default workspace,
// os.Getenv and a private HTTP client.
type Options struct {
	ConfigPath    string              // --config flag value; empty means $XDG_CONFIG_HOME/hearth/config.json
	WorkspaceFlag string              // --workspace flag value; empty means config, then default
	Getenv        func(string) string // nil means os.Getenv
	HTTPClient    *http.Client        // optional; used for the Ollama check
	Version       string              // Hearth's version, reported by Status
	// Retry bounds the retries of model calls; the zero value is llm's default
	// (4 attempts with backoff, for an Ollama that is still starting).
	Retry llm.RetryPolicy
	// Keyring stores API keys; nil means the OS keyring.
	Keyring keystore.Keyring
	// Background receives what reminders, the heartbeat, the message tool and
	// finished subagents tell the user (backend/core/schedule.go); the desktop
	// shows a notification and refreshes its views. Nil drops it.
	Background BackgroundSink
	// Clock drives reminders and the heartbeat; nil means the system clock.
	Clock schedule.Clock
}

// Service is the application service. Its methods are safe for concurrent use.
type Service struct {
	settings *settings.Service
	guard    *guard.Service
	sessions *sessions.Service
	models   *models.Service
	reach    *reach.Service

	mu         sync.Mutex
	parts      *agentParts // built by agent() on first use
	partsStale bool        // settings changed during a reply: rebuild when idle
	retiring   sync.WaitGroup
	bg         background // reminders and heartbeat (schedule.go)
	memory     *memory.Service
	memChanges *event.Broker[event.MemoryChanged]
	watchOnce  sync.Once
}

// Open loads the config, resolves paths and onboards the workspace. Nothing here is
// fatal: a broken config gives the defaults and is reported by ConfigError and Status
// (the desktop app must still open and show the problem); an unwritable workspace is
// reported by OnboardError.
func Open(opts Options) *Service {
	s := &Service{}
	s.bg.init(opts.Background, opts.Clock)
	s.settings = settings.Open(settings.Options{ConfigPath: opts.ConfigPath, WorkspaceFlag: opts.WorkspaceFlag,
		Getenv: opts.Getenv, HTTPClient: opts.HTTPClient, Version: opts.Version, Keyring: opts.Keyring,
		Changed: s.settingsChanged})
	s.bg.paused = s.settings.Config().Schedule.Paused // reminders stay paused across restarts
	s.guard = guard.New(s.settings)
	s.models = models.New(s.settings, opts.Retry)
	s.reach = reach.New(s.settings, nil)
	s.sessions = sessions.New(sessions.Options{
		Dir:       s.settings.Paths().SessionsDir,
		Workspace: func() string { return s.Paths().Workspace },
		InUse:     s.inUse,
		Deleted:   s.guard.ForgetChat, // a new chat under the same id asks again
	})
	s.memChanges = event.NewBroker[event.MemoryChanged](0)
	s.memory = memory.NewService(s.memoryOptions(), s.memChanges)
	return s
}

// settingsChanged rebuilds the agent parts from the new config: at once when
// no reply runs, else once the replies are done. A changed key only drops its
// provider.
func (s *Service) settingsChanged(c event.SettingsChanged) {
	if c.Has(settings.PartWorkspace) || c.Has(settings.PartAgent) {
		s.memory.Apply(s.memoryOptions())
	}
	if c.Has(settings.PartWorkspace) {
		s.reach.Apply(c)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parts == nil {
		return
	}
	if c.Has(settings.PartProviders) || c.Has(settings.PartWeb) {
		s.parts.registry.SetMasker(s.settings.Keys().Masker())
	}
	only := func(parts ...string) bool {
		for _, p := range c.Parts {
			if !contains(parts, p) {
				return false
			}
		}
		return true
	}
	switch {
	case only(settings.PartApproval, settings.PartUI, settings.PartHeartbeat, settings.PartSchedule, settings.PartMCP):
		// read where they are used
	case only(settings.PartProviders):
		// the models service builds a provider again when its settings changed
	case s.idleLocked():
		s.retireLocked() // rebuilt with the new settings on the next message
	default:
		s.partsStale = true // agent() swaps the parts once the running replies are done
	}
}

func contains(l []string, v string) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

// Settings is the settings service.
func (s *Service) SettingsService() *settings.Service { return s.settings }

// Config returns the loaded config (the defaults when it failed to load).
func (s *Service) Config() *config.Config { return s.settings.Config() }

// Paths returns the resolved paths.
func (s *Service) Paths() config.Paths { return s.settings.Paths() }

// ConfigError is why the config file could not be used, or nil.
func (s *Service) ConfigError() error { return s.settings.ConfigError() }

// ConfigWarnings are non-fatal findings in the config: unknown keys, unset ${VAR}s.
func (s *Service) ConfigWarnings() []string { return s.settings.ConfigWarnings() }

// OnboardError is why the workspace could not be set up at Open, or nil.
func (s *Service) OnboardError() error { return s.settings.OnboardError() }

// Onboard makes sure the workspace has every template file (see settings.Onboard).
func (s *Service) Onboard() ([]string, error) { return s.settings.Onboard() }

// Status reports config validity, paths, the default model and whether Ollama answers.
func (s *Service) Status(ctx context.Context) settings.Status { return s.settings.Status(ctx) }

// Settings returns the current settings (keys withheld).
func (s *Service) Settings() settings.Settings { return s.settings.Settings() }

// SaveSettings validates in and writes it to config.json.
func (s *Service) SaveSettings(in settings.Settings) (settings.SaveResult, error) {
	return s.settings.SaveSettings(in, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.parts != nil && !s.idleLocked()
	})
}

// PlainKeys reports the API keys that config.json holds in plain text.
func (s *Service) PlainKeys() settings.PlainKeyReport { return s.settings.Keys().PlainKeys() }

// MoveKeyToKeyring moves a plain API key into the OS keyring.
func (s *Service) MoveKeyToKeyring(provider string) error {
	return s.settings.Keys().MoveKeyToKeyring(provider)
}

// SetAPIKey sets the API key of a provider or of web search.
func (s *Service) SetAPIKey(provider, key string) error {
	return s.settings.Keys().SetAPIKey(provider, key)
}

// SecretStorage says where SetAPIKey puts a key: "keyring" or "config".
func (s *Service) SecretStorage() string { return s.settings.Keys().Storage() }

// ApplyLaunchAtLogin makes the autostart entry match ui.launchAtLogin.
func (s *Service) ApplyLaunchAtLogin() error { return s.settings.ApplyLaunchAtLogin() }

// SetLaunchAtLogin changes ui.launchAtLogin.
func (s *Service) SetLaunchAtLogin(on bool) error { return s.settings.SetLaunchAtLogin(on) }

// SetCloseToTray changes ui.closeToTray.
func (s *Service) SetCloseToTray(on bool) error { return s.settings.SetCloseToTray(on) }

// Models is the models service.
func (s *Service) Models() *models.Service { return s.models }

// Reach is the MCP, skills and web service.
func (s *Service) Reach() *reach.Service { return s.reach }

// ListMCPServers starts the agent (which connects the MCP servers) and lists them.
func (s *Service) ListMCPServers() ([]mcp.Status, error) {
	if _, err := s.agent(); err != nil {
		return nil, err
	}
	return s.reach.ListMCPServers(), nil
}

// MCPServerViews starts the agent and lists the MCP servers for the window.
func (s *Service) MCPServerViews() ([]reach.MCPServerView, error) {
	if _, err := s.agent(); err != nil {
		return nil, err
	}
	return s.reach.MCPServerViews(), nil
}

// Guard is the approvals service.
func (s *Service) Guard() *guard.Service { return s.guard }
