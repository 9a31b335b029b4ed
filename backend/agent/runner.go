// Package agent is Hearth's agent core: the Runner drives the ReAct loop
// (docs/design/agent-loop.md#the-loop) — build the context, stream the model, run the tool calls through
// the tools Registry, append the results, repeat until a plain answer — and
// reports everything it does as one ordered stream of Events (docs/design/events.md#one-stream-per-run) that
// the UI, the CLI, the audit log and the tests all consume.
//
// Runs are checkpointed in the session store as they go (docs/design/agent-loop.md#checkpoints), can
// be stopped within a second (docs/design/agent-loop.md#stopping-a-run), run one at a time per session
// (a Send to a busy session fails with ErrBusy:
// docs/design/agent-loop.md#one-run-per-session) and run read-only
// tools of one response concurrently (docs/design/agent-loop.md#parallel-read-only-tools).
package agent

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// Defaults of Options.
const (
	DefaultMaxToolIterations = 40
	DefaultContextTokens     = llm.DefaultContextTokens
	DefaultMaxTokens         = 2048
)

// ErrBusy is returned by Start when the session already has a run (docs/design/agent-loop.md#one-run-per-session).
var ErrBusy = errors.New("session is busy")

// ErrNothingToContinue is returned by Continue when no run was interrupted.
var ErrNothingToContinue = errors.New("nothing to continue")

// ResolveFunc maps a configured model name ("ollama/qwen3:4b", or
// "qwen3:4b" for the default provider) to its provider and the provider's own
// model name. The models service builds it from config.ResolveModel.
type ResolveFunc func(name string) (llm.Provider, string, error)

// Options configure a Runner. Resolve, Tools and Store are required.
type Options struct {
	Resolve ResolveFunc
	Tools   *tools.Registry
	Store   *session.Store
	// Context builds each request; nil means PlainContext{}.
	Context ContextBuilder
	// Gate is consulted before every tool call; nil allows all.
	Gate tools.Gate
	// DefaultModel is used when neither the call nor the session names one.
	DefaultModel string
	// Workspace is where oversized tool results are spilled (docs/design/prompt-size.md#compaction).
	Workspace string
	// MaxToolIterations bounds the model calls that ask for tools (default 40).
	MaxToolIterations int
	// TurnTime bounds a turn's wall-clock time (default DefaultTurnTime).
	TurnTime time.Duration
	// ContextTokens is the window (num_ctx) before the model's own cap.
	ContextTokens int
	// MaxTokens caps each reply (default 2048).
	MaxTokens   int
	Temperature *float64
	// MaxToolResultChars spills longer results to a file (default 16000).
	MaxToolResultChars int
	// Channel is reported to the context builder ("desktop", "cli", …).
	Channel string
	// Observer sees every event of every run after the run's own sink (audit
	// log, activity view).
	Observer event.Sink
	// OnNew runs before /new archives a session: the hook for memory
	// consolidation (docs/design/memory.md#consolidation). An error keeps the session as it is.
	OnNew func(ctx context.Context, sessionID string) error
	// AfterRun is told how every run ended (not slash commands), on the run's
	// goroutine after run_finished and before Wait returns: the one place where
	// the chat service asks memory to consolidate what fell out of the window.
	// It should only start work.
	AfterRun func(Result)
	// Commands are extra slash commands by name without the slash (memory's
	// /remember); built-in names win.
	Commands map[string]Command
	// Estimator is the context builder's token estimator, told the provider's
	// counts (see Estimator); nil learns nothing and never retries an overflow.
	Estimator Estimator
	// Redact masks secrets in the texts of error and notice events (the
	// configured API keys); nil leaves them as they are.
	Redact func(string) string
	// Pending says how many bytes at the end of a streamed text may begin a
	// secret (tools.Masker.Pending): they are held back until the next piece, so
	// Redact sees every key whole. Nil holds nothing back.
	Pending func(string) int
	// Tune returns the current Tuning, read by every run as it starts (a
	// settings change applies from the next run); nil uses the fields above.
	Tune func() Tuning
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// WaitTools runs once before a run's first model request: it waits,
	// bounded, for tool sources still starting (MCP servers connecting) so
	// that request offers their tools, and tells the user through notice
	// what it waits for. Nil means no wait.
	WaitTools func(ctx context.Context, notice func(level string, m i18n.Message))
	// OnStop is told when the user stops a session (Stop, /stop): the hook
	// that cancels the session's background subagents (docs/design/agent-loop.md#stopping-a-run). It
	// reports whether it stopped anything.
	OnStop func(sessionID string) bool
	// ModelInstalled tells /model whether the model named can answer here: false (with
	// the installed ones to offer) for a model Ollama has not downloaded. An error
	// means it could not tell (Ollama down): the switch goes ahead. Nil checks nothing.
	ModelInstalled func(ctx context.Context, name string) (ok bool, installed []string, err error)
	// VisionModels names the installed models that see pictures: a message with
	// pictures to a model that cannot is refused with them to offer. Nil offers none.
	VisionModels func(ctx context.Context) []string
	// ToolOff says why a tool that is not offered was turned off by a setting (local-only
	// mode's web tools): a call of it is refused with that, in the user's words, rather
	// than answered as an unknown tool. Nil knows of none.
	ToolOff func(name string) (why i18n.Message, off bool)
}

