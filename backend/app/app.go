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
	"hearth/backend/agent/prompt"
	"hearth/backend/applock"
	"hearth/backend/attach"
	"hearth/backend/channels"
	"hearth/backend/chat"
	"hearth/backend/cleanpages"
	"hearth/backend/config"
	"hearth/backend/dream"
	"hearth/backend/egress"
	"hearth/backend/event"
	"hearth/backend/fitness"
	"hearth/backend/guard"
	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/nofollow"
	"hearth/backend/keymask"
	"hearth/backend/knowledge"
	"hearth/backend/llm"
	"hearth/backend/mcp"
	"hearth/backend/memory"
	"hearth/backend/models"
	"hearth/backend/reach"
	"hearth/backend/recall"
	"hearth/backend/reminders"
	"hearth/backend/sandbox"
	"hearth/backend/schedule"
	keystore "hearth/backend/secrets"
	"hearth/backend/session"
	"hearth/backend/sessions"
	"hearth/backend/settings"
	"hearth/backend/tools"
	"hearth/backend/web"
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
	// IdleAfter replaces agents.defaults.idleCompactMinutes when set (tests, benchmarks).
	IdleAfter time.Duration
	// Telegram connects the Telegram adapter with a bot token (channels.Options.Open);
	// nil is the real adapter (backend/channels/telegram).
	Telegram func(token string) (channels.Channel, error)
	// TelegramAPI is the Bot API's address for the real adapter ("" is Telegram's;
	// tests pass a fake's).
	TelegramAPI string
}

// App holds every service. The fields are set by New and never change.
type App struct {
	Settings  *settings.Service
	Guard     *guard.Service
	Sessions  *sessions.Service
	Models    *models.Service
	Memory    *memory.Service
	Knowledge *knowledge.Service // the knowledge folders, indexed in memory's recall index
	Reach     *reach.Service
	Chat      *chat.Service
	Reminders *reminders.Service
	// Channels carry chats to and from platforms (Telegram): pairing, turns, approvals, notices.
	Channels *channels.Service
	Dream    *dream.Service // memory upkeep, a system job beside the reminders
	// Activity is what runs now (chats, reminders, the heartbeat, Dream): the tray
	// lists it with Stop (StopWork).
	Activity *activity.Board

	// Sandbox confines the commands exec and sandboxed MCP servers run.
	Sandbox *sandbox.Sandbox
	// Egress is the door every outbound connection goes through: local-only mode's
	// refusal and the egress log.
	Egress *egress.Guard
	// Keys hide the API keys in what Hearth shows, logs and writes.
	Keys *keymask.Keys
	// Attach keeps the files attached to the chats' messages.
	Attach *attach.Store

	// News the window (and tests) subscribe to.
	MemoryNews     *event.Broker[event.MemoryChanged]
	BackgroundNews *event.Broker[event.Background]
	CheckNews      *event.Broker[fitness.Result] // a model's fitness check finished

	store     *session.Store        // the chats' files: the chat runs, memory, Dream and the reminders use it
	pulled    *event.Broker[string] // models pulled (followPulls)
	pulls     sync.WaitGroup        // followPulls' goroutine
	stopPulls context.CancelFunc    // ends it

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

// New builds every service from the config and the paths, each after what it uses:
// no service is handed one not built yet. It is cheap: it creates no sessions
// directory, opens no network connection and starts no process; a broken config
// gives the defaults and is reported by Settings.ConfigError and Status.
func New(opts Options) (*App, error) {
	a := &App{
		MemoryNews:     event.NewBroker[event.MemoryChanged](0),
		BackgroundNews: event.NewBroker[event.Background](0),
		CheckNews:      event.NewBroker[fitness.Result](0),
		pulled:         event.NewBroker[string](0),
	}
	a.Activity = activity.New(func() {
		a.Touch()
		a.BackgroundNews.Publish(event.Background{Kind: event.BackgroundActivity})
	})
	st := settings.Open(settings.Options{ConfigPath: opts.ConfigPath, WorkspaceFlag: opts.WorkspaceFlag,
		Getenv: opts.Getenv, Env: opts.Env, Version: opts.Version, Keyring: opts.Keyring})
	a.Settings = st
	sweepLeftovers(st.Paths())

	// What the settings do not hold: the sandbox, the door out and the key masker,
	// handed to each service that needs them.
	a.Sandbox = sandbox.New(sandbox.Options{Exe: sandboxExe(envGetter(opts))})
	a.Egress = egress.New(egress.Options{
		LocalOnly:  func() bool { return st.Config().LocalOnly },
		OllamaHost: func() string { return st.Config().OllamaHost(st.Getenv) },
		Dir:        func() string { return st.Paths().EgressDir() },
	})
	a.rest.add(a.Egress.CloseIdle)
	a.Keys = keymask.New(keymask.Options{Config: st.Config, Resolve: st.Keys().Resolve, Version: st.Keys().Version, Env: opts.Env})
	a.store = session.NewStore(st.Paths().SessionsDir, session.Options{Mask: a.Keys.Mask})

	a.Guard = guard.New(st, a.Keys.Mask)
	a.Models = models.New(st, models.Options{Retry: opts.Retry, Egress: a.Egress, Checked: a.CheckNews, Pulled: a.pulled})
	a.Reach = reach.New(st, reach.Options{Mask: a.Keys.Mask, Web: web.Options{Egress: a.Egress},
		MCP: mcp.Options{Sandbox: a.Sandbox, HTTPTransport: a.Egress.Transport("MCP server")}})
	// The knowledge folders are indexed into memory's recall index, which memory
	// hands it as it builds one.
	a.Knowledge = knowledge.New(knowledge.Options{Settings: st, Open: openInViewer})
	a.Memory = memory.NewService(a.memoryOptions(), a.MemoryNews)
	a.Dream = dream.New(a.dreamOptions())
	a.Attach = newAttach(st)
	var err error
	a.Chat, err = chat.New(chat.Options{
		Settings: st, Keys: a.Keys, Store: a.store, Resolve: a.Models.ResolveChat, Memory: a.Memory,
		Tools: tools.Options{Exec: tools.ExecOptions{Sandbox: a.Sandbox, LookupEnv: a.Keys.LookupEnv}, Writes: a.Memory},
		Gate:  a.Guard.Gate, Skills: a.Reach.SkillsPrompt, Window: heartbeatWindow,
		Observer: func(ev event.Event) {
			a.Guard.Audit.Observe(ev)
			a.Models.Observe(ev)
			a.observeActivity(ev)
		},
		WaitTools:  a.Reach.WaitReady,
		Background: a.BackgroundNews, Channel: channel(opts.Terminal), ModelInstalled: a.modelInstalled, VisionModels: a.visionModels,
		ToolOff: a.Reach.ToolOff,
		Sources: []chat.ToolSource{a.Reach.Tools, attachTools(a.Attach)}, Attach: attacher{a.Attach}, AttachBlock: a.Attach.Block, AttachTools: attach.ToolNames(),
		CompactIdle: a.compactIdle, Compacted: a.compacted, IdleAfter: opts.idleAfter(),
	})
	if err != nil {
		return nil, fmt.Errorf("hearth: %w", err)
	}
	// The reminders start their runs in the chat, which offers their tools.
	clock := cmp.Or[schedule.Clock](opts.Clock, schedule.SystemClock{})
	a.Reminders = reminders.New(reminders.Options{Settings: st, Runs: a.Chat, Sessions: a.store,
		News: a.BackgroundNews, Clock: clock, Deliver: a.deliver, Tasks: func() (string, error) {
			f, err := a.Memory.Store().Read("HEARTBEAT.md")
			return f.Content, err
		}})
	if err := a.Chat.AddSource(func() ([]tools.Tool, error) {
		return schedule.Tools(a.Reminders, a.Reminders.Post, clock.Now, nil), nil
	}); err != nil {
		return nil, fmt.Errorf("hearth: %w", err)
	}
	a.Channels = channels.New(a.channelsOptions(opts))
	a.Sessions = sessions.New(sessions.Options{
		Store:     a.store,
		Workspace: func() string { return st.Paths().Workspace },
		InUse:     a.Chat.InUse,
		Deleted: func(id string) {
			a.Guard.Gate.ForgetChat(id) // a new chat under the same id asks again
			a.forgetAttachments(id)
		},
	})
	// A saved setting reaches the services that depend on it, now that they exist.
	st.Follow(a.settingsChanged)
	a.followPulls()
	return a, nil
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
		Sessions: a.store, Review: a.reviewSettings, SaveReview: a.saveReviewSettings,
		Hide: knowledge.HiddenIn(cfg), Indexed: a.Knowledge.UseIndex}
}

