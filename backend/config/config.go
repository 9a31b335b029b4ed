// Package config holds Hearth's config.json schema, its defaults, and the rules for
// loading, validating and saving it (docs/design/files-and-config.md#the-config-file).
// The file is the user's: unknown keys are kept, ${VAR} references are written back as
// written, and a broken file is never overwritten.
package config

import "encoding/json"

// Config is the whole config.json. Every key is optional in the file; Default() gives the
// shipped values. The unexported src remembers how the file looked when it was loaded so
// that Save can write back only what the program changed.
type Config struct {
	Agents    Agents    `json:"agents"`
	Providers Providers `json:"providers"`
	Tools     Tools     `json:"tools"`
	Heartbeat Heartbeat `json:"heartbeat"`
	Schedule  Schedule  `json:"schedule"`
	UI        UI        `json:"ui"`
	// LocalOnly refuses every connection that leaves this machine, except to the
	// configured Ollama host (docs/safety.md, "Local-only mode").
	LocalOnly bool `json:"localOnly"`
	// Memory configures the upkeep of the memory files (docs/memory.md#dream).
	Memory Memory `json:"memory"`
	// Channels carry the agent to chat platforms (docs/channels.md).
	Channels Channels `json:"channels"`
	// Knowledge lists the folders of the person's files recall searches.
	Knowledge Knowledge `json:"knowledge"`

	src *source
}

// Agents holds agent settings; only "defaults" exists today.
type Agents struct {
	Defaults AgentDefaults `json:"defaults"`
}

// AgentDefaults are the settings every agent run starts from.
type AgentDefaults struct {
	Model             string  `json:"model"`
	EmbeddingModel    string  `json:"embeddingModel"`
	ContextTokens     int     `json:"contextTokens"`
	MaxTokens         int     `json:"maxTokens"`
	Temperature       float64 `json:"temperature"`
	MaxToolIterations int     `json:"maxToolIterations"`
	// MaxTurnMinutes is a turn's wall-clock budget: past it the model sums up
	// (docs/design/agent-loop.md#budgets).
	MaxTurnMinutes            int         `json:"maxTurnMinutes"`
	SubagentMaxToolIterations int         `json:"subagentMaxToolIterations"`
	MemoryWindow              int         `json:"memoryWindow"`
	MaxToolResultChars        int         `json:"maxToolResultChars"`
	RecallBlock               RecallBlock `json:"recallBlock"`
	// Workspace is the workspace folder; empty means $XDG_DATA_HOME/hearth/workspace.
	Workspace string `json:"workspace"`
	// Fallbacks are the models a chat turns to, in order, when its model is not
	// installed, fails to load, errors or says nothing within FirstTokenSeconds, as
	// long as no part of the answer was shown (docs/local-models.md#fallback-models).
	Fallbacks []string `json:"fallbacks"`
	// FirstTokenSeconds is how long a model may take to its first token before the
	// next fallback answers; 0 waits as long as it takes. Only used with fallbacks.
	FirstTokenSeconds int `json:"firstTokenSeconds"`
	// FallbackOnCloudDown lets a cloud model that cannot be reached (offline, or
	// refused by local-only mode) hand the turn to the fallbacks.
	FallbackOnCloudDown bool `json:"fallbackOnCloudDown"`
	// IdleCompactMinutes is how long a chat stays idle before its long history is
	// saved to memory in the background (docs/memory.md#compaction-while-idle); 0 never.
	IdleCompactMinutes int `json:"idleCompactMinutes"`
}

// RecallBlock configures the "Possibly relevant history" block offered before each turn.
type RecallBlock struct {
	Enabled  bool    `json:"enabled"`
	MinScore float64 `json:"minScore"`
	MaxChars int     `json:"maxChars"`
}

// Providers are the model providers a model name can refer to (`<provider>/<model>`).
type Providers struct {
	Ollama OllamaProvider `json:"ollama"`
	OpenAI OpenAIProvider `json:"openai"`
	// Custom holds OpenAI-compatible endpoints, referred to as `custom.<name>/<model>`.
	Custom map[string]OpenAIProvider `json:"custom"`
}

