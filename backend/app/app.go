// Package app is Hearth's composition root: New builds every service once from the
// config and the paths, Start starts what runs in the background, Close ends it all in
// order. The command line (backend/cli) and the desktop window (app.go) both use it;
// it is the only package that knows every service.
package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"hearth/backend/activity"
	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/applock"
	"hearth/backend/chat"
	"hearth/backend/config"
	"hearth/backend/dream"
	"hearth/backend/event"
	"hearth/backend/fitness"
	"hearth/backend/guard"
	"hearth/backend/i18n"
	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/nofollow"
	"hearth/backend/llm"
	"hearth/backend/memory"
	"hearth/backend/models"
	"hearth/backend/reach"
	"hearth/backend/recall"
	"hearth/backend/reminders"
	"hearth/backend/sandbox"
	"hearth/backend/schedule"
	keystore "hearth/backend/secrets"
	"hearth/backend/sessions"
	"hearth/backend/settings"
	"hearth/backend/tools"
	"hearth/backend/workspace"
)

// Options configure New. The zero value works: the default config file and
// workspace, os.Getenv, the OS keyring and the system clock.
type Options struct {
	ConfigPath    string              // --config flag value; empty means $XDG_CONFIG_HOME/hearth/config.json
	WorkspaceFlag string              // --workspace flag value; empty means config, then default
	Getenv        func(string) string // nil means os.Getenv
	Version       string              // Hearth's version, reported by Status
	// Retry bounds the retries of model calls; the zero value is llm's default
	// (a few attempts with backoff, for an Ollama that is still starting).
	Retry llm.RetryPolicy
	// Keyring stores API keys; nil means the OS keyring.
	Keyring keystore.Keyring
	// Env is the process's environment as it started (used when Getenv is nil):
	// the variables holding secrets are dropped from the process environment once
	// the config is read (docs/safety.md, "Secrets"). Nil drops nothing.
	Env *keystore.Env
	// Clock drives reminders and the heartbeat; nil means the system clock.
	Clock schedule.Clock
	// Terminal says the user chats in a terminal (the CLI), not in the window: the
	// model is told so.
	Terminal bool
}

// App holds every service. The fields are set by New and never change.
type App struct {
	Settings  *settings.Service
	Guard     *guard.Service
	Sessions  *sessions.Service
	Models    *models.Service
	Memory    *memory.Service
	Reach     *reach.Service
	Chat      *chat.Service
	Reminders *reminders.Service
	Dream     *dream.Service // memory upkeep, a system job beside the reminders
	// Activity is what runs now (chats, reminders, the heartbeat, Dream): the tray
	// lists it with Stop (StopWork).
	Activity *activity.Board

	// News the window (and tests) subscribe to.
	MemoryNews     *event.Broker[event.MemoryChanged]
	BackgroundNews *event.Broker[event.Background]
	CheckNews      *event.Broker[fitness.Result] // a model's fitness check finished

	agentWrites agentWrites // the model's file tools writing memory files (memwrites.go)

	mu        sync.Mutex
	started   bool // MCP and the watcher
	reminders bool // the scheduler and the heartbeat
	closed    bool

	rest rest // what the app gives back once it rests (rest.go)
}

// Touch tells the app it works now: once it has rested after the last touch it gives
// back what the work left behind (rest.go). The window touches it when it loads a
// chat; the runs touch it as they begin and end.
func (a *App) Touch() { a.rest.touch() }

// Rest tells the app its work is over now, without waiting for the rest's timer: the
// desktop calls it when the window has had no input for the caret's blink timeout and
// stops painting, so what that input made resident is given back too.
func (a *App) Rest() { a.rest.now() }

