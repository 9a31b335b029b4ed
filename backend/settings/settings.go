// Package settings is the settings service: config.json loaded, validated and saved,
// the resolved paths, the onboarded workspace, the status report, the Settings view's
// form, the window and login settings, and the API keys (Keys). Every change of the
// config goes through Update, which saves it and tells the composition root, whose
// services each rebuild only what they depend on, if that changed.
package settings

import (
	"os"
	"slices"
	"sync"

	"hearth/backend/config"
	"hearth/backend/sandbox"
	keystore "hearth/backend/secrets"
	"hearth/backend/workspace"
)

// Options configure Open. The zero value works: default config path, default
// workspace, os.Getenv.
type Options struct {
	ConfigPath    string              // --config flag value; empty means $XDG_CONFIG_HOME/hearth/config.json
	WorkspaceFlag string              // --workspace flag value; empty means config, then default
	Getenv        func(string) string // nil means os.Getenv
	Version       string              // Hearth's version, reported by Status
	// Keyring stores API keys; nil means the OS keyring.
	Keyring keystore.Keyring
	// Env is the process's environment as it started: Getenv and exec's allowed
	// keys read it (when Getenv is nil), and the variables holding secrets are
	// dropped from the process environment once the config is read. Nil: os.Getenv,
	// nothing dropped.
	Env *keystore.Env
}

// Service is the settings service. Its methods are safe for concurrent use. Config
// returns an immutable snapshot: changes go through Update.
type Service struct {
	getenv  func(string) string
	version string
	keys    *Keys
	env     *keystore.Env

	mu         sync.Mutex
	cfg        *config.Config
	warnings   []config.Problem
	configErr  error
	paths      config.Paths
	pathsErr   error
	onboarded  []string
	onboardErr error

	followers []func() // Follow's, in order
}

// Open loads the config, resolves paths and onboards the workspace. Nothing here is
// fatal: a broken config gives the defaults and is reported by ConfigError and Status
// (the desktop app must still open and show the problem); an unwritable workspace is
// reported by Status (WorkspaceError).
func Open(opts Options) *Service {
	s := &Service{getenv: opts.Getenv, version: opts.Version, env: opts.Env}
	if s.getenv == nil && s.env != nil {
		s.getenv = s.env.Getenv
	}
	if s.getenv == nil {
		s.getenv = os.Getenv
	}
	cfgFile, err := config.ConfigFile(opts.ConfigPath)
	if err != nil {
		// An unusable --config value: fall back to the default file, keep the error.
		s.configErr = err
		cfgFile = config.DefaultConfigFile()
	}
	cfg, warnings, err := config.Load(cfgFile, s.getenv)
	s.cfg, s.warnings = cfg, warnings
	if s.configErr == nil {
		s.configErr = err
	}
	s.paths, s.pathsErr = config.ResolvePaths(cfgFile, opts.WorkspaceFlag, cfg)
	if s.pathsErr == nil {
		s.onboarded, s.onboardErr = workspace.Onboard(s.paths.Workspace)
	} else {
		s.onboardErr = s.pathsErr
	}
	s.keys = newKeys(s, opts.Keyring)
	s.dropSecretEnv()
	return s
}

// Keys is the API keys' side of the settings.
func (s *Service) Keys() *Keys { return s.keys }

// SandboxPolicy is what a sandboxed MCP server may do: the exec tool's rules (write in
// the workspace, the temporary folder and the allowed folders but not the knowledge
// folders within them; read none of Hearth's own folders; network as
// tools.exec.network says).
func (s *Service) SandboxPolicy() sandbox.Policy {
	cfg, paths := s.Config(), s.Paths()
	return sandbox.Policy{Writable: append([]string{paths.Workspace}, cfg.WritablePaths()...), TempDir: os.TempDir(),
		ReadOnly: cfg.KnowledgeReadOnly(), Hidden: paths.HearthDirs(), Network: cfg.Tools.Exec.Network && !cfg.LocalOnly}
}

// Getenv is the environment the config's ${VAR} references read.
func (s *Service) Getenv(k string) string { return s.getenv(k) }

// Version is Hearth's version.
func (s *Service) Version() string { return s.version }

// Config returns the loaded config (the defaults when it failed to load). It must not
// be changed: Update makes changes.
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

// PathsError is why the paths could not be resolved (a --workspace that is not a
// folder), or nil.
func (s *Service) PathsError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pathsErr
}

// ConfigError is why the config file could not be used (a *config.LoadError for file
// problems), or nil.
func (s *Service) ConfigError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.configErr
}

// WorkspaceFile is a folder or template file of the workspace, and whether this
// Service created it.
type WorkspaceFile struct {
	Path         string
	Dir, Created bool
}

// Onboard makes sure the workspace has every folder and template file, and lists
// them saying which this Service created, at Open or now (Open already onboards, so
// `hearth onboard` would otherwise always report nothing new). Existing files are
// never overwritten.
func (s *Service) Onboard() ([]WorkspaceFile, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pathsErr != nil {
		return nil, s.pathsErr
	}
	more, err := workspace.Onboard(s.paths.Workspace)
	s.onboarded = append(s.onboarded, more...)
	var out []WorkspaceFile
	for _, d := range workspace.Dirs() {
		out = append(out, WorkspaceFile{Path: d + "/", Dir: true, Created: slices.Contains(s.onboarded, d+"/")})
	}
	for _, f := range workspace.Files() {
		out = append(out, WorkspaceFile{Path: f, Created: slices.Contains(s.onboarded, f)})
	}
	return out, err
}

// Update changes a copy of the config with fn, saves it (only changed values are
// written; a broken file is never overwritten) and makes it current; when fn or the
// save fails nothing changes. The parts that changed are then reported.
func (s *Service) Update(fn func(*config.Config) error) error {
	s.mu.Lock()
	old := s.cfg
	n := old.Clone()
	if err := fn(n); err != nil {
		s.mu.Unlock()
		return err
	}
	if err := n.Save(s.paths.ConfigFile); err != nil {
		s.mu.Unlock()
		return err
	}
	s.cfg = n
	s.reloadLocked()
	s.mu.Unlock()
	s.dropSecretEnv()
	s.report()
	return nil
}

// reloadLocked reads the saved file again, so that "${ENV}" references are expanded in
// memory the way Load does (and stay references on the next save). The caller holds
// s.mu.
func (s *Service) reloadLocked() {
	if cfg, warnings, err := config.Load(s.paths.ConfigFile, s.getenv); err == nil {
		s.cfg, s.warnings = cfg, warnings
	}
}

// Follow adds fn to what a saved change reaches before Update returns. The
// composition root calls it once the services that depend on the settings are built,
// so no one is told of a change before it exists. It is a call, not news on a broker:
// a change must be in effect when the save returns (exec switched off is no longer
// offered to the next turn), and a broker delivers later.
func (s *Service) Follow(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.followers = append(s.followers, fn)
}

// report tells the followers that a change was saved; each service compares what it
// depends on.
func (s *Service) report() {
	s.mu.Lock()
	fs := s.followers
	s.mu.Unlock()
	for _, fn := range fs {
		fn()
	}
}
