package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"hearth/backend/llm"
	"hearth/backend/session"
)

// ErrNoToolCall is a consolidation the model answered without calling
// save_memory, twice: the session stays unconsolidated.
var ErrNoToolCall = errors.New("the model did not call save_memory")

// ErrMemoryChanged is a consolidation whose MEMORY.md rewrite lost a
// compare-and-swap against another writer (the user's editor): nothing was
// written and the consolidation is retried later.
var ErrMemoryChanged = errors.New("MEMORY.md changed while it was being consolidated")

// ConsolidatorOptions configure a Consolidator.
type ConsolidatorOptions struct {
	Store    *Store
	Sessions *session.Store
	// Resolve maps a model name to its provider (the models service's).
	Resolve func(name string) (llm.Provider, string, error)
	// DefaultModel is used when a session names none.
	DefaultModel string
	// Window is memoryWindow: unconsolidated messages that trigger a
	// consolidation (default 100).
	Window int
	// ContextTokens sizes the transcript of one consolidation call.
	ContextTokens int
	Logger        *slog.Logger
	Now           func() time.Time
}

// Consolidator folds old chat messages into HISTORY.md and MEMORY.md
// (docs/design/memory.md#consolidation). It runs one consolidation per session at a time, in the
// background, and Wait lets a process finish them before it exits.
type Consolidator struct {
	opts ConsolidatorOptions
	log  *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	running map[string]chan struct{} // session → closed when its job ends
	hold    bool                     // Start queues instead of running (one-shot CLI)
	held    map[string]int           // session → upTo of a queued consolidation
	cursor  map[string]int           // session → LastConsolidated as last seen
	kept    map[string]int           // session → first message of its last request (idle.go)
	failed  map[string]failure
}

type failure struct {
	err      error
	messages int  // session length when it failed (retry after a few more)
	told     bool // reported to the user already
}

// retryAfter is how many new messages a failed session waits for before
// the next background attempt (so a broken model is not asked every turn).
const retryAfter = 4

// NewConsolidator returns a Consolidator; Close (or Wait) ends its work.
func NewConsolidator(opts ConsolidatorOptions) *Consolidator {
	if opts.Window <= 0 {
		opts.Window = 100
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	lg := cmp.Or(opts.Logger, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	return &Consolidator{opts: opts, log: lg, ctx: ctx, cancel: cancel,
		running: map[string]chan struct{}{}, cursor: map[string]int{}, failed: map[string]failure{}, held: map[string]int{}}
}

// Due starts a background consolidation when the session has Window or more
// unconsolidated messages; historyLen is the session's message count. It
// keeps the most recent Window/2 messages out, as they are still in the
// context.
func (c *Consolidator) Due(sessionID string, historyLen int) bool {
	last, ok := c.lastConsolidated(sessionID)
	if !ok || historyLen-(last+1) < c.opts.Window {
		return false
	}
	c.mu.Lock()
	f, failed := c.failed[sessionID]
	c.mu.Unlock()
	if failed && historyLen < f.messages+retryAfter {
		return false
	}
	return c.Start(sessionID, historyLen-c.opts.Window/2)
}

// Start consolidates messages [LastConsolidated+1, upTo) of a session in the
// background (the budget's left-out turns); it returns false when one is
// already running for the session.
func (c *Consolidator) Start(sessionID string, upTo int) bool {
	c.mu.Lock()
	if _, busy := c.running[sessionID]; busy || c.ctx.Err() != nil {
		c.mu.Unlock()
		return false
	}
	if c.hold {
		if prev, ok := c.held[sessionID]; !ok || upTo < 0 || (prev >= 0 && upTo > prev) {
			c.held[sessionID] = upTo
		}
		c.mu.Unlock()
		return true
	}
	done := make(chan struct{})
	c.running[sessionID] = done
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer c.finish(sessionID, done)
		_, total, err := c.run(c.ctx, sessionID, upTo, false)
		if c.record(sessionID, total, err) {
			c.log.Warn("memory consolidation failed; the session stays unconsolidated and is retried later", "session", sessionID, "err", err)
		}
	}()
	return true
}

// record keeps a failed consolidation of a session for its next turn to report, or
// forgets an earlier failure once one succeeds; it reports whether this one failed.
func (c *Consolidator) record(sessionID string, total int, err error) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.failed[sessionID] = failure{err: err, messages: total}
		return true
	}
	delete(c.failed, sessionID)
	return false
}

func (c *Consolidator) finish(sessionID string, done chan struct{}) {
	c.mu.Lock()
	delete(c.running, sessionID)
	c.mu.Unlock()
	close(done)
}