// New builds every service from the config and the paths. It is cheap: it creates
// no sessions directory, opens no network connection and starts no process; a broken
// config gives the defaults and is reported by Settings.ConfigError and Status.
func New(opts Options) (*App, error) {
	a := &App{
		MemoryNews:     event.NewBroker[event.MemoryChanged](0),
		BackgroundNews: event.NewBroker[event.Background](0),
		CheckNews:      event.NewBroker[fitness.Result](0),
	}
	a.Activity = activity.New(func() {
		a.Touch()
		a.BackgroundNews.Publish(event.Background{Kind: event.BackgroundActivity})
	})
	a.agentWrites.a = a
	a.Settings = settings.Open(settings.Options{ConfigPath: opts.ConfigPath, WorkspaceFlag: opts.WorkspaceFlag,
		Getenv: opts.Getenv, Env: opts.Env, Version: opts.Version, Keyring: opts.Keyring,
		Changed: a.settingsChanged, Sandbox: sandbox.New(sandbox.Options{Exe: sandboxExe(envGetter(opts))}),
		Recall: func(ctx context.Context, up bool) (string, i18n.Message) { return a.Models.CheckRecall(ctx, up) },
		Ollama: func(ctx context.Context, host string) (string, string) { return a.Models.CheckOllama(ctx, host) },
		Engine: func(host string) settings.OllamaEngine { return a.Models.Engine(host) }})
	a.rest.add(a.Settings.Egress().CloseIdle)
	sweepLeftovers(a.Settings.Paths())
	a.Guard = guard.New(a.Settings, func(tool string) i18n.Message { return a.Chat.SandboxNote(tool) })
	a.Models = models.New(a.Settings, models.Options{Retry: opts.Retry, Checked: a.CheckNews,
		Pulled: func(string) { a.Memory.Recheck() }})
	a.Reach = reach.New(a.Settings)
	a.Sessions = sessions.New(sessions.Options{
		Dir:       a.Settings.Paths().SessionsDir,
		Workspace: func() string { return a.Settings.Paths().Workspace },
		InUse:     func(id string) error { return a.Chat.InUse(id) },
		Deleted:   a.Guard.Gate.ForgetChat, // a new chat under the same id asks again
		Mask:      a.Settings.Keys().Mask,
	})
	a.Memory = memory.NewService(a.memoryOptions(), a.MemoryNews)
	a.Dream = dream.New(a.dreamOptions())
	clock := cmp.Or[schedule.Clock](opts.Clock, schedule.SystemClock{})
	a.Reminders = reminders.New(reminders.Options{Settings: a.Settings, Runs: runs{a}, Sessions: a.Sessions.Store(),
		News: a.BackgroundNews, Clock: clock, Tasks: func() (string, error) {
			f, err := a.Memory.Store().Read("HEARTBEAT.md")
			return f.Content, err
		}})
	var err error
	a.Chat, err = chat.New(chat.Options{
		Settings: a.Settings, Store: a.Sessions.Store(), Resolve: a.Models.ResolveChat, Memory: a.Memory,
		Gate: a.Guard.Gate, Skills: a.Reach.SkillsPrompt, Window: heartbeatWindow,
		Observer: func(ev event.Event) {
			a.Guard.Audit.Observe(ev)
			a.Models.Observe(ev)
			a.observeActivity(ev)
			a.agentWrites.observe(ev)
		},
		WaitTools:  a.Reach.WaitReady,
		Background: a.BackgroundNews, Channel: channel(opts.Terminal), ModelInstalled: a.modelInstalled,
		ToolOff: a.Reach.ToolOff,
		Sources: []chat.ToolSource{a.Reach.Tools, func() ([]tools.Tool, error) {
			return schedule.Tools(a.Reminders, a.Reminders.Post, clock.Now, nil), nil
		}},
	})
	if err != nil {
		return nil, fmt.Errorf("hearth: %w", err)
	}
	return a, nil
}

// runs lets the reminders start turns on the chat service, which is built after them
// (the chat offers the reminders' tools).
type runs struct{ a *App }

func (r runs) Start(ctx context.Context, req agent.Request, sink event.Sink) (*agent.Run, error) {
	return r.a.Chat.Start(ctx, req, sink)
}

func channel(terminal bool) string {
	if terminal {
		return prompt.ChannelCLI
	}
	return prompt.ChannelDesktop
}

// Env is the process's environment as it started (see secrets.Env): the CLI
// captures it first thing and hands it to New.
type Env = keystore.Env

// CaptureEnv records the current environment.
func CaptureEnv() *Env { return keystore.CaptureEnv() }

// sweepLeftovers removes the temporary files writes killed half-way (a crash, a
// kill -9) left beside their targets in Hearth's own folders: the config folder
// when it is Hearth's, the data and state folders, sessions, reminders, the
// workspace's state folder, and the workspace's memory/ and .hearth/ (never the
// rest of the workspace: those are your files). In the workspace a folder is
// reached without following a link and only regular files go: a command could
// have made .hearth a link to another folder. See docs/safety.md, "Bad input".
func sweepLeftovers(p config.Paths) {
	dirs := []string{p.DataDir, p.SessionsDir, p.CronDir, p.StateDir}
	if filepath.Base(p.ConfigDir) == "hearth" {
		dirs = append(dirs, p.ConfigDir)
	}
	if p.Workspace != "" && p.WorkspacesDir != "" {
		st := workspace.StateDir(p.WorkspacesDir, p.Workspace)
		dirs = append(dirs, st, filepath.Join(st, "inbox"))
	}
	removed := atomicfile.Sweep(time.Now(), dirs...)
	if p.Workspace != "" {
		for _, sub := range []string{"memory", ".hearth"} {
			removed = append(removed, sweepConfined(p.Workspace, sub)...)
		}
	}
	if len(removed) > 0 {
		slog.Info("removed temporary files of interrupted writes", "files", removed)
	}
}

// sweepConfined is atomicfile.Sweep for the folder sub of the workspace, opened
// without following a link.
func sweepConfined(ws, sub string) []string {
	d, err := nofollow.OpenDir(ws, sub)
	if err != nil {
		return nil
	}
	defer d.Close()
	ents, err := d.ReadDir(-1)
	if err != nil {
		return nil
	}
	var removed []string
	now := time.Now()
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil || !e.Type().IsRegular() || !atomicfile.Leftover(e.Name(), fi.ModTime(), now) {
			continue
		}
		if nofollow.RemoveRegular(d, e.Name()) == nil {
			removed = append(removed, filepath.Join(d.Name(), e.Name()))
		}
	}
	return removed
}

