// Package chat is the chat service: the runs of the agent (send, stop, continue,
// one at a time per session), the tools they may use, the one builder that puts each
// request together, and the background helpers (subagents) a run may spawn. The
// other services feed it through plain interfaces and functions given to New.
package chat

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/confined"
	"hearth/backend/session"
	"hearth/backend/settings"
	"hearth/backend/subagent"
	"hearth/backend/tools"
)

// Memory is what a chat needs of the memory service.
type Memory interface {
	// Tools are memory_search and remember.
	Tools() []tools.Tool
	// Recall is the recalled-history block for the turn's message, of at most
	// roomTokens (what the window leaves it).
	Recall(ctx context.Context, sessionID, text string, roomTokens int) string
	// AfterRun is the one consolidation trigger after a run.
	AfterRun(sessionID string, historyLen, firstKept int)
	// ConsolidateAll saves the whole chat before /new archives it.
	ConsolidateAll(ctx context.Context, sessionID string) error
	// TakeFailure is a failed background consolidation not told yet.
	TakeFailure(sessionID string) error
	// Remember is /remember; its answer is worded in the UI language.
	Remember(text string) (i18n.Message, error)
	// MemoryCommand is /memory log|diff|restore: the history of the memory files.
	MemoryCommand(ctx context.Context, arg string) (i18n.Message, error)
}

// Keys hide the API keys in what the runs show and write (backend/keymask).
type Keys interface {
	// Masker is the current keys' masker, handed to the tool registries.
	Masker() *tools.Masker
	Mask(s string) string
}

// ToolSource offers tools (the web tools, the reminder tools); it is asked again when
// the settings change.
type ToolSource func() ([]tools.Tool, error)

// Options configure New. Settings, Store, Resolve, Memory and Keys are required.
type Options struct {
	Settings *settings.Service
	Keys     Keys
	// Tools are the built-in tools' parts the settings do not say: exec's sandbox
	// and environment, the observer of the file tools' writes. The rest is filled
	// in from the settings each time the tools are collected.
	Tools   tools.Options
	Store   *session.Store
	Resolve agent.ResolveFunc
	Memory  Memory
	// Gate is asked before every tool call; Observer sees every event (the audit log).
	Gate     tools.Gate
	Observer event.Sink
	// Sources add tools to the built-in ones.
	Sources []ToolSource
	// Attach keeps the files attached to messages, and AttachBlock puts them in
	// the prompt (nil: files cannot be attached).
	Attach      Attacher
	AttachBlock agent.AttachFunc
	// AttachTools are offered only in chats with attachments.
	AttachTools []string
	// Skills is what the system prompt says about skills (reach.SkillsPrompt).
	Skills prompt.SkillsFunc
	// Window is how many recent turns a session's requests keep (0: all).
	Window func(sessionID string) int
	// WaitTools waits, bounded, for tool sources still starting before a run's
	// first request (reach.WaitReady: MCP servers connecting).
	WaitTools func(ctx context.Context, notice func(level string, m i18n.Message))
	// Channel says where the user chats ("desktop", "cli"): the model is told so.
	// Empty means the desktop.
	Channel string
	// Background hears when a helper finished.
	Background *event.Broker[event.Background]
	// ModelInstalled tells /model whether a model is installed (agent.Options).
	ModelInstalled func(ctx context.Context, name string) (ok bool, installed []string, err error)
	// VisionModels names the installed models that see pictures (agent.Options).
	VisionModels func(ctx context.Context) []string
	// ToolOff says why a tool a setting turned off is missing (reach.ToolOff; agent.Options).
	ToolOff func(name string) (why i18n.Message, off bool)
	// CompactIdle saves an idle chat's long history to memory (memory's
	// Consolidator.Idle); cancelling ctx stops it before its next write. Nil
	// compacts nothing.
	CompactIdle func(ctx context.Context, sessionID string) (int, error)
	// IdleAfter is how long a chat stays idle before CompactIdle runs (0: never); nil
	// reads agents.defaults.idleCompactMinutes. Compacted hears each idle compaction
	// that saved something or failed (the Activity log).
	IdleAfter func() time.Duration
	Compacted func(sessionID string, started time.Time, saved int, err error)
}

// Service is the chat service. It is safe for concurrent use.
type Service struct {
	opts     Options
	registry *tools.Registry // the main agent's tools
	subTools *tools.Registry // the helpers': the same minus spawn, message and cron
	runner   *agent.Runner
	helpers  *helpers
	idle     *idler

	collecting sync.Mutex // collect

	mu     sync.Mutex
	masker *tools.Masker   // the registries'; set by the first run (making it may ask the keyring)
	prompt *prompt.Builder // the system prompt of the current workspace
	ws     string          // that workspace
	static []string        // the tools collect registered (MCP adds its own)
}

