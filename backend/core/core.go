// Package core is Hearth's application service: it owns the loaded config, the resolved
// paths and (later) the agent, sessions, memory and scheduler, and exposes the operations
// that app.go (desktop) and backend/cli call. It never imports Wails.
package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"hearth/backend/config"
	"hearth/backend/llm"
	"hearth/backend/schedule"
	keystore "hearth/backend/secrets"
	"hearth/backend/sessions"
	"hearth/backend/workspace"
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
	// Keyring stores API keys; nil means the OS keyring (F-SECRETS).
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
	getenv  func(string) string
	client  *http.Client
	version string

	mu          sync.Mutex
	cfg         *config.Config
	warnings    []string
	configErr   error
	paths       config.Paths
	pathsErr    error
	onboarded   []string
	onboardErr  error
	onboardDone bool
	retry       llm.RetryPolicy
	parts       *agentParts // built by agent() on first use
	partsStale  bool        // settings changed during a reply: rebuild when idle
	retiring    sync.WaitGroup
	hitl        *hitl // approvals, audit log, keys (approval.go)
	sessions    *sessions.Service
	bg          background // reminders and heartbeat (schedule.go)
	memSubs     memorySubs // OnMemoryChange listeners, kept across rebuilds (memory.go)
}

// Open loads the config, resolves paths and onboards the workspace. Nothing here is
// fatal: a broken config gives the defaults and is reported by ConfigError and Status
// (the desktop app must still open and show the problem); an unwritable workspace is
// reported by OnboardError.
func Open(opts Options) *Service {
	s := &Service{getenv: opts.Getenv, client: opts.HTTPClient, version: opts.Version, retry: opts.Retry}
	s.bg.init(opts.Background, opts.Clock)
	if s.getenv == nil {
		s.getenv = os.Getenv
	}
	if s.client == nil {
		s.client = &http.Client{}
	}
	cfgFile, err := config.ConfigFile(opts.ConfigPath)
	if err != nil {
		// An unusable --config value: fall back to the default file, keep the error.
		s.configErr = err
		cfgFile = config.DefaultConfigFile()
	}
	cfg, warnings, err := config.Load(cfgFile, s.getenv)
	s.cfg, s.warnings = cfg, warnings
	s.bg.paused = cfg.Schedule.Paused // reminders stay paused across restarts
	if s.configErr == nil {
		s.configErr = err
	}
	s.paths, s.pathsErr = config.ResolvePaths(cfgFile, opts.WorkspaceFlag, cfg)
	if s.pathsErr == nil {
		s.onboarded, s.onboardErr = workspace.Onboard(s.paths.Workspace)
	} else {
		s.onboardErr = s.pathsErr
	}
	s.openHITL(opts.Keyring)
	s.sessions = sessions.New(sessions.Options{
		Dir:       s.paths.SessionsDir,
		Workspace: func() string { return s.Paths().Workspace },
		InUse:     s.inUse,
		Deleted:   s.hitl.gate.ForgetChat, // a new chat under the same id asks again
	})
	return s
}

// Config returns the loaded config (the defaults when it failed to load). Callers that
// change it must call SaveConfig.
func (s *Service) Config() *config.Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg
}

// Paths returns the resolved paths.
func (s *Service) Paths() config.Paths {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paths
}

// ConfigError is why the config file could not be used (a *config.LoadError for file
// problems), or nil.
func (s *Service) ConfigError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.configErr
}

// ConfigWarnings are non-fatal findings in the config: unknown keys, unset ${VAR}s.
func (s *Service) ConfigWarnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.warnings...)
}

// SaveConfig writes the current config to the config file (see config.Config.Save: only
// changed values are written; a broken file is never overwritten).
func (s *Service) SaveConfig() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.Save(s.paths.ConfigFile)
}

// OnboardError is why the workspace could not be set up at Open, or nil.
func (s *Service) OnboardError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.onboardErr
}

// Onboard makes sure the workspace has every template file and returns all files this
// Service created, at Open or now (Open already onboards, so `hearth onboard` would
// otherwise always report nothing new). Existing files are never overwritten.
func (s *Service) Onboard() (created []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pathsErr != nil {
		return nil, s.pathsErr
	}
	more, err := workspace.Onboard(s.paths.Workspace)
	s.onboarded = append(s.onboarded, more...)
	return append([]string(nil), s.onboarded...), err
}

