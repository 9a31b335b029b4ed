package settings

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"hearth/backend/config"
	"hearth/backend/i18n"
	"hearth/backend/workspace"
)

// ProviderSettings is one OpenAI-compatible endpoint in the Settings view.
// Keys are never sent to the window: APIKey is empty on the way out and
// KeySet says whether one is stored; an empty APIKey on the way in keeps it.
type ProviderSettings struct {
	Name     string `json:"name"` // "" for providers.openai, else the custom name
	APIBase  string `json:"apiBase"`
	APIKey   string `json:"apiKey"`
	KeySet   bool   `json:"keySet"`
	ClearKey bool   `json:"clearKey"`
}

// Settings is what the Settings view edits: a flat slice of config.json.
type Settings struct {
	OllamaHost string `json:"ollamaHost"`
	// OllamaStart and OllamaKeepRunning are providers.ollama.start and .keepRunning.
	OllamaStart       string             `json:"ollamaStart"`
	OllamaKeepRunning bool               `json:"ollamaKeepRunning"`
	OpenAI            ProviderSettings   `json:"openai"`
	Custom            []ProviderSettings `json:"custom"`
	Model             string             `json:"model"`
	EmbeddingModel    string             `json:"embeddingModel"`
	// Fallbacks is agents.defaults.fallbacks: the models a chat turns to, in order.
	Fallbacks           []string `json:"fallbacks"`
	ContextTokens       int      `json:"contextTokens"`
	MaxTokens           int      `json:"maxTokens"`
	Temperature         float64  `json:"temperature"`
	MaxToolIterations   int      `json:"maxToolIterations"`
	MaxTurnMinutes      int      `json:"maxTurnMinutes"`
	ExecEnabled         bool     `json:"execEnabled"`
	WebOffline          bool     `json:"webOffline"`
	LocalOnly           bool     `json:"localOnly"`
	Workspace           string   `json:"workspace"`
	RestrictToWorkspace bool     `json:"restrictToWorkspace"`
	AllowedPaths        []string `json:"allowedPaths"`
	Theme               string   `json:"theme"`
	Language            string   `json:"language"`
	// SendDuringRun is the mode of a message sent with Enter while a turn runs.
	SendDuringRun string `json:"sendDuringRun"`
	// SystemLanguage is what "auto" means on this machine, read from the POSIX locale
	// variables as the tray and notifications read it ("" when they name no language):
	// the web view's own idea of the language can differ (WebKitGTK falls back to
	// English when the locale is not generated), and the window must speak as the tray.
	SystemLanguage string `json:"systemLanguage"`
	// MemoryWindow is agents.defaults.memoryWindow (messages kept before older ones
	// are consolidated into memory); RecallEnabled is agents.defaults.recallBlock.enabled.
	MemoryWindow int `json:"memoryWindow"`
	// IdleCompactMinutes is agents.defaults.idleCompactMinutes: how long a chat stays
	// idle before its long history is saved to memory in the background (0: never).
	IdleCompactMinutes int  `json:"idleCompactMinutes"`
	RecallEnabled      bool `json:"recallEnabled"`
	// Memory is Dream's schedule and budgets and "Review memory changes".
	Memory config.Memory `json:"memory"`
}

// SaveResult answers SaveSettings: Problems (keyed by dotted config key) when
// nothing was saved because a value is wrong, else Saved; Notice says when a
// change applies later.
type SaveResult struct {
	Saved    bool             `json:"saved"`
	Problems []config.Problem `json:"problems"`
	Notice   string           `json:"notice,omitempty"`
}

// Settings returns the current settings (keys withheld).
func (s *Service) Settings() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cfg
	d := c.Agents.Defaults
	out := Settings{
		OllamaHost:          c.Providers.Ollama.Host,
		OllamaStart:         c.Providers.Ollama.Start,
		OllamaKeepRunning:   c.Providers.Ollama.KeepRunning,
		OpenAI:              ProviderSettings{APIBase: c.Providers.OpenAI.APIBase, KeySet: c.Providers.OpenAI.APIKey != ""},
		Custom:              []ProviderSettings{},
		Model:               d.Model,
		EmbeddingModel:      d.EmbeddingModel,
		Fallbacks:           append([]string{}, d.Fallbacks...),
		ContextTokens:       d.ContextTokens,
		MaxTokens:           d.MaxTokens,
		Temperature:         d.Temperature,
		MaxToolIterations:   d.MaxToolIterations,
		MaxTurnMinutes:      d.MaxTurnMinutes,
		ExecEnabled:         c.Tools.Exec.Enabled,
		WebOffline:          c.Tools.Web.Offline,
		LocalOnly:           c.LocalOnly,
		Workspace:           d.Workspace,
		RestrictToWorkspace: c.Tools.RestrictToWorkspace,
		AllowedPaths:        append([]string{}, c.Tools.AllowedPaths...),
		Theme:               c.UI.Theme,
		Language:            c.UI.Language,
		SendDuringRun:       c.UI.SendDuringRun,
		SystemLanguage:      systemLanguage(),
		MemoryWindow:        d.MemoryWindow,
		IdleCompactMinutes:  d.IdleCompactMinutes,
		RecallEnabled:       d.RecallBlock.Enabled,
		Memory:              c.Memory,
	}
	out.Workspace = cmp.Or(out.Workspace, s.paths.Workspace)
	names := slices.Sorted(maps.Keys(c.Providers.Custom))
	for _, n := range names {
		p := c.Providers.Custom[n]
		out.Custom = append(out.Custom, ProviderSettings{Name: n, APIBase: p.APIBase, KeySet: p.APIKey != ""})
	}
	return out
}