// New builds the service: the registries with every tool, the runner and the helpers.
// It reads no file and starts nothing.
func New(opts Options) (*Service, error) {
	if opts.Settings == nil || opts.Store == nil || opts.Resolve == nil || opts.Memory == nil || opts.Keys == nil {
		return nil, errors.New("chat: Settings, Store, Resolve, Memory and Keys are required")
	}
	if opts.Window == nil {
		opts.Window = func(string) int { return 0 }
	}
	s := &Service{opts: opts,
		registry: tools.NewRegistry(tools.RegistryOptions{}),
		subTools: tools.NewRegistry(tools.RegistryOptions{}),
	}
	s.idle = s.newIdler()
	_ = s.newPrompt()            // an unusable workspace is told by Start
	est := prompt.NewEstimator() // calibrated per model from the provider's counts
	var err error
	s.runner, err = agent.New(agent.Options{
		Resolve: opts.Resolve,
		Tools:   s.registry,
		Store:   opts.Store,
		Context: &agent.PromptContext{System: s.systemPrompt, Estimator: est, Recall: opts.Memory.Recall,
			Window: opts.Window, Attach: opts.AttachBlock, AttachTools: opts.AttachTools},
		Estimator:      est,
		Tune:           s.tuning,
		Channel:        cmp.Or(opts.Channel, prompt.ChannelDesktop),
		Gate:           opts.Gate,
		Observer:       opts.Observer,
		Redact:         opts.Keys.Mask,
		Pending:        s.pending,
		OnStop:         s.stopHelpers,
		ModelInstalled: opts.ModelInstalled,
		VisionModels:   opts.VisionModels,
		ToolOff:        opts.ToolOff,
		WaitTools:      opts.WaitTools,
		OnNew:          opts.Memory.ConsolidateAll,
		AfterRun: func(r agent.Result) {
			opts.Memory.AfterRun(r.SessionID, r.HistoryLen, r.FirstKept)
			s.idle.turnEnded(r.SessionID)
		},
		Commands: map[string]agent.Command{"remember": {
			Help: i18n.M("slash.help.remember"),
			Run:  func(_ context.Context, _, arg string) (agent.Reply, error) { return reply(opts.Memory.Remember(arg)) },
		}, "memory": {
			Help: i18n.M("slash.help.memory"),
			Run: func(ctx context.Context, _, arg string) (agent.Reply, error) {
				return reply(opts.Memory.MemoryCommand(ctx, arg))
			},
		}},
	})
	if err != nil {
		return nil, fmt.Errorf("chat: %w", err)
	}
	if s.helpers, err = s.newHelpers(); err != nil {
		return nil, err
	}
	if err := s.collect(); err != nil {
		return nil, err
	}
	return s, nil
}

// reply is a memory command's answer as a reply.
func reply(m i18n.Message, err error) (agent.Reply, error) {
	if err != nil {
		return nil, err
	}
	return agent.Reply{m}, nil
}

// tuning is what a run starting now takes from the settings.
func (s *Service) tuning() agent.Tuning {
	cfg := s.opts.Settings.Config()
	d := cfg.Agents.Defaults
	temp := d.Temperature
	return agent.Tuning{DefaultModel: d.Model, MaxToolIterations: d.MaxToolIterations, ContextTokens: d.ContextTokens,
		TurnTime:  time.Duration(d.MaxTurnMinutes) * time.Minute,
		MaxTokens: d.MaxTokens, Temperature: &temp, MaxToolResultChars: d.MaxToolResultChars,
		Workspace: s.opts.Settings.Paths().Workspace, Fallbacks: d.Fallbacks,
		FirstToken: time.Duration(d.FirstTokenSeconds) * time.Second, CloudDown: d.FallbackOnCloudDown}
}

// newPrompt makes the system prompt's builder for the current workspace.
func (s *Service) newPrompt() error {
	// Persona and memory files are read confined to the workspace: one that is a
	// symlink out (MEMORY.md → config.json) is left out with a warning.
	ws := s.opts.Settings.Paths().Workspace
	pb, err := prompt.New(prompt.Options{Workspace: ws, Skills: s.opts.Skills, FS: confined.Files{Dir: ws}})
	s.mu.Lock()
	s.prompt, s.ws = pb, ws // pb is nil when the workspace is unusable
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("chat: %w", err)
	}
	return nil
}

func (s *Service) systemPrompt() (string, error) {
	s.mu.Lock()
	pb := s.prompt
	s.mu.Unlock()
	if pb == nil {
		return "", errors.New("no usable workspace (hint: fix --workspace or agents.defaults.workspace)")
	}
	return pb.SystemPrompt()
}