// Tuning are the options a settings change may alter while the Runner lives. A run
// reads them once, when it starts; a run already going keeps its own.
type Tuning struct {
	DefaultModel      string
	MaxToolIterations int
	// TurnTime is the wall-clock budget of a turn, as MaxToolIterations is its budget of
	// tool rounds: a turn past either is summed up (budget.go).
	TurnTime           time.Duration
	ContextTokens      int
	MaxTokens          int
	Temperature        *float64
	MaxToolResultChars int
	Workspace          string
	// Fallbacks are the models a run turns to, in order, when its own fails before
	// the first token (fallback.go); FirstToken bounds the wait for that token when
	// there is one to turn to (0: no bound); CloudDown lets a cloud model that cannot
	// be reached hand over too.
	Fallbacks  []string
	FirstToken time.Duration
	CloudDown  bool
}

// tuning is the Tuning for a run starting now, with the defaults filled in.
func (r *Runner) tuning() Tuning {
	o := r.opts
	t := Tuning{DefaultModel: o.DefaultModel, MaxToolIterations: o.MaxToolIterations, TurnTime: o.TurnTime, ContextTokens: o.ContextTokens,
		MaxTokens: o.MaxTokens, Temperature: o.Temperature, MaxToolResultChars: o.MaxToolResultChars, Workspace: o.Workspace}
	if o.Tune != nil {
		t = o.Tune()
	}
	if t.MaxToolIterations <= 0 {
		t.MaxToolIterations = DefaultMaxToolIterations
	}
	if t.TurnTime <= 0 {
		t.TurnTime = DefaultTurnTime
	}
	if t.ContextTokens <= 0 {
		t.ContextTokens = DefaultContextTokens
	}
	if t.MaxTokens <= 0 {
		t.MaxTokens = DefaultMaxTokens
	}
	if t.MaxToolResultChars <= 0 {
		t.MaxToolResultChars = tools.DefaultMaxResultChars
	}
	return t
}

// Runner runs agent turns. It is safe for concurrent use.
type Runner struct {
	opts Options

	mu      sync.Mutex
	active  map[string]*Run // by session id
	usage   map[string]event.UsageData
	closing bool
	// noTools holds "session\x00model" pairs already told that the model
	// cannot use tools: a chat hears it once, not on every reply.
	noTools map[string]bool
	// damaged counts the warnings about each session's file already told: a chat
	// hears about a damaged line once, not on every reply.
	damaged map[string]int
	in      *inbox // messages sent while a run goes on (pending.go)
}