// OllamaProvider configures the local Ollama server.
type OllamaProvider struct {
	// Host empty means OLLAMA_HOST, else http://127.0.0.1:11434 (see Config.OllamaHost).
	Host string `json:"host"`
	// Start says when Hearth starts a local Ollama that does not answer (at launch,
	// before a chat's first request, when it dies): OllamaStartAuto once Hearth has
	// started it here before, OllamaStartAlways, or OllamaStartNever.
	Start string `json:"start"`
	// KeepRunning leaves an Ollama that Hearth started running when Hearth quits.
	KeepRunning bool `json:"keepRunning"`
}

// Values of providers.ollama.start.
const (
	OllamaStartAuto   = ""
	OllamaStartAlways = "always"
	OllamaStartNever  = "never"
)

// OpenAIProvider is an OpenAI-compatible endpoint.
type OpenAIProvider struct {
	APIBase string `json:"apiBase"`
	APIKey  string `json:"apiKey"`
}

// Tools configures the built-in tools, their safety rules and MCP servers.
type Tools struct {
	RestrictToWorkspace bool                 `json:"restrictToWorkspace"`
	AllowedPaths        []string             `json:"allowedPaths"`
	ProtectedPaths      []string             `json:"protectedPaths"`
	Exec                Exec                 `json:"exec"`
	Web                 Web                  `json:"web"`
	Approval            Approval             `json:"approval"`
	MCPServers          map[string]MCPServer `json:"mcpServers"`
}

// Exec configures the exec tool.
type Exec struct {
	Enabled bool `json:"enabled"`
	// Timeout is the default command timeout in seconds (max 600).
	Timeout        int      `json:"timeout"`
	AllowedEnvKeys []string `json:"allowedEnvKeys"`
	// Network lets commands connect to the network; off, the sandbox gives them none.
	Network bool `json:"network"`
	// SSHAgent lets sandboxed commands use your ssh-agent: SSH_AUTH_SOCK is passed on and
	// its socket stays reachable (every other Unix socket outside the workspace does not).
	SSHAgent bool `json:"sshAgent,omitempty"`
	// Sandbox confines commands (Landlock, namespaces; see docs/safety.md). Default on;
	// a pointer so that a config written before it existed reads as on.
	Sandbox *bool `json:"sandbox,omitempty"`
}

// SandboxOn reports whether commands run in the OS sandbox (the default).
func (e Exec) SandboxOn() bool { return e.Sandbox == nil || *e.Sandbox }

// Web configures web_search and web_fetch.
type Web struct {
	Offline   bool      `json:"offline"`
	Search    WebSearch `json:"search"`
	SSRFAllow []string  `json:"ssrfAllow"`
}

// WebSearch selects the web_search backend.
type WebSearch struct {
	Provider string `json:"provider"`
	APIKey   string `json:"apiKey"`
	URL      string `json:"url"`
}

// Approval configures human-in-the-loop approval of tool calls (docs/design/safety-defaults.md#approval): the mode
// and per-tool overrides (never wins over always, always over ask).
type Approval struct {
	Mode   string   `json:"mode"`
	Always []string `json:"always"`
	Ask    []string `json:"ask"`
	Never  []string `json:"never"`
}

// MCPServer is one entry of tools.mcpServers in the Claude-Desktop shape. Fields are
// omitempty so that a saved entry looks like the one the user pasted in.
type MCPServer struct {
	Command      string            `json:"command,omitempty"`
	Args         []string          `json:"args,omitempty"`
	Env          map[string]string `json:"env,omitempty"`
	URL          string            `json:"url,omitempty"`
	Type         string            `json:"type,omitempty"`
	Headers      map[string]string `json:"headers,omitempty"`
	EnabledTools []string          `json:"enabledTools,omitempty"`
	// ToolTimeout is seconds per tool call; 0 means DefaultMCPToolTimeout.
	ToolTimeout int `json:"toolTimeout,omitempty"`
	// Sandbox runs a stdio server in the same OS sandbox as exec (writes only in the
	// workspace, allowedPaths and the temp folder; network as tools.exec.network).
	Sandbox bool `json:"sandbox,omitempty"`
}

