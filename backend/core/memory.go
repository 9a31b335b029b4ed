package core

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"hearth/backend/agent"
	"hearth/backend/config"
	"hearth/backend/llm"
	"hearth/backend/memory"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// memoryParts are the memory store, recall index and consolidator of the
// workspace (SPEC §6), built with the agent parts.
type memoryParts struct {
	store *memory.Store
	index *memory.Index
	cons  *memory.Consolidator
	block memory.BlockOptions

	watchOnce sync.Once
	watchStop context.CancelFunc
}

// newMemory builds the memory parts; called by agent() with s.mu held, so
// it must not call methods that lock (the resolver is only used later).
func (s *Service) newMemory(cfg *config.Config, paths config.Paths, sessions *session.Store) *memoryParts {
	d := cfg.Agents.Defaults
	m := &memoryParts{store: memory.NewStore(paths.Workspace, nil)}
	opts := memory.IndexOptions{
		Workspace:   paths.Workspace,
		SessionsDir: paths.SessionsDir,
		Dir:         filepath.Join(paths.IndexDir, workspaceID(paths.Workspace)),
	}
	if name := strings.TrimSpace(d.EmbeddingModel); name != "" {
		opts.Model = name
		opts.Embed = func(ctx context.Context, texts []string) ([][]float32, error) {
			p, model, err := s.models.Resolve(name)
			if err != nil {
				return nil, fmt.Errorf("embedding model %s: %w", name, err)
			}
			e, ok := p.(llm.Embedder)
			if !ok {
				return nil, fmt.Errorf("embedding model %s: its provider cannot embed (hint: use an Ollama embedding model such as ollama/nomic-embed-text)", name)
			}
			return e.Embed(ctx, model, texts)
		}
	}
	m.index = memory.NewIndex(opts)
	m.cons = memory.NewConsolidator(memory.ConsolidatorOptions{
		Store: m.store, Sessions: sessions, Resolve: s.models.Resolve, DefaultModel: d.Model,
		Window: d.MemoryWindow, ContextTokens: d.ContextTokens,
	})
	m.block = memory.BlockOptions{Enabled: d.RecallBlock.Enabled, MinScore: d.RecallBlock.MinScore, MaxChars: d.RecallBlock.MaxChars}
	m.subscribe(s.memSubs.list()...)
	return m
}

// workspaceID names a workspace's index folder: a short hash of its path.
func workspaceID(ws string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(ws)))
	return hex.EncodeToString(sum[:6])
}

func (m *memoryParts) tools() []tools.Tool { return memory.Tools(m.store, m.index) }

// context wraps the agent's context builder with the recall block and the
// consolidation trigger.
func (m *memoryParts) context(inner agent.ContextBuilder) agent.ContextBuilder {
	return &memory.RecallContext{Inner: inner, Index: m.index, Consolidator: m.cons, Block: m.block}
}

// onNew is agent.Options.OnNew: /new saves the whole chat to memory first.
func (m *memoryParts) onNew(ctx context.Context, sessionID string) error {
	_, err := m.cons.ConsolidateAll(ctx, sessionID)
	return err
}

// onLeftOut is agent.Options.OnLeftOut: turns the budget left out are
// consolidated in the background instead of being lost unseen.
func (m *memoryParts) onLeftOut(sessionID string, firstKept int) {
	m.cons.Start(sessionID, firstKept)
}

func (m *memoryParts) commands() map[string]agent.Command {
	return map[string]agent.Command{"remember": {
		Help: "/remember TEXT   save a fact to long-term memory (memory/MEMORY.md)",
		Run: func(_ context.Context, _, arg string) (string, error) {
			if strings.TrimSpace(arg) == "" {
				return "Usage: /remember TEXT — e.g. /remember my sister's birthday is 3 May", nil
			}
			if _, err := m.store.Remember(arg); err != nil {
				return "", err
			}
			return "Saved to " + memory.MemoryFile + ".", nil
		},
	}}
}

func (s *Service) memory() (*memoryParts, error) {
	p, err := s.agent()
	if err != nil {
		return nil, err
	}
	return p.mem, nil
}

// ListMemoryFiles lists MEMORY.md, HISTORY.md, the daily notes, the persona
// files and the skills that exist, with size, modification time and hash.
func (s *Service) ListMemoryFiles() ([]memory.FileInfo, error) {
	m, err := s.memory()
	if err != nil {
		return nil, err
	}
	return m.store.List()
}

// ReadMemoryFile returns a memory or persona file (path relative to the
// workspace, e.g. "memory/MEMORY.md") with the hash SaveMemoryFile needs.
func (s *Service) ReadMemoryFile(name string) (memory.File, error) {
	m, err := s.memory()
	if err != nil {
		return memory.File{}, err
	}
	return m.store.Read(name)
}