// New checks opts and returns a Runner.
func New(opts Options) (*Runner, error) {
	switch {
	case opts.Resolve == nil:
		return nil, errors.New("agent: Options.Resolve is nil (hint: pass a function that maps model names to providers)")
	case opts.Tools == nil:
		return nil, errors.New("agent: Options.Tools is nil (hint: pass a tools.Registry, empty is fine)")
	case opts.Store == nil:
		return nil, errors.New("agent: Options.Store is nil (hint: pass the session store)")
	}
	opts.Context = cmp.Or[ContextBuilder](opts.Context, PlainContext{})
	opts.Gate = cmp.Or[tools.Gate](opts.Gate, tools.AllowAll{})
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Runner{opts: opts, active: map[string]*Run{}, usage: map[string]event.UsageData{}, noTools: map[string]bool{}, damaged: map[string]int{},
		in: newInbox(opts.Store, opts.Now)}, nil
}

// errStopped and errShutdown are the causes of a run's cancellation: Stop
// ends it as cancelled, Shutdown leaves it interrupted (continuable).
var (
	errStopped  = errors.New("stopped by the user")
	errShutdown = errors.New("Hearth is shutting down")
)

// Start begins a run for req and returns at once; events go to sink (which
// may be nil) from the run's goroutine. Text starting with "/" is a slash
// command (docs/design/agent-loop.md#slash-commands). Cancelling ctx stops the run like Stop.
func (r *Runner) Start(ctx context.Context, req Request, sink event.Sink) (*Run, error) {
	if cmd, arg, ok := parseSlash(req.Text); ok && !req.revisits() {
		return r.slash(ctx, req, cmd, arg, sink)
	}
	return r.start(ctx, req, sink, false)
}

// Send runs req to the end and returns its result (Start + Wait).
func (r *Runner) Send(ctx context.Context, req Request, sink event.Sink) (Result, error) {
	run, err := r.Start(ctx, req, sink)
	if err != nil {
		return Result{}, err
	}
	return run.Wait(), nil
}

// Continue resumes the last interrupted run of a session (after a crash or a
// shutdown): its partial turn is kept and the loop goes on from it under the
// same run id.
func (r *Runner) Continue(ctx context.Context, sessionID string, sink event.Sink) (*Run, error) {
	return r.start(ctx, Request{SessionID: sessionID}, sink, true)
}

func (r *Runner) start(ctx context.Context, req Request, sink event.Sink, cont bool) (*Run, error) {
	if req.SessionID == "" {
		if cont {
			return nil, fmt.Errorf("continue: no session id (hint: name the session whose run was interrupted)")
		}
		if len(req.Images) > 0 {
			// Before the chat is made: a refused message leaves no empty chat behind.
			if err := r.checkVision(ctx, cmp.Or(req.Model, req.ChatModel, r.tuning().DefaultModel)); err != nil {
				return nil, err
			}
			req.seen = true
		}
		m, err := r.opts.Store.Create(session.CreateOptions{Model: req.ChatModel})
		if err != nil {
			return nil, fmt.Errorf("start run: %w", err)
		}
		req.SessionID = m.ID
	}
	run := &Run{ID: newRunID(), SessionID: req.SessionID, done: make(chan struct{})}
	if err := r.claim(run); err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	run.cancel = cancel
	l := &loop{r: r, run: run, req: req, ctx: runCtx, t: r.tuning(), started: r.opts.Now(),
		em: &emitter{runID: run.ID, sessionID: run.SessionID, sinks: []event.Sink{sink, r.opts.Observer}, redact: r.opts.Redact, pending: r.opts.Pending}}
	if cont {
		if err := l.prepareContinue(); err != nil {
			r.release(run)
			cancel(nil)
			return nil, err
		}
		l.em.runID = run.ID
	} else if err := l.prepare(); err != nil {
		r.release(run)
		cancel(nil)
		return nil, err
	}
	r.mu.Lock()
	run.em = l.em
	r.mu.Unlock()
	go func() {
		defer close(run.done)
		defer cancel(nil)
		defer r.release(run)
		if req.after != nil {
			<-req.after
		}
		run.result = l.execute()
		if r.opts.AfterRun != nil {
			r.opts.AfterRun(run.result)
		}
	}()
	return run, nil
}

