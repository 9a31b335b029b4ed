package core

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/schedule"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// agentParts is what chatting needs, built from the config on first use so
// that cheap commands (status, version) never touch the sessions directory.
type agentParts struct {
	store    *session.Store
	registry *tools.Registry
	runner   *agent.Runner
	reach    *reachParts // subagents (core/subagents.go)
}

// agent returns the agent parts, building them on first use.
func (s *Service) agent() (*agentParts, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parts != nil && s.partsStale && s.idleLocked() {
		s.retireLocked() // settings saved during a reply apply now
	}
	if s.parts != nil {
		return s.parts, nil
	}
	if err := s.settings.PathsError(); err != nil {
		return nil, fmt.Errorf("agent: %w (hint: fix --workspace or agents.defaults.workspace)", err)
	}
	cfg, paths := s.settings.Config(), s.settings.Paths()
	keys := s.settings.Keys()
	d := cfg.Agents.Defaults
	p := &agentParts{
		reach:    &reachParts{},
		store:    s.sessions.Store(),
		registry: tools.NewRegistry(tools.RegistryOptions{Masker: keys.Masker()}),
	}
	execTimeout := time.Duration(cfg.Tools.Exec.Timeout) * time.Second
	err := p.registry.Register(tools.Builtins(tools.Options{
		Policy: tools.Policy{
			Workspace:    paths.Workspace,
			Unrestricted: !cfg.Tools.RestrictToWorkspace,
			AllowedPaths: cfg.Tools.AllowedPaths,
			// The config file holds keys and the sandbox rules: never writable.
			ProtectedPaths: append(append([]string(nil), cfg.Tools.ProtectedPaths...), paths.ConfigFile),
		},
		MaxResultChars: d.MaxToolResultChars,
		Exec:           tools.ExecOptions{Timeout: execTimeout, AllowedEnvKeys: cfg.Tools.Exec.AllowedEnvKeys, LookupEnv: keys.LookupEnv},
		DisableExec:    !cfg.Tools.Exec.Enabled,
	})...)
	if err == nil {
		var web []tools.Tool
		if web, err = s.reach.Tools(); err == nil {
			err = p.registry.Register(web...)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("agent: register tools: %w", err)
	}
	if err := p.registry.Register(s.memory.Tools()...); err != nil {
		return nil, fmt.Errorf("agent: register memory tools: %w", err)
	}
	if err := p.registry.Register(schedule.Tools(s, s.postMessage, s.bg.clock.Now, nil)...); err != nil {
		return nil, fmt.Errorf("agent: register tools: %w", err)
	}
	pb, err := prompt.New(prompt.Options{Workspace: paths.Workspace, Skills: s.reach.SkillsPrompt})
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	temp := d.Temperature
	est := prompt.NewEstimator() // calibrated per model from the provider's counts
	p.runner, err = agent.New(agent.Options{
		Resolve: s.models.Resolve,
		Tools:   p.registry,
		Store:   p.store,
		Context: &agent.PromptContext{System: pb.SystemPrompt, Estimator: est, Recall: s.memory.Recall,
			Window: heartbeatWindow},
		Estimator:          est,
		DefaultModel:       d.Model,
		Workspace:          paths.Workspace,
		MaxToolIterations:  d.MaxToolIterations,
		ContextTokens:      d.ContextTokens,
		MaxTokens:          d.MaxTokens,
		Temperature:        &temp,
		MaxToolResultChars: d.MaxToolResultChars,
		Channel:            prompt.ChannelDesktop,
		Gate:               s.guard.Gate(),
		Observer:           s.guard.Observe,
		Redact:             keys.Mask,
		OnStop:             p.reach.stopSubagents,
		OnNew:              s.memory.ConsolidateAll,
		AfterRun:           s.afterRun,
		Commands:           s.rememberCommand(),
	})
	if err == nil {
		err = s.startSubagents(p, cfg)
	}
	if err != nil {
		return nil, err
	}
	regs := []*tools.Registry{p.registry, p.reach.subRegistry}
	s.reach.Start(context.Background(), regs...) // connects in the background, never waits
	s.parts = p
	return p, nil
}

// Send starts a turn in session sessionID (empty starts a new session) and
// returns its run id at once; events go to sink as the run goes (the desktop
// forwards them on "run:<runId>"). The run outlives ctx's cancellation on
// purpose: it ends by itself or by Stop. A session that is already running
// refuses with agent.ErrBusy. Text starting with "/" is a slash command.
func (s *Service) Send(ctx context.Context, sessionID, text string, sink event.Sink) (string, error) {
	if ctx == nil {
		ctx = context.Background() // the desktop may call before its context exists
	}
	run, err := s.SendRequest(context.WithoutCancel(ctx), agent.Request{SessionID: sessionID, Text: text}, sink)
	if err != nil {
		return "", err
	}
	return run.ID, nil
}

// SendRequest starts a turn with every option (Model for `--model`, images,
// channel); cancelling ctx stops the run. Wait on the returned run for its
// result.
func (s *Service) SendRequest(ctx context.Context, req agent.Request, sink event.Sink) (*agent.Run, error) {
	p, err := s.agent()
	if err != nil {
		return nil, err
	}
	if req.Model != "" {
		if _, _, err := s.models.Resolve(req.Model); err != nil {
			return nil, fmt.Errorf("model %q: %w", req.Model, err)
		}
	}
	s.memoryNotices(&req)
	return p.runner.Start(ctx, req, sink)
}

// Stop cancels the session's running turn (model call and tools, within a
// second); it reports whether one was running.
func (s *Service) Stop(sessionID string) bool {
	p, err := s.agent()
	if err != nil {
		return false
	}
	return p.runner.Stop(sessionID)
}

// Continue resumes the session's interrupted run (after a crash or a quit
// mid-turn) and returns its run id; events go to sink.
func (s *Service) Continue(ctx context.Context, sessionID string, sink event.Sink) (string, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	p, err := s.agent()
	if err != nil {
		return "", err
	}
	run, err := p.runner.Continue(context.WithoutCancel(ctx), sessionID, sink)
	if err != nil {
		return "", err
	}
	return run.ID, nil
}

// Shutdown stops accepting turns and interrupts the running ones (they can
// be continued after the next start), waiting for them until ctx is done.
func (s *Service) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	p := s.parts
	s.mu.Unlock()
	defer s.retiring.Wait() // parts replaced by a settings save close too
	_ = s.reach.Close(ctx)
	var err error
	if p != nil {
		err = closeParts(ctx, p)
	}
	_ = s.memory.Close(ctx)
	return err
}

