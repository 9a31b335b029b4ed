package memory

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"hearth/backend/event"
	"hearth/backend/i18n"
	textclip "hearth/backend/internal/clip"
	"hearth/backend/llm"
	"hearth/backend/recall"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// ServiceOptions configure the memory service; Apply changes them later.
type ServiceOptions struct {
	Workspace string
	// IndexDir holds the recall indexes, one folder per workspace.
	IndexDir string
	// StateDir is the workspace's state folder in Hearth's data folder
	// (workspace.StateDir): the history of versions, the memory inbox, Dream's
	// state, the memory lock. Empty keeps no history (tests of other parts).
	StateDir string
	// Migrate, when set, runs once before a workspace's state folder is first
	// used: it moves what older versions kept in <workspace>/.hearth.
	Migrate func(workspace, stateDir string)
	// EmbeddingModel embeds for vector search ("" is keyword search only).
	EmbeddingModel string
	// Resolve maps a model name to its provider (the models service).
	Resolve func(name string) (llm.Provider, string, error)
	// DefaultModel consolidates sessions that name no model.
	DefaultModel string
	// Window is agents.defaults.memoryWindow; ContextTokens sizes a consolidation call.
	Window, ContextTokens int
	Block                 recall.BlockOptions
	// Hide leaves sources out of the recall block (knowledge folders searched only
	// on request); nil hides none.
	Hide func(source string) bool
	// Indexed is told of each recall index built (a new workspace gets a new one):
	// the knowledge folders are indexed into it.
	Indexed func(*recall.Index)
	// Sessions is the session store consolidation reads.
	Sessions *session.Store
	// Review reads and SaveReview writes "Review memory changes" (config.json's
	// memory.review); without them the setting lives in memory only.
	Review     func() ReviewSettings
	SaveReview func(ReviewSettings) error
}

// Service is the memory service: the workspace's memory files, the recall index,
// consolidation of old chat messages into the files (started from one place,
// AfterRun, and by /new) and the file watcher, whose news goes to the broker given to
// NewService. Building it reads nothing.
type Service struct {
	changes *event.Broker[event.MemoryChanged]

	mu       sync.Mutex
	opts     ServiceOptions
	store    *Store
	index    *recall.Index
	cons     *Consolidator
	recaller *recall.Recaller
	versions *versions
	inbox    *Inbox
	watching context.CancelFunc // the running watcher's stop, nil before Watch
	started  bool               // Start ran: a new workspace's history is synced too
	retired  sync.WaitGroup     // consolidators of an old workspace finishing
	windows  recall.Windows     // where each chat's window starts
}

// NewService builds the service over opts; changes (may be nil) hears every change
// of a memory or persona file.
func NewService(opts ServiceOptions, changes *event.Broker[event.MemoryChanged]) *Service {
	s := &Service{changes: changes}
	s.build(opts)
	return s
}

// build makes the store, index and consolidator of opts. The caller holds s.mu (or
// owns s alone).
func (s *Service) build(opts ServiceOptions) {
	s.opts = opts
	s.store = NewStore(opts.Workspace, nil)
	if opts.StateDir != "" {
		ws, dir, migrate := opts.Workspace, opts.StateDir, opts.Migrate
		s.store.useState(dir, func() {
			if migrate != nil {
				migrate(ws, dir)
			}
		})
	}
	s.store.news = s.changes
	s.versions = newVersions(s.store)
	s.inbox = newInbox(s.store, opts.Review, opts.SaveReview)
	io := recall.IndexOptions{Workspace: opts.Workspace, SessionsDir: sessionsDir(opts.Sessions),
		Dir: filepath.Join(opts.IndexDir, workspaceID(opts.Workspace))}
	if name := strings.TrimSpace(opts.EmbeddingModel); name != "" {
		io.Model, io.Embed = name, embedder(name, opts.Resolve)
	}
	s.index = recall.NewIndex(io)
	if opts.Indexed != nil {
		opts.Indexed(s.index)
	}
	s.cons = s.newConsolidator(opts)
	s.recaller = &recall.Recaller{Index: s.index, Block: opts.Block, InWindow: s.windows.From, Hide: opts.Hide}
}