// settingsChanged hands a saved change to the services that depend on it, in the
// order they depend on each other (memory's tools before the chat collects them);
// each rebuilds what it uses only if that changed.
func (a *App) settingsChanged() {
	a.Memory.Apply(a.memoryOptions())
	a.Knowledge.Apply()
	a.Reach.Apply()
	a.Chat.Apply()
	a.Channels.Apply()
	a.BackgroundNews.Publish(event.Background{Kind: event.BackgroundSettings})
}

// StartOptions say what Start runs.
type StartOptions struct {
	// Lock proves this process holds hearth.lock: only then do the reminders
	// scheduler and the heartbeat run (the desktop app; nil for the CLI).
	Lock *applock.Lock
	// Rested runs each time the app has rested after work (rest.go), after what the app
	// itself gives back and Go's collection: the desktop returns its C heap's free pages
	// and unmaps the code and data its last burst ran (backend/cleanpages).
	Rested func()
	// DropStartPages gives back, once Start has started the services, the pages of the
	// binary that start-up ran (reading the config, building the services): code that
	// runs once (backend/cleanpages). The command line and the desktop set it.
	DropStartPages bool
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
		if opts.DropStartPages {
			cleanpages.DropBinary()
		}
	}
	if opts.WatchMemory && !a.Memory.Watching() {
		err = errors.Join(err, a.Memory.Watch())
	}
	if opts.WatchMemory && !a.Knowledge.Watching() {
		err = errors.Join(err, a.Knowledge.Watch(ctx)) // the folders are indexed as it starts
	}
	if reminders {
		err = errors.Join(err, a.Reminders.Start(ctx, opts.Lock))
		a.Dream.Start(ctx) // like the reminders: only in the process holding hearth.lock
		err = errors.Join(err, a.Channels.Start(ctx))
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
	a.stopPulls() // before memory closes: no recheck reopens its index
	a.pulls.Wait()
	err := a.Channels.Close(ctx) // no new messages; the answers being streamed send their last edit
	err = errors.Join(err, a.Chat.Close(ctx))
	a.Knowledge.Close() // before memory closes its index
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