// apply returns a copy of c with in applied; c is not changed.
func apply(c *config.Config, in Settings) (*config.Config, []config.Problem) {
	n := *c // shares src with c: Save merges against what was loaded
	n.Providers.Custom = maps.Clone(c.Providers.Custom)
	var ps []config.Problem
	n.Providers.Ollama.Host = strings.TrimSpace(in.OllamaHost)
	n.Providers.Ollama.Start, n.Providers.Ollama.KeepRunning = in.OllamaStart, in.OllamaKeepRunning
	n.Providers.OpenAI.APIBase = strings.TrimSpace(in.OpenAI.APIBase)
	n.Providers.OpenAI.APIKey = keep(c.Providers.OpenAI.APIKey, in.OpenAI)
	seen := map[string]bool{}
	custom := map[string]config.OpenAIProvider{}
	for i, p := range in.Custom {
		name := strings.TrimSpace(p.Name)
		if seen[name] {
			ps = append(ps, config.NewProblem("providers.custom."+name, i18n.P("config.customName.twice")))
		}
		if name == "" {
			ps = append(ps, config.NewProblem(fmt.Sprintf("providers.custom.#%d", i), i18n.P("config.customName.missing")))
			continue
		}
		seen[name] = true
		custom[name] = config.OpenAIProvider{APIBase: strings.TrimSpace(p.APIBase), APIKey: keep(c.Providers.Custom[name].APIKey, p)}
	}
	n.Providers.Custom = custom
	d := &n.Agents.Defaults
	d.Model, d.EmbeddingModel = strings.TrimSpace(in.Model), strings.TrimSpace(in.EmbeddingModel)
	d.ContextTokens, d.MaxTokens, d.Temperature, d.MaxToolIterations = in.ContextTokens, in.MaxTokens, in.Temperature, in.MaxToolIterations
	d.MaxTurnMinutes = in.MaxTurnMinutes
	d.MemoryWindow, d.RecallBlock.Enabled = in.MemoryWindow, in.RecallEnabled
	d.IdleCompactMinutes = in.IdleCompactMinutes
	d.Fallbacks = []string{}
	for _, f := range in.Fallbacks {
		if f = strings.TrimSpace(f); f != "" && !slices.Contains(d.Fallbacks, f) {
			d.Fallbacks = append(d.Fallbacks, f)
		}
	}
	n.Tools.Exec.Enabled = in.ExecEnabled
	n.Tools.Web.Offline = in.WebOffline
	n.LocalOnly = in.LocalOnly
	n.Tools.RestrictToWorkspace = in.RestrictToWorkspace
	n.Tools.AllowedPaths = []string{}
	for _, p := range in.AllowedPaths {
		if p = strings.TrimSpace(p); p != "" {
			n.Tools.AllowedPaths = append(n.Tools.AllowedPaths, p)
		}
	}
	n.UI.Theme, n.UI.Language, n.UI.SendDuringRun = in.Theme, in.Language, in.SendDuringRun
	n.Memory = in.Memory
	return &n, append(ps, n.Validate()...)
}

func keep(old string, p ProviderSettings) string {
	switch {
	case p.ClearKey:
		return ""
	case p.APIKey != "":
		return p.APIKey
	}
	return old
}

// SaveSettings validates in and writes it to config.json through the config
// package (unknown keys, key order and ${VAR} references are kept). Nothing
// is written when a value is wrong: the problems come back per key. busy (may be
// nil) says whether a reply is running: the change then applies from the next one.
func (s *Service) SaveSettings(in Settings, busy func() bool) (res SaveResult, err error) {
	if err := s.ConfigError(); err != nil {
		return SaveResult{}, fmt.Errorf("settings not saved: %w", err)
	}
	defer func() { // after the lock below is let go
		if res.Saved {
			s.report()
		}
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	old, paths := s.cfg, s.paths
	n, ps := apply(old, in)
	ws := strings.TrimSpace(in.Workspace)
	if ws == paths.Workspace && old.Agents.Defaults.Workspace == "" {
		ws = "" // the default folder stays implicit
	}
	n.Agents.Defaults.Workspace = ws
	newPaths, perr := config.ResolvePaths(paths.ConfigFile, "", n)
	if perr != nil {
		ps = append(ps, config.NewProblem("agents.defaults.workspace", i18n.P("config.workspace", "detail", perr.Error())))
	}
	if len(ps) > 0 {
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].Key < ps[j].Key })
		return SaveResult{Problems: ps}, nil
	}
	undoKeys, keysSaved, err := s.keys.toKeyring(old, n, "")
	if err != nil {
		return SaveResult{}, fmt.Errorf("settings not saved: %w", err)
	}
	if err := n.Save(paths.ConfigFile); err != nil {
		undoKeys()
		return SaveResult{}, fmt.Errorf("settings: %w", err)
	}
	keysSaved()
	s.cfg = n
	if newPaths.Workspace != s.paths.Workspace {
		s.paths = newPaths
		s.onboarded, s.onboardErr = workspace.Onboard(newPaths.Workspace)
	}
	res = SaveResult{Saved: true}
	if busy != nil && busy() {
		res.Notice = "settings apply from the next reply"
	}
	return res, nil
}

// systemLanguage is the language the locale variables name, or "".
func systemLanguage() string {
	if l, ok := i18n.FromEnv(os.Getenv); ok {
		return string(l)
	}
	return ""
}