func (s *Service) newConsolidator(opts ServiceOptions) *Consolidator {
	return NewConsolidator(ConsolidatorOptions{Store: s.store, Sessions: opts.Sessions, Resolve: opts.Resolve,
		DefaultModel: opts.DefaultModel, Window: opts.Window, ContextTokens: opts.ContextTokens})
}

func sessionsDir(st *session.Store) string {
	if st == nil {
		return ""
	}
	return st.Dir()
}

// embedder embeds with the named model through resolve.
func embedder(name string, resolve func(string) (llm.Provider, string, error)) func(context.Context, []string) ([][]float32, error) {
	return func(ctx context.Context, texts []string) ([][]float32, error) {
		p, model, err := resolve(name)
		if err != nil {
			return nil, fmt.Errorf("embedding model %s: %w: %w", name, err, recall.ErrEmbedUnavailable)
		}
		e, ok := p.(llm.Embedder)
		if !ok {
			return nil, fmt.Errorf("embedding model %s: its provider cannot embed: %w (hint: use an Ollama embedding model such as ollama/nomic-embed-text)", name, recall.ErrEmbedUnavailable)
		}
		return e.Embed(ctx, model, texts)
	}
}

// workspaceID names a workspace's index folder: a short hash of its path.
func workspaceID(ws string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(ws)))
	return hex.EncodeToString(sum[:6])
}

// parts returns the current store, index and consolidator.
func (s *Service) parts() (*Store, *recall.Index, *Consolidator) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.store, s.index, s.cons
}

// Start brings the memory history up to date with edits made while Hearth was not
// running (and makes onboarding's first commit). It starts no watcher: Watch does.
func (s *Service) Start(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = true
	s.syncHistoryLocked()
	return nil
}

// Watch watches the memory and persona files for changes made by other programs
// (an editor, a sync tool) while the app runs; the store reports its own writes
// without it. Only the desktop watches: a command ends before an edit would matter,
// and closing a watcher costs a command milliseconds of kernel wait at exit.
func (s *Service) Watch() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watchLocked()
}

// Watching reports whether the file watcher runs.
func (s *Service) Watching() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watching != nil
}

func (s *Service) syncHistoryLocked() {
	if _, err := s.versions.sync(); err != nil { // onboarding's first commit, or edits made meanwhile
		slog.Warn("memory history not brought up to date", "err", err)
	}
}

func (s *Service) watchLocked() error {
	if s.watching != nil {
		s.watching()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.watching = cancel
	s.syncHistoryLocked()
	return s.store.Watch(ctx)
}

// Close stops the watcher and lets running consolidations finish until ctx is done;
// then they are cancelled before they write anything (the work is done next time).
func (s *Service) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.watching != nil {
		s.watching()
		s.watching = nil
	}
	cons, x, st := s.cons, s.index, s.store
	s.mu.Unlock()
	st.waitWatch() // a change being committed finishes first
	err := cons.Wait(ctx)
	cons.Close()
	s.retired.Wait()
	_ = x.Close() // opened again if used after
	return err
}

// Apply takes the settings after a change. A new workspace, index folder, embedding
// or consolidation model gets a new store, index and consolidator (the old
// consolidations finish in the background) and the watcher follows; a changed recall
// block only a new Recaller.
func (s *Service) Apply(opts ServiceOptions) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.opts
	if o.Workspace == opts.Workspace && o.IndexDir == opts.IndexDir && o.StateDir == opts.StateDir && o.EmbeddingModel == opts.EmbeddingModel &&
		o.DefaultModel == opts.DefaultModel && o.Window == opts.Window && o.ContextTokens == opts.ContextTokens {
		s.opts, s.recaller = opts, &recall.Recaller{Index: s.index, Block: opts.Block, InWindow: s.windows.From, Hide: opts.Hide}
		return
	}
	s.retire(s.cons)
	s.build(opts)
	if s.watching != nil {
		if err := s.watchLocked(); err != nil {
			slog.Warn("memory files not watched", "err", err)
		}
	} else if s.started {
		s.syncHistoryLocked()
	}
}