// SaveMemoryFile writes content if the file still has expectedHash; when
// it changed meanwhile nothing is written and the result's Conflict holds
// both versions (F-MEMEDIT).
func (s *Service) SaveMemoryFile(name, content, expectedHash string) (memory.SaveResult, error) {
	m, err := s.memory()
	if err != nil {
		return memory.SaveResult{}, err
	}
	return m.store.Save(name, content, expectedHash)
}

// SearchMemory searches the recall index (synced with the files first).
// Each hit says whether it was found by vector, keyword or both.
func (s *Service) SearchMemory(ctx context.Context, query string, k int) ([]memory.Hit, error) {
	res, err := s.SearchMemoryResults(ctx, query, k)
	return res.Hits, err
}

// SearchMemoryResults is SearchMemory with the search's mode and note
// ("keyword search: no embedding model is set", …) for the CLI.
func (s *Service) SearchMemoryResults(ctx context.Context, query string, k int) (memory.Results, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	m, err := s.memory()
	if err != nil {
		return memory.Results{}, err
	}
	if strings.TrimSpace(query) == "" {
		return memory.Results{}, fmt.Errorf("search memory: the query is empty (hint: give words to look for)")
	}
	return m.index.Search(ctx, query, k)
}

// ReindexMemory rebuilds the recall index from the files.
func (s *Service) ReindexMemory(ctx context.Context) (memory.IndexReport, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	m, err := s.memory()
	if err != nil {
		return memory.IndexReport{}, err
	}
	return m.index.Reindex(ctx)
}

// memorySubs are the OnMemoryChange listeners. They live on the Service
// because the memory parts are rebuilt when settings change: each new store
// gets them all and starts its watcher.
type memorySubs struct {
	mu  sync.Mutex
	fns []func(name string)
}

func (m *memorySubs) add(fn func(string)) {
	m.mu.Lock()
	m.fns = append(m.fns, fn)
	m.mu.Unlock()
}

func (m *memorySubs) list() []func(string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]func(string){}, m.fns...)
}

// OnMemoryChange registers fn, called with the file's workspace-relative
// path whenever the agent, a consolidation or a hand edit changes a memory
// or persona file (the first call starts the file watcher). fn stays
// registered when the memory parts are rebuilt after a settings change.
func (s *Service) OnMemoryChange(fn func(name string)) {
	s.mu.Lock() // parts built before this see fn below; parts built after list it
	s.memSubs.add(fn)
	p := s.parts
	s.mu.Unlock()
	if p != nil {
		p.mem.subscribe(fn)
		return
	}
	_, _ = s.memory() // builds the parts, which subscribe every listener
}

// subscribe adds fn to the store's listeners and starts the watcher once.
func (m *memoryParts) subscribe(fns ...func(string)) {
	if len(fns) == 0 {
		return
	}
	for _, fn := range fns {
		m.store.OnChange(fn)
	}
	m.watchOnce.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		m.watchStop = cancel
		_ = m.store.Watch(ctx) // without a watcher, agent writes are still reported
	})
}

// HoldBackground makes consolidations wait for WaitBackground instead of
// running beside the chat (the one-shot CLI: nothing is started that the
// exit could abandon).
func (s *Service) HoldBackground() {
	if m, err := s.memory(); err == nil {
		m.cons.Hold()
	}
}

// MemoryPending is the number of consolidations queued or running.
func (s *Service) MemoryPending() int {
	s.mu.Lock()
	p := s.parts
	s.mu.Unlock()
	if p == nil {
		return 0
	}
	return p.mem.cons.Pending()
}

// WaitBackground waits for the running consolidations (a CLI before it
// exits). When ctx ends first they are cancelled before writing anything,
// so the work is deferred to the next run, and ctx's error is returned.
func (s *Service) WaitBackground(ctx context.Context) error {
	s.mu.Lock()
	p := s.parts
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	return p.mem.cons.Wait(ctx)
}

// closeMemory stops the watcher and the consolidations (Shutdown).
func (m *memoryParts) close() {
	m.watchOnce.Do(func() {}) // orders this read after OnMemoryChange's write
	if m.watchStop != nil {
		m.watchStop()
	}
	m.cons.Close()
}

// TakeMemoryFailure returns a background consolidation failure of the
// session not reported yet (the CLI tells it before exiting).
func (s *Service) TakeMemoryFailure(sessionID string) error {
	s.mu.Lock()
	p := s.parts
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	return p.mem.cons.TakeFailure(sessionID) // "" takes any session's
}
