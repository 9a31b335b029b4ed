package core

import (
	"context"
	"fmt"

	"hearth/backend/agent"
	"hearth/backend/memory"
)

// memoryOptions are the memory service's settings from the current config.
func (s *Service) memoryOptions() memory.ServiceOptions {
	cfg, paths := s.settings.Config(), s.settings.Paths()
	d := cfg.Agents.Defaults
	return memory.ServiceOptions{Workspace: paths.Workspace, IndexDir: paths.IndexDir, EmbeddingModel: d.EmbeddingModel,
		Resolve: s.models.Resolve, DefaultModel: d.Model, Window: d.MemoryWindow, ContextTokens: d.ContextTokens,
		Block:    memory.BlockOptions{Enabled: d.RecallBlock.Enabled, MinScore: d.RecallBlock.MinScore, MaxChars: d.RecallBlock.MaxChars},
		Sessions: s.sessions.Store()}
}

// Memory is the memory service.
func (s *Service) Memory() *memory.Service { return s.memory }

// afterRun is the runner's AfterRun: the one consolidation trigger.
func (s *Service) afterRun(res agent.Result) {
	s.memory.AfterRun(res.SessionID, res.HistoryLen, res.FirstKept)
}

// memoryNotices tells a failed background consolidation of the session at the
// start of its next run.
func (s *Service) memoryNotices(req *agent.Request) {
	if req.SessionID == "" {
		return
	}
	if err := s.memory.TakeFailure(req.SessionID); err != nil {
		req.Notices = append(req.Notices, fmt.Sprintf("Saving older messages of this chat to memory failed: %v. They stay in the chat and saving is tried again later.", err))
	}
}

// rememberCommand is /remember.
func (s *Service) rememberCommand() map[string]agent.Command {
	return map[string]agent.Command{"remember": {
		Help: "/remember TEXT   save a fact to long-term memory (memory/MEMORY.md)",
		Run:  func(_ context.Context, _, arg string) (string, error) { return s.memory.Remember(arg) },
	}}
}

// OnMemoryChange registers fn, called with the file's workspace-relative path
// whenever the agent, a consolidation or a hand edit changes a memory or persona
// file (the first call starts the file watcher).
func (s *Service) OnMemoryChange(fn func(name string)) {
	ch := s.memChanges.Subscribe(context.Background())
	go func() {
		for c := range ch {
			fn(c.File)
		}
	}()
	s.watchOnce.Do(func() { _ = s.memory.Start(context.Background()) })
}

// SearchMemoryResults searches the recall index.
func (s *Service) SearchMemoryResults(ctx context.Context, query string, k int) (memory.Results, error) {
	return s.memory.Search(ctx, query, k)
}

// HoldBackground makes consolidations wait for WaitBackground (the one-shot CLI).
func (s *Service) HoldBackground() { s.memory.Hold() }

// MemoryPending is the number of consolidations queued or running.
func (s *Service) MemoryPending() int { return s.memory.Pending() }

// WaitBackground waits for the running consolidations (a CLI before it exits).
func (s *Service) WaitBackground(ctx context.Context) error { return s.memory.Wait(ctx) }

// TakeMemoryFailure returns a background consolidation failure not told yet.
func (s *Service) TakeMemoryFailure(sessionID string) error { return s.memory.TakeFailure(sessionID) }
