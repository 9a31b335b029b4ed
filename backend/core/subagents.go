package core

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"

	"hearth/backend/agent"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/session"
	"hearth/backend/subagent"
	"hearth/backend/tools"
)

// subagentRegistry copies the main registry's tools except those a
// subagent must not have (spawn, message, cron).
func subagentRegistry(main *tools.Registry, masker *tools.Masker) (*tools.Registry, error) {
	reg := tools.NewRegistry(tools.RegistryOptions{Masker: masker})
	for _, name := range main.Names() {
		if slices.Contains(subagent.Excluded, name) {
			continue
		}
		t, ok := main.Get(name)
		if !ok {
			continue
		}
		if err := reg.Register(t); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// startSubagents builds the restricted runner and the manager, and offers
// spawn to the main agent. Subagent sessions live in sessions/.subagents,
// out of the sessions list.
func (s *Service) startSubagents(p *agentParts, cfg *config.Config) error {
	d := cfg.Agents.Defaults
	paths := s.settings.Paths()
	ws := paths.Workspace
	reg, err := subagentRegistry(p.registry, s.settings.Keys().Masker())
	if err != nil {
		return fmt.Errorf("subagents: %w", err)
	}
	temp := d.Temperature
	runner, err := agent.New(agent.Options{
		Resolve:            s.models.Resolve,
		Tools:              reg,
		Store:              session.NewStore(filepath.Join(paths.SessionsDir, ".subagents"), session.Options{}),
		Context:            subagent.NewContext(ws),
		DefaultModel:       d.Model,
		Workspace:          ws,
		MaxToolIterations:  d.SubagentMaxToolIterations,
		ContextTokens:      d.ContextTokens,
		MaxTokens:          d.MaxTokens,
		Temperature:        &temp,
		MaxToolResultChars: d.MaxToolResultChars,
		Channel:            "subagent",
		// Subagents are unattended: the gate never waits for them (F-APPROVAL),
		// and their tool calls are audited like any other.
		Gate:     s.guard.Gate(),
		Observer: s.guard.Observe,
		Redact:   s.settings.Keys().Mask,
	})
	if err != nil {
		return fmt.Errorf("subagents: %w", err)
	}
	mgr, err := subagent.New(subagent.Options{
		Runner:  runner,
		Parents: p.store,
		Busy:    func(id string) bool { _, busy := p.runner.Busy(id); return busy },
		// The helper uses the model the chat uses (/model may have changed it).
		Model: func(parent string) string {
			if sess, err := p.store.Load(parent); err == nil {
				return sess.Meta.Model
			}
			return ""
		},
		// The report goes out like a reminder's: a notification that opens
		// the chat, and the window reloads that chat (it got a new message).
		Notify: func(r subagent.Report) {
			title := fmt.Sprintf("Background task %q finished", r.Label)
			if r.Status != event.StatusOK {
				title = fmt.Sprintf("Background task %q %s", r.Label, r.Status)
			}
			s.bg.emit(BackgroundEvent{Kind: BackgroundSubagent, Title: title,
				Text: firstLine(r.Result+r.Error, 200), SessionID: r.ParentSessionID})
		},
	})
	if err != nil {
		return fmt.Errorf("subagents: %w", err)
	}
	p.reach.subagents = mgr
	p.reach.subRegistry = reg
	return p.registry.Register(mgr.Tool())
}

// stopSubagents is the Runner's OnStop hook (/stop, Stop).
func (r *reachParts) stopSubagents(sessionID string) bool {
	if r == nil || r.subagents == nil {
		return false
	}
	return r.subagents.Cancel(sessionID)
}

// close stops the subagents and MCP connections at shutdown.
func (r *reachParts) close(ctx context.Context) {
	if r == nil {
		return
	}
	if r.subagents != nil {
		if err := r.subagents.Close(ctx); err != nil {
			slog.Warn("shutdown", "err", err)
		}
	}
}

// Subagents lists the running background tasks.
func (s *Service) Subagents() []subagent.Info {
	p, err := s.agent()
	if err != nil {
		return nil
	}
	return p.reach.subagents.Running()
}

func firstLine(s string, n int) string {
	for i, c := range s {
		if c == '\n' {
			s = s[:i]
			break
		}
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// reachParts are the subagents the agent owns: their manager and their registry
// (the main tools minus spawn, message and cron; MCP tools are added there too).
type reachParts struct {
	subagents   *subagent.Manager
	subRegistry *tools.Registry
}