// collect registers every tool but MCP's from the current settings: the built-in
// ones, the sources', memory's and spawn. Tools that are gone (exec turned off) are
// withdrawn.
func (s *Service) collect() error {
	s.collecting.Lock() // one at a time: the last to register saw every source and setting
	defer s.collecting.Unlock()
	cfg, paths := s.opts.Settings.Config(), s.opts.Settings.Paths()
	o := s.opts.Tools
	o.Policy = tools.Policy{
		Workspace:    paths.Workspace,
		Unrestricted: !cfg.Tools.RestrictToWorkspace,
		AllowedPaths: cfg.WritablePaths(), // tools.allowedPaths and writable knowledge folders
		// The config file holds keys and the sandbox rules: never writable.
		ProtectedPaths: append(slices.Clone(cfg.Tools.ProtectedPaths), paths.ConfigFile),
		Knowledge:      cfg.KnowledgeReadOnly(),
	}
	o.MaxResultChars = cfg.Agents.Defaults.MaxToolResultChars
	o.Exec.Timeout, o.Exec.AllowedEnvKeys = time.Duration(cfg.Tools.Exec.Timeout)*time.Second, cfg.Tools.Exec.AllowedEnvKeys
	o.Exec.Unconfined, o.Exec.Network = !cfg.Tools.Exec.SandboxOn(), cfg.Tools.Exec.Network && !cfg.LocalOnly
	o.Exec.Hidden, o.Exec.SSHAgent = paths.HearthDirs(), cfg.Tools.Exec.SSHAgent
	o.DisableExec = !cfg.Tools.Exec.Enabled
	all := tools.Builtins(o)
	s.mu.Lock()
	sources := s.opts.Sources
	s.mu.Unlock()
	for _, src := range sources {
		ts, err := src()
		if err != nil {
			return fmt.Errorf("chat: tools: %w", err)
		}
		all = append(all, ts...)
	}
	all = append(all, s.opts.Memory.Tools()...)
	all = append(all, s.helpers.mgr.Tool())
	names := make([]string, 0, len(all))
	var sub []tools.Tool
	for _, t := range all {
		names = append(names, t.Name())
		if !slices.Contains(subagent.Excluded, t.Name()) {
			sub = append(sub, t)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, old := range s.static {
		if !slices.Contains(names, old) {
			s.registry.Unregister(old)
			s.subTools.Unregister(old)
		}
	}
	s.static = names
	if err := s.registry.Register(all...); err != nil {
		return fmt.Errorf("chat: tools: %w", err)
	}
	if err := s.subTools.Register(sub...); err != nil {
		return fmt.Errorf("chat: tools: %w", err)
	}
	return nil
}

// AddSource adds the tools of a service built after the chat (the reminders', which
// start their runs here) and collects the tools again.
func (s *Service) AddSource(src ToolSource) error {
	s.mu.Lock()
	s.opts.Sources = append(slices.Clip(s.opts.Sources), src)
	s.mu.Unlock()
	return s.collect()
}

// pending is how many bytes at the end of a streamed reply may begin a key.
func (s *Service) pending(text string) int { return s.opts.Keys.Masker().Pending(text) }

// mask hands the registries the Masker of the current keys: every tool result is
// masked with it. Keys reports a new one after a key changed.
func (s *Service) mask() {
	m := s.opts.Keys.Masker()
	s.mu.Lock()
	defer s.mu.Unlock()
	if m != s.masker {
		s.masker = m
		s.registry.SetMasker(m)
		s.subTools.SetMasker(m)
	}
}

// Registries are where MCP tools go: the main agent's and the helpers'.
func (s *Service) Registries() []*tools.Registry { return []*tools.Registry{s.registry, s.subTools} }

// Apply follows a settings change: the tools are collected again (exec turned off is
// withdrawn; registering the same tools again costs microseconds) and the system
// prompt follows a moved workspace. Runs already going keep what they started with;
// the limits (model, tokens, iterations) and the keys' Masker are taken by each run
// as it starts.
func (s *Service) Apply() {
	s.mu.Lock()
	moved := s.ws != s.opts.Settings.Paths().Workspace
	s.mu.Unlock()
	if moved {
		if err := s.newPrompt(); err != nil {
			slog.Warn("system prompt of the new workspace", "err", err)
		}
	}
	if err := s.collect(); err != nil {
		slog.Warn("tools not updated after a settings change", "err", err)
	}
}

// Close stops accepting runs and interrupts the running ones (they are kept on disk
// as interrupted and can be continued after the next start), then cancels the
// helpers, waiting for both until ctx is done.
func (s *Service) Close(ctx context.Context) error {
	err := s.runner.Shutdown(ctx)
	s.idle.close()
	return errors.Join(err, s.helpers.close(ctx))
}