// claim marks the session busy with run, or fails with ErrBusy.
func (r *Runner) claim(run *Run) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing {
		return fmt.Errorf("start run: %w (hint: Hearth is shutting down)", errShutdown)
	}
	if cur, ok := r.active[run.SessionID]; ok {
		return fmt.Errorf("session %s: %w with run %s (hint: wait for it to finish or stop it with /stop)", run.SessionID, ErrBusy, cur.ID)
	}
	r.active[run.SessionID] = run
	return nil
}

func (r *Runner) release(run *Run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active[run.SessionID] == run {
		delete(r.active, run.SessionID)
	}
}

// Stop cancels the session's run, if any: the model call and running tools
// end within a second (exec's process group is killed) and the run finishes
// with status cancelled; Options.OnStop stops the session's subagents. It
// reports whether anything was stopped.
func (r *Runner) Stop(sessionID string) bool {
	r.mu.Lock()
	run, ok := r.active[sessionID]
	r.mu.Unlock()
	if ok {
		run.cancel(errStopped)
	}
	if r.opts.OnStop != nil && r.opts.OnStop(sessionID) {
		ok = true
	}
	return ok
}

// DenyInstead ends the session's run the way the person's "no, do this instead" means:
// its calls waiting for approval are denied by the user and the run stops before any
// further model request, so no fragment of a new answer is written; the person's
// message is the next turn. It reports whether a run was going.
func (r *Runner) DenyInstead(sessionID string) bool {
	r.mu.Lock()
	run, ok := r.active[sessionID]
	r.mu.Unlock()
	if ok {
		run.cancel(tools.ErrDeniedInstead)
	}
	return ok
}

// Active is the number of runs going.
func (r *Runner) Active() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.active)
}

// Busy returns the id of the session's running run, if any.
func (r *Runner) Busy(sessionID string) (runID string, busy bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	run, ok := r.active[sessionID]
	if !ok {
		return "", false
	}
	return run.ID, true
}

// Shutdown refuses new runs and cancels the running ones, which finish as
// interrupted without their run line so Continue can resume them after a
// restart. It waits for them until ctx is done.
func (r *Runner) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	r.closing = true
	runs := make([]*Run, 0, len(r.active))
	for _, run := range r.active {
		runs = append(runs, run)
	}
	r.mu.Unlock()
	for _, run := range runs {
		run.cancel(errShutdown)
	}
	for _, run := range runs {
		select {
		case <-run.done:
		case <-ctx.Done():
			return fmt.Errorf("shutdown: runs still stopping: %w", ctx.Err())
		}
	}
	return nil
}

// Usage is the last usage report of a session's model call (for /status).
func (r *Runner) Usage(sessionID string) (event.UsageData, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	u, ok := r.usage[sessionID]
	return u, ok
}

// newDamage reports whether the session's file has more damaged lines than its chat
// was told of, and marks them told.
func (r *Runner) newDamage(sessionID string, n int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.damaged[sessionID] >= n {
		return false
	}
	r.damaged[sessionID] = n
	return true
}

// firstNoTools reports whether the session has not yet been told that model
// cannot use tools, and marks it told.
func (r *Runner) firstNoTools(sessionID, model string) bool {
	k := sessionID + "\x00" + model
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.noTools[k] {
		return false
	}
	r.noTools[k] = true
	return true
}

func (r *Runner) setUsage(sessionID string, u event.UsageData) {
	r.mu.Lock()
	r.usage[sessionID] = u
	r.mu.Unlock()
}

// newRunID is 12 random hex digits: unique enough to name a run and, with a
// counter, each tool call of a session (spill files are named by call id).
func newRunID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "r" + hex.EncodeToString(b[:])
}