// Status is a snapshot for `hearth status`, the setup screen and the Settings view.
type Status struct {
	ConfigFile      string   `json:"configFile"`
	ConfigError     string   `json:"configError"`
	ConfigWarnings  []string `json:"configWarnings"`
	Workspace       string   `json:"workspace"`
	WorkspaceError  string   `json:"workspaceError"`
	DataDir         string   `json:"dataDir"`
	StateDir        string   `json:"stateDir"`
	Model           string   `json:"model"`
	ModelProvider   string   `json:"modelProvider"`
	ModelConfigured bool     `json:"modelConfigured"`
	ModelProblem    string   `json:"modelProblem"` // why ModelConfigured is false
	OllamaHost      string   `json:"ollamaHost"`
	OllamaReachable bool     `json:"ollamaReachable"`
	OllamaVersion   string   `json:"ollamaVersion"`
	OllamaError     string   `json:"ollamaError"` // why OllamaReachable is false, with a hint
	Version         string   `json:"version"`
	// APIKeys lists the API keys written in config.json in plain text
	// (F-SECRETS); nil (left out of the JSON) when there is none.
	APIKeys *PlainKeyReport `json:"apiKeys,omitempty"`
}

// OllamaCheckTimeout bounds the reachability check so status stays snappy.
const OllamaCheckTimeout = 1500 * time.Millisecond

// Status reports config validity, paths, the default model and whether Ollama answers.
// A nil ctx is allowed (the desktop app may ask before its window context exists).
func (s *Service) Status(ctx context.Context) Status {
	if ctx == nil {
		ctx = context.Background()
	}
	s.mu.Lock()
	cfg, paths := s.cfg, s.paths
	st := Status{
		ConfigFile:     paths.ConfigFile,
		ConfigWarnings: append([]string{}, s.warnings...),
		Workspace:      paths.Workspace,
		DataDir:        paths.DataDir,
		StateDir:       paths.StateDir,
		Model:          cfg.Agents.Defaults.Model,
		OllamaHost:     cfg.OllamaHost(s.getenv),
		Version:        s.version,
	}
	if s.configErr != nil {
		st.ConfigError = s.configErr.Error()
	}
	if s.onboardErr != nil {
		st.WorkspaceError = s.onboardErr.Error()
	}
	s.mu.Unlock()

	if provider, _, err := cfg.ResolveModel(st.Model); err != nil {
		st.ModelProblem = err.Error()
	} else {
		st.ModelProvider = provider
		st.ModelConfigured, st.ModelProblem = cfg.ProviderConfigured(provider)
	}
	st.OllamaVersion, st.OllamaReachable, st.OllamaError = s.checkOllama(ctx, st.OllamaHost)
	if keys := s.PlainKeys(); len(keys.Plain) > 0 {
		st.APIKeys = &keys
	}
	return st
}

// checkOllama asks GET <host>/api/version, the cheapest endpoint Ollama has.
func (s *Service) checkOllama(ctx context.Context, host string) (version string, ok bool, problem string) {
	ctx, cancel := context.WithTimeout(ctx, OllamaCheckTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(host, "/")+"/api/version", nil)
	if err != nil {
		return "", false, fmt.Sprintf("bad Ollama host %q: %v (hint: fix providers.ollama.host or OLLAMA_HOST)", host, err)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		hint := "start it with `ollama serve`, or set providers.ollama.host / OLLAMA_HOST if it runs elsewhere"
		if errors.Is(err, context.DeadlineExceeded) {
			hint = "it did not answer within 1.5 s; check the host and that Ollama is not stuck"
		}
		return "", false, fmt.Sprintf("Ollama is not reachable at %s: %v (hint: %s)", host, err, hint)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return "", false, fmt.Sprintf("%s/api/version answered HTTP %d (hint: is this really an Ollama server?)", host, resp.StatusCode)
	}
	var v struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return "", false, fmt.Sprintf("%s/api/version did not answer like Ollama: %v (hint: check the host and port)", host, err)
	}
	return v.Version, true, ""
}