// DefaultMCPToolTimeout is the per-call timeout of an MCP tool when toolTimeout is unset.
const DefaultMCPToolTimeout = 30

// Timeout returns the effective per-call timeout in seconds.
func (s MCPServer) Timeout() int {
	if s.ToolTimeout > 0 {
		return s.ToolTimeout
	}
	return DefaultMCPToolTimeout
}

// Heartbeat configures the periodic HEARTBEAT.md check.
type Heartbeat struct {
	Enabled         bool `json:"enabled"`
	IntervalMinutes int  `json:"intervalMinutes"`
}

// Schedule configures reminders.
type Schedule struct {
	// MissedRuns is "catchup" (one run at start for jobs whose time passed), "skip", or
	// "ask" (nothing runs: the person answers Run once or Skip). A reminder's own choice
	// overrides it.
	MissedRuns string `json:"missedRuns"`
	// Paused holds every reminder and the heartbeat (the tray's Pause
	// reminders), across restarts.
	Paused bool `json:"paused"`
}

// UI holds appearance and window behaviour.
type UI struct {
	Theme         string `json:"theme"`
	Language      string `json:"language"`
	CloseToTray   bool   `json:"closeToTray"`
	LaunchAtLogin bool   `json:"launchAtLogin"`
	// SendDuringRun is what Enter does with a message sent while a turn runs:
	// "steer", "queue" or "stop" (docs/chat.md#while-it-works).
	SendDuringRun string `json:"sendDuringRun"`
}

// Memory configures memory upkeep: Dream's passes and the review of their changes.
type Memory struct {
	Dream  Dream  `json:"dream"`
	Review Review `json:"review"`
}

// Dream is the periodic pass that folds new history into the memory files, and the
// hard budgets of each pass.
type Dream struct {
	EveryHours   int `json:"everyHours"`
	MaxTokens    int `json:"maxTokens"`
	MaxMinutes   int `json:"maxMinutes"`
	MaxToolCalls int `json:"maxToolCalls"`
}

// Review is "Review memory changes": Dream's and consolidation's edits of MEMORY.md,
// USER.md and SOUL.md wait in the memory inbox; after ExpireHours (0: never) an
// unreviewed one is discarded or applied (OnExpiry).
type Review struct {
	Enabled     bool   `json:"enabled"`
	ExpireHours int    `json:"expireHours"`
	OnExpiry    string `json:"onExpiry"`
}

// Channels configures the chat platforms the agent answers in. The bot token is
// never here: it lives in the keyring (TelegramTokenKey).
type Channels struct {
	Telegram Telegram `json:"telegram"`
	// NotifyIn is where reminders and the heartbeat notify by default: "desktop",
	// "telegram" or "both" (a reminder's own choice overrides it).
	NotifyIn string `json:"notifyIn"`
}

// Telegram configures the Telegram channel.
type Telegram struct {
	Enabled bool `json:"enabled"`
	// AllowFrom lists the user ids that may talk to the agent (pairing adds them);
	// empty allows nobody.
	AllowFrom []string `json:"allowFrom"`
	// Groups answers group chats: only messages that mention the bot or reply to it,
	// from users in AllowFrom.
	Groups bool `json:"groups"`
}

// TelegramTokenKey names the Telegram bot token's keyring entry.
const TelegramTokenKey = "channels.telegram"

// Shipped defaults (docs/design/files-and-config.md#shipped-defaults).
const (
	DefaultModel          = "ollama/qwen3:4b"
	DefaultEmbeddingModel = "ollama/nomic-embed-text"
	DefaultOpenAIBase     = "https://api.openai.com/v1"
	DefaultOllamaHost     = "http://127.0.0.1:11434"
)