// retire lets a replaced consolidator finish its work in the background.
func (s *Service) retire(c *Consolidator) {
	s.retired.Add(1)
	go func() {
		defer s.retired.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = c.Wait(ctx)
		c.Close()
	}()
}

// Tools are memory_search and remember.
func (s *Service) Tools() []tools.Tool {
	st, x, _ := s.parts()
	s.mu.Lock()
	tokens := recall.SearchTokens(s.opts.ContextTokens)
	s.mu.Unlock()
	return Tools(st, x, recall.ToolOptions{Tokens: tokens, InWindow: s.windows.From})
}

// Remember saves a fact to MEMORY.md (the /remember command) and says so.
func (s *Service) Remember(text string) (i18n.Message, error) {
	if strings.TrimSpace(text) == "" {
		return i18n.M("memory.remember.usage"), nil
	}
	st, _, _ := s.parts()
	if _, err := st.RememberAs(text, Origin{Author: AuthorUser, Reason: "/remember " + textclip.Squash(text, 72)}); err != nil {
		return i18n.Message{}, err
	}
	return i18n.M("memory.remember.saved", "file", MemoryFile), nil
}

// Recall is the recalled-history block for text, the user's message of the turn in
// sessionID ("" for none), of at most roomTokens (0: recallBlock.maxChars alone). It
// searches; it starts nothing.
func (s *Service) Recall(ctx context.Context, sessionID, text string, roomTokens int) string {
	s.mu.Lock()
	r := s.recaller
	s.mu.Unlock()
	return r.ForRoom(ctx, sessionID, text, roomTokens)
}

// AfterRun is the one consolidation trigger of a chat: after a run it starts, in the
// background, a consolidation of the messages the budget left out of the run's last
// request (firstKept: the first one sent), or of a window's worth of unconsolidated
// messages once that request's history (historyLen messages) held that many.
func (s *Service) AfterRun(sessionID string, historyLen, firstKept int) {
	_, _, c := s.parts()
	if sessionID == "" {
		return
	}
	s.windows.Set(sessionID, firstKept)
	c.sent(sessionID, firstKept)
	if last, ok := c.lastConsolidated(sessionID); ok && firstKept > last+1 && c.Start(sessionID, firstKept) {
		return
	}
	c.Due(sessionID, historyLen)
}

// ConsolidateAll saves every unconsolidated message of a session now (/new, before
// the chat is archived); an error keeps the chat as it is.
func (s *Service) ConsolidateAll(ctx context.Context, sessionID string) error {
	_, _, c := s.parts()
	_, err := c.ConsolidateAll(ctx, sessionID)
	return err
}

// TakeFailure returns a background consolidation failure of the session not told
// yet ("" takes any session's).
func (s *Service) TakeFailure(sessionID string) error {
	_, _, c := s.parts()
	return c.TakeFailure(sessionID)
}

// Store is the current workspace's memory files (List, Read, Save for the editor).
func (s *Service) Store() *Store {
	st, _, _ := s.parts()
	return st
}

// Consolidations is the current consolidator: the CLI holds consolidations until the
// answer is out (Hold), waits for them before it exits (Pending, Wait) and tells a
// failure (TakeFailure).
func (s *Service) Consolidations() *Consolidator {
	_, _, c := s.parts()
	return c
}

// Search searches the recall index (synced with the files first). Each hit says
// whether it was found by vector, keyword or both; the result says how it searched.
func (s *Service) Search(ctx context.Context, query string, k int) (recall.Results, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if strings.TrimSpace(query) == "" {
		return recall.Results{}, fmt.Errorf("search memory: the query is empty (hint: give words to look for)")
	}
	_, x, _ := s.parts()
	res, err := x.Search(ctx, query, k)
	if res.Hits == nil {
		res.Hits = []recall.Hit{} // a JSON list, never null
	}
	return res, err
}

// Recheck makes the recall index ask for the embedding model again: it was maybe
// just pulled, and a missing one is otherwise not asked about for a while.
func (s *Service) Recheck() {
	_, x, _ := s.parts()
	x.Recheck()
}

// Reindex rebuilds the recall index from the files.
func (s *Service) Reindex(ctx context.Context) (recall.IndexReport, error) {
	_, x, _ := s.parts()
	return x.Reindex(ctx)
}