// ConsolidateAll saves every unconsolidated message of the session now
// (/new): it waits for a running consolidation of the session first. A model
// that cannot or will not call save_memory gets a plain-text summary request
// instead, so /new works with any chat model.
func (c *Consolidator) ConsolidateAll(ctx context.Context, sessionID string) (int, error) {
	for {
		c.mu.Lock()
		done, busy := c.running[sessionID]
		if !busy {
			done = make(chan struct{})
			c.running[sessionID] = done
		}
		c.mu.Unlock()
		if !busy {
			defer c.finish(sessionID, done)
			break
		}
		select {
		case <-done:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	n, _, err := c.run(ctx, sessionID, -1, true)
	return n, err
}

// TakeFailure returns a background failure of the session not reported yet
// ("" takes any session's).
func (c *Consolidator) TakeFailure(sessionID string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sessionID == "" {
		for id, f := range c.failed {
			if !f.told {
				sessionID = id
				break
			}
		}
	}
	f, ok := c.failed[sessionID]
	if !ok || f.told {
		return nil
	}
	f.told = true
	c.failed[sessionID] = f
	return f.err
}

// Hold makes Start queue consolidations until Wait instead of running them
// alongside the chat: a one-shot process runs them after its answer, where
// it can wait for them or, interrupted, leave them for the next run without
// having started a model call.
func (c *Consolidator) Hold() {
	c.mu.Lock()
	c.hold = true
	c.mu.Unlock()
}

// Pending is the number of consolidations queued or running.
func (c *Consolidator) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.running) + len(c.held)
}

// Wait blocks until the running consolidations end. When ctx ends first they
// are cancelled — before they write anything, so the session stays
// unconsolidated and the next run does the work — and ctx's error returned.
func (c *Consolidator) Wait(ctx context.Context) error {
	c.mu.Lock()
	held := c.held
	c.held, c.hold = map[string]int{}, false
	c.mu.Unlock()
	if ctx.Err() == nil {
		for id, upTo := range held {
			c.Start(id, upTo)
		}
	}
	done := make(chan struct{})
	go func() { c.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		c.cancel()
		<-done
		return ctx.Err()
	}
}

// Close cancels running consolidations and refuses new ones.
func (c *Consolidator) Close() {
	c.cancel()
	c.wg.Wait()
}

func (c *Consolidator) lastConsolidated(sessionID string) (int, bool) {
	c.mu.Lock()
	last, ok := c.cursor[sessionID]
	c.mu.Unlock()
	if ok {
		return last, true
	}
	m, err := c.opts.Sessions.Meta(sessionID)
	if err != nil {
		return 0, false
	}
	c.mu.Lock()
	c.cursor[sessionID] = m.LastConsolidated
	c.mu.Unlock()
	return m.LastConsolidated, true
}

// run consolidates messages [LastConsolidated+1, upTo) (upTo < 0: all) in
// pieces that fit the model's context. Each piece is all-or-nothing in
// effect: MEMORY.md (compare-and-swap), then the HISTORY.md entry, then the
// session's cursor. It returns how many messages were saved and the
// session's length.
func (c *Consolidator) run(ctx context.Context, sessionID string, upTo int, plainFallback bool) (saved, total int, err error) {
	if upTo >= 0 {
		// Most turns of a long chat leave out only turns saved before: the
		// metadata says so without reading the messages.
		if m, err := c.opts.Sessions.Meta(sessionID); err == nil && upTo <= m.LastConsolidated+1 {
			return 0, 0, nil
		}
	}
	s, err := c.opts.Sessions.Load(sessionID)
	if err != nil {
		return 0, 0, fmt.Errorf("consolidate %s: %w", sessionID, err)
	}
	msgs := s.Messages()
	total = len(msgs)
	start := s.Meta.LastConsolidated + 1
	end := upTo
	if end < 0 || end > len(msgs) {
		end = len(msgs)
	}
	end = turnBoundary(msgs, start, end)
	if end <= start {
		return 0, total, nil
	}
	model := s.Meta.Model
	if model == "" {
		model = c.opts.DefaultModel
	}
	p, provModel, err := c.opts.Resolve(model)
	if err != nil {
		return 0, total, fmt.Errorf("consolidate %s: model %s: %w", sessionID, model, err)
	}
	budget := max(c.opts.ContextTokens*4/2, 6000)
	for start < end {
		mem, err := c.opts.Store.Read(MemoryFile)
		if err != nil {
			return saved, total, err
		}
		pieceEnd, transcript := formatTranscript(msgs, start, end, budget-len(mem.Content))
		entry, update, err := c.ask(ctx, p, provModel, mem.Content, transcript, plainFallback)
		if err != nil {
			return saved, total, fmt.Errorf("consolidate %s with %s: %w", sessionID, model, err)
		}
		if update != "" && update != mem.Content {
			res, err := c.opts.Store.SaveAs(MemoryFile, update, mem.Hash, OriginConsolidation(sessionID))
			if err != nil {
				return saved, total, err
			}
			if res.Conflict != nil {
				return saved, total, ErrMemoryChanged
			}
		}
		if err := c.opts.Store.AppendHistoryAs(entry, c.opts.Now(), OriginConsolidation(sessionID)); err != nil {
			return saved, total, err
		}
		if err := c.opts.Sessions.MarkConsolidated(sessionID, pieceEnd-1); err != nil {
			return saved, total, fmt.Errorf("consolidate %s: move the cursor: %w", sessionID, err)
		}
		c.mu.Lock()
		c.cursor[sessionID] = pieceEnd - 1
		c.mu.Unlock()
		saved += pieceEnd - start
		start = pieceEnd
	}
	return saved, total, nil
}

// turnBoundary moves end back to the start of a turn (a user message), so a
// tool call is never consolidated without its result; the session's end is
// a boundary too.
func turnBoundary(msgs []llm.Message, start, end int) int {
	if end >= len(msgs) {
		return len(msgs)
	}
	for e := end; e > start; e-- {
		if msgs[e].Role == llm.RoleUser {
			return e
		}
	}
	return start
}
