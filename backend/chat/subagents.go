package chat

import (
	"context"
	"fmt"
	"path/filepath"

	"hearth/backend/agent"
	"hearth/backend/session"
	"hearth/backend/subagent"
)

// helpers are the background tasks a run may spawn: their own runner over the
// restricted registry, and the manager that runs them and reports back.
type helpers struct {
	runner *agent.Runner
	mgr    *subagent.Manager
}

// newHelpers builds the helpers' runner and manager. Their sessions live in
// sessions/.subagents, out of the sessions list; they are unattended: the gate never
// waits for them, and their tool calls are audited like any other.
func (s *Service) newHelpers() (*helpers, error) {
	st := s.opts.Settings
	ctx := subagent.NewContext(func() string { return st.Paths().Workspace })
	runner, err := agent.New(agent.Options{
		Resolve:   s.opts.Resolve,
		Tools:     s.subTools,
		Store:     session.NewStore(filepath.Join(s.opts.Store.Dir(), ".subagents"), session.Options{Mask: s.opts.Keys.Mask}),
		Context:   ctx,
		Estimator: ctx.Estimator,
		Tune: func() agent.Tuning {
			t := s.tuning()
			t.MaxToolIterations = st.Config().Agents.Defaults.SubagentMaxToolIterations
			return t
		},
		Channel:  "subagent",
		Gate:     s.opts.Gate,
		Observer: s.opts.Observer,
		Redact:   s.opts.Keys.Mask,
		Pending:  s.pending,
	})
	if err != nil {
		return nil, fmt.Errorf("subagents: %w", err)
	}
	parents := s.opts.Store
	mgr, err := subagent.New(subagent.Options{
		Runner:  runner,
		Parents: parents,
		Busy:    func(id string) bool { _, busy := s.runner.Busy(id); return busy },
		// The helper uses the model the chat uses (/model may have changed it).
		Model: func(parent string) string {
			if sess, err := parents.Load(parent); err == nil {
				return sess.Meta.Model
			}
			return ""
		},
		// The report goes out like a reminder's.
		News: s.opts.Background,
	})
	if err != nil {
		return nil, fmt.Errorf("subagents: %w", err)
	}
	return &helpers{runner: runner, mgr: mgr}, nil
}

// stopHelpers is the runner's OnStop hook (/stop, Stop): the session's helpers stop too.
func (s *Service) stopHelpers(sessionID string) bool {
	if s.helpers == nil {
		return false
	}
	return s.helpers.mgr.Cancel(sessionID)
}

// Helpers lists the running background tasks.
func (s *Service) Helpers() []subagent.Info { return s.helpers.mgr.Running() }

// close cancels the helpers and waits for them until ctx is done.
func (h *helpers) close(ctx context.Context) error {
	err := h.mgr.Close(ctx)
	if serr := h.runner.Shutdown(ctx); err == nil {
		err = serr
	}
	return err
}