// envGetter is how opts reads the environment.
func envGetter(opts Options) func(string) string {
	if opts.Getenv == nil && opts.Env != nil {
		return opts.Env.Getenv
	}
	return opts.Getenv
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

// heartbeatWindow keeps the heartbeat chat's requests to its last turns: it runs
// every half hour and must not send a longer history each time.
func heartbeatWindow(sessionID string) int {
	if sessionID == schedule.HeartbeatSession {
		return schedule.HeartbeatTurns
	}
	return 0
}

// memoryOptions are the memory service's settings from the current config.
func (a *App) memoryOptions() memory.ServiceOptions {
	cfg, paths := a.Settings.Config(), a.Settings.Paths()
	d := cfg.Agents.Defaults
	return memory.ServiceOptions{Workspace: paths.Workspace, IndexDir: paths.IndexDir,
		StateDir: workspace.StateDir(paths.WorkspacesDir, paths.Workspace), Migrate: moveState, EmbeddingModel: d.EmbeddingModel,
		Resolve: a.Models.Resolve, DefaultModel: d.Model, Window: d.MemoryWindow, ContextTokens: d.ContextTokens,
		Block:    recall.BlockOptions{Enabled: d.RecallBlock.Enabled, MinScore: d.RecallBlock.MinScore, MaxChars: d.RecallBlock.MaxChars},
		Sessions: a.Sessions.Store(), Review: a.reviewSettings, SaveReview: a.saveReviewSettings}
}

// settingsChanged hands a saved change to the services that depend on it, in the
// order they depend on each other (memory's tools before the chat collects them);
// each rebuilds what it uses only if that changed.
func (a *App) settingsChanged() {
	a.Memory.Apply(a.memoryOptions())
	a.Reach.Apply()
	if a.Chat != nil { // nil only while New runs
		a.Chat.Apply()
	}
	a.BackgroundNews.Publish(event.Background{Kind: event.BackgroundSettings})
}

// StartOptions say what Start runs.
type StartOptions struct {
	// Lock proves this process holds hearth.lock: only then do the reminders
	// scheduler and the heartbeat run (the desktop app; nil for the CLI).
	Lock *applock.Lock
	// Rested runs each time the app has rested after work (rest.go), after what the app
	// itself gives back and Go's collection: the desktop returns its C heap's free pages.
	Rested func()
	// WatchMemory watches the memory files for edits made outside Hearth while the
	// app runs (the desktop). A command needs no watcher and pays for closing one.
	WatchMemory bool
}

// Start starts what runs in the background: the MCP servers connect (a run waits
// for them, bounded, before its first request), the memory history catches up (and
// with WatchMemory the memory files are watched), and with the lock the reminders
// and the heartbeat run. What is started already is not started again: the desktop starts the first part as its window opens and the
// reminders once it holds the tray.
func (a *App) Start(ctx context.Context, opts StartOptions) error {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil
	}
	first, reminders := !a.started, opts.Lock != nil && !a.reminders
	a.started, a.reminders = true, a.reminders || reminders
	a.mu.Unlock()
	if opts.Rested != nil {
		a.rest.addRested(opts.Rested)
	}
	a.Touch() // start-up's work (checks, the index) is a burst like any other
	var err error
	if first {
		a.migrateReviewSettings()
		a.Reach.Start(ctx, a.Chat.Registries()...)
		err = a.Memory.Start(ctx)
	}
	if opts.WatchMemory && !a.Memory.Watching() {
		err = errors.Join(err, a.Memory.Watch())
	}
	if reminders {
		err = errors.Join(err, a.Reminders.Start(ctx, opts.Lock))
		a.Dream.Start(ctx) // like the reminders: only in the process holding hearth.lock
	}
	return err
}

// Close ends everything in order, waiting until ctx is done: running turns are
// interrupted and kept on disk (the next start can continue them) and their helpers
// cancelled; the reminders and the heartbeat stop; MCP servers end with their whole
// process groups; consolidations finish, or are abandoned before they write when ctx
// ends first; the file watcher stops; model pulls are cancelled. Closing twice does
// nothing.
func (a *App) Close(ctx context.Context) error {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nil
	}
	a.closed = true
	a.mu.Unlock()
	a.rest.stop()
	err := a.Chat.Close(ctx)
	err = errors.Join(err, a.Reminders.Close(ctx), a.Dream.Close(ctx), a.Reach.Close(ctx), a.Memory.Close(ctx))
	a.Models.Close()
	a.MemoryNews.Close()
	a.BackgroundNews.Close()
	a.CheckNews.Close()
	return err
}

// SaveSettings validates and saves the Settings view's form; when a reply is running
// the result says the change applies from the next one.
func (a *App) SaveSettings(in settings.Settings) (settings.SaveResult, error) {
	return a.Settings.SaveSettings(in, a.Chat.Running)
}
