package settings

import (
	"errors"

	"hearth/backend/config"
	"hearth/backend/i18n"
	"hearth/backend/sandbox"
	"hearth/backend/workspace"
)

// Status is a snapshot for `hearth status`, the setup screen and the Settings view.
type Status struct {
	ConfigFile  string `json:"configFile"`
	ConfigError string `json:"configError"`
	// ConfigProblems are ConfigError's problems one by one, each with its place and
	// its wording for the window (none when the file loaded).
	ConfigProblems []config.Problem `json:"configProblems,omitempty"`
	// ConfigWarnings are what loaded but deserves a look: keys Hearth does not know
	// (kept as they are), ${VAR} references to unset variables.
	ConfigWarnings []config.Problem `json:"configWarnings"`
	Workspace      string           `json:"workspace"`
	WorkspaceError string           `json:"workspaceError"`
	DataDir        string           `json:"dataDir"`
	// MemoryStateDir is the workspace's state folder (memory history, inbox,
	// Dream's state); StateMoved what was moved there from <workspace>/.hearth,
	// or refused because a link was found (nil: nothing was moved).
	MemoryStateDir  string           `json:"memoryStateDir"`
	StateMoved      *workspace.Moved `json:"stateMoved,omitempty"`
	StateDir        string           `json:"stateDir"`
	Model           string           `json:"model"`
	ModelProvider   string           `json:"modelProvider"`
	ModelConfigured bool             `json:"modelConfigured"`
	ModelProblem    string           `json:"modelProblem"` // why ModelConfigured is false
	OllamaHost      string           `json:"ollamaHost"`
	OllamaReachable bool             `json:"ollamaReachable"`
	OllamaVersion   string           `json:"ollamaVersion"`
	OllamaError     string           `json:"ollamaError"` // why OllamaReachable is false, with a hint
	// OllamaEngine says whether the window can offer Start Ollama and whether the
	// Ollama that answers is one Hearth started.
	OllamaEngine OllamaEngine `json:"ollamaEngine"`
	Version      string       `json:"version"`
	// EmbeddingModel is agents.defaults.embeddingModel. Recall says how memory
	// recall searches: "hybrid" (by meaning and by words) when the embedding model
	// is there, "keyword" (by words only) when it is not set, not installed or
	// unreachable; RecallNote says why (RecallWhy words it in the window's language).
	EmbeddingModel string        `json:"embeddingModel"`
	Recall         string        `json:"recall"`
	RecallNote     string        `json:"recallNote,omitempty"`
	RecallWhy      *i18n.Message `json:"recallWhy,omitempty"`
	// APIKeys lists the API keys written in config.json in plain text; nil (left
	// out of the JSON) when there is none.
	APIKeys *PlainKeyReport `json:"apiKeys,omitempty"`
	// Sandbox says how exec commands are confined on this machine (docs/safety.md).
	Sandbox sandbox.Status `json:"sandbox"`
	// LocalOnly: every connection that leaves this machine is refused, except to
	// the Ollama host (docs/safety.md, "Local-only mode").
	LocalOnly bool `json:"localOnly"`
}

// OllamaEngine is what Hearth can do about Ollama (backend/models, engine.go).
type OllamaEngine struct {
	// Startable: the host is this machine's and `ollama` is installed.
	Startable bool `json:"startable"`
	// ByHearth: the Ollama that answers is one Hearth started.
	ByHearth bool `json:"byHearth"`
	// Managed: Hearth starts it by itself (providers.ollama.start).
	Managed bool `json:"managed"`
}

// Status reports config validity, paths, the default model and the keys kept in
// plain text. What other services know (whether Ollama answers, how recall searches,
// the sandbox) the composition root adds (app.Status).
func (s *Service) Status() Status {
	s.mu.Lock()
	cfg, paths := s.cfg, s.paths
	st := Status{
		ConfigFile:     paths.ConfigFile,
		ConfigWarnings: append([]config.Problem{}, s.warnings...),
		Workspace:      paths.Workspace,
		DataDir:        paths.DataDir,
		MemoryStateDir: workspace.StateDir(paths.WorkspacesDir, paths.Workspace),
		StateDir:       paths.StateDir,
		Model:          cfg.Agents.Defaults.Model,
		OllamaHost:     cfg.OllamaHost(s.getenv),
		Version:        s.version,
		LocalOnly:      cfg.LocalOnly,
	}
	if s.configErr != nil {
		st.ConfigError = s.configErr.Error()
	}
	if le, ok := errors.AsType[*config.LoadError](s.configErr); ok {
		st.ConfigProblems = le.Problems
	}
	if s.onboardErr != nil {
		st.WorkspaceError = s.onboardErr.Error()
	}
	s.mu.Unlock()
	_, st.StateMoved = s.MemoryState()

	if provider, _, err := cfg.ResolveModel(st.Model); err != nil {
		st.ModelProblem = err.Error()
	} else {
		st.ModelProvider = provider
		st.ModelConfigured, st.ModelProblem = cfg.ProviderConfigured(provider)
	}
	st.EmbeddingModel = cfg.Agents.Defaults.EmbeddingModel
	if keys := s.keys.PlainKeys(); len(keys.Plain) > 0 {
		st.APIKeys = &keys
	}
	return st
}

// MemoryState is the current workspace's state folder (memory history, inbox,
// Dream's state) and what was moved there from <workspace>/.hearth, or refused
// because a link was found (nil: nothing was moved).
func (s *Service) MemoryState() (dir string, moved *workspace.Moved) {
	s.mu.Lock()
	paths := s.paths
	s.mu.Unlock()
	dir = workspace.StateDir(paths.WorkspacesDir, paths.Workspace)
	return dir, workspace.ReadMoved(dir)
}