// closeParts stops what the parts run: MCP servers and subagents, the
// runner, memory consolidation (finished, or deferred untouched) and the
// memory watcher.
func closeParts(ctx context.Context, p *agentParts) error {
	p.reach.close(ctx)
	return p.runner.Shutdown(ctx)
}

// retireLocked drops the parts so the next use rebuilds them from the
// current config, and closes the old ones in the background (their MCP
// server processes and file watcher would otherwise live on). The caller
// holds s.mu and has checked that no reply is running.
func (s *Service) retireLocked() {
	old := s.parts
	s.parts, s.partsStale = nil, false
	if old == nil {
		return
	}
	s.retiring.Add(1)
	go func() {
		defer s.retiring.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := closeParts(ctx, old); err != nil {
			slog.Warn("closing the agent after a settings change", "err", err)
		}
	}()
}

// inUse refuses to delete a session with a running turn.
func (s *Service) inUse(id string) error {
	s.mu.Lock()
	p := s.parts
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	if runID, busy := p.runner.Busy(id); busy {
		return fmt.Errorf("%w with run %s", agent.ErrBusy, runID)
	}
	return nil
}

// ListSessions lists the sessions, newest first as the store orders them.
func (s *Service) ListSessions() ([]session.Summary, error) { return s.sessions.List() }

// LoadSession reads one session with its messages, runs and interrupted turns.
func (s *Service) LoadSession(id string) (*session.Session, error) { return s.sessions.Load(id) }

// DeleteSession moves a session to the trash and removes its spilled tool
// results. A running session is refused.
func (s *Service) DeleteSession(id string) error { return s.sessions.Delete(id) }

// RenameSession sets a session's title ("" restores the automatic one).
func (s *Service) RenameSession(id, title string) error { return s.sessions.Rename(id, title) }

// Export writes a session as "markdown" or "json" to w.
func (s *Service) Export(id string, format session.Format, w io.Writer) error {
	return s.sessions.Export(id, format, w)
}

// idleLocked reports whether no session has a running turn. Called with mu held.
func (s *Service) idleLocked() bool {
	list, err := s.parts.store.List()
	if err != nil {
		return false
	}
	for _, sum := range list {
		if _, busy := s.parts.runner.Busy(sum.ID); busy {
			return false
		}
	}
	return true
}