// DefaultFirstTokenSeconds is generous: a local model on a CPU may take a minute to
// load before it says anything.
const DefaultFirstTokenSeconds = 120

// Default returns a new Config holding the shipped defaults.
func Default() *Config {
	return &Config{
		Agents: Agents{Defaults: AgentDefaults{
			Model:                     DefaultModel,
			EmbeddingModel:            DefaultEmbeddingModel,
			ContextTokens:             8192,
			MaxTokens:                 2048,
			Temperature:               0.3,
			MaxToolIterations:         40,
			MaxTurnMinutes:            10,
			SubagentMaxToolIterations: 15,
			MemoryWindow:              100,
			MaxToolResultChars:        16000,
			RecallBlock:               RecallBlock{Enabled: true, MinScore: 0.2, MaxChars: 0},
			Fallbacks:                 []string{},
			FirstTokenSeconds:         DefaultFirstTokenSeconds,
			IdleCompactMinutes:        10,
		}},
		Providers: Providers{
			OpenAI: OpenAIProvider{APIBase: DefaultOpenAIBase},
			Custom: map[string]OpenAIProvider{},
		},
		Tools: Tools{
			RestrictToWorkspace: true,
			AllowedPaths:        []string{},
			ProtectedPaths:      []string{},
			Exec:                Exec{Enabled: true, Timeout: 60, AllowedEnvKeys: []string{}},
			Web: Web{
				Search:    WebSearch{Provider: "duckduckgo"},
				SSRFAllow: []string{},
			},
			Approval:   Approval{Mode: "risky", Always: []string{}, Ask: []string{}, Never: []string{}},
			MCPServers: map[string]MCPServer{},
		},
		Heartbeat: Heartbeat{Enabled: true, IntervalMinutes: 30},
		Schedule:  Schedule{MissedRuns: "catchup"},
		UI:        UI{Theme: "system", Language: "auto", CloseToTray: true, SendDuringRun: "steer"},
		Memory: Memory{Dream: Dream{EveryHours: 4, MaxTokens: 60_000, MaxMinutes: 5, MaxToolCalls: 24},
			Review: Review{OnExpiry: "discard"}},
		Channels:  Channels{Telegram: Telegram{AllowFrom: []string{}}, NotifyIn: "desktop"},
		Knowledge: Knowledge{Folders: []KnowledgeFolder{}},
	}
}

// normalize replaces nil slices and maps with empty ones, so that a key written as null
// and a key left out look the same to the program and to Save.
func (c *Config) normalize() {
	for _, p := range []*[]string{
		&c.Tools.AllowedPaths, &c.Tools.ProtectedPaths, &c.Tools.Exec.AllowedEnvKeys,
		&c.Tools.Web.SSRFAllow, &c.Tools.Approval.Always, &c.Tools.Approval.Ask, &c.Tools.Approval.Never,
		&c.Channels.Telegram.AllowFrom,
	} {
		if *p == nil {
			*p = []string{}
		}
	}
	if c.Knowledge.Folders == nil {
		c.Knowledge.Folders = []KnowledgeFolder{}
	}
	if c.Providers.Custom == nil {
		c.Providers.Custom = map[string]OpenAIProvider{}
	}
	if c.Tools.MCPServers == nil {
		c.Tools.MCPServers = map[string]MCPServer{}
	}
}

// Clone returns a deep copy that remembers the same loaded file: a caller changes the
// copy, saves it, and keeps the original when the save fails.
func (c *Config) Clone() *Config {
	n := &Config{}
	data, err := json.Marshal(c)
	if err == nil {
		err = json.Unmarshal(data, n)
	}
	if err != nil { // plain data always encodes; keep a shallow copy if it ever does not
		*n = *c
		return n
	}
	n.normalize()
	n.src = c.src
	return n
}
