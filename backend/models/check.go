package models

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/fitness"
	"hearth/backend/llm"
)

// modelChecks runs the model fitness check (backend/fitness): when asked (the
// Models view, `hearth models check`) and, in the desktop app, by itself once per
// model digest, after the model's first reply. Every new result is published on
// the Checked broker given to New.
type modelChecks struct {
	store *fitness.Store
	opts  fitness.Options
	// autoRetry is how long a failed background check waits before it is tried
	// again (after a later reply).
	autoRetry time.Duration
	// recheck is how long a found current result stands before a later reply
	// looks at the model's digest again (a model re-pulled in a terminal).
	recheck time.Duration

	mu      sync.Mutex
	auto    bool
	closed  bool
	runs    map[string]string // run id → model name, while the run goes on
	seen    map[string]autoState
	cancel  context.CancelFunc // the background check in progress, if any
	gen     int                // counts the background checks started
	checked *event.Broker[fitness.Result]
	wg      sync.WaitGroup
}

// autoState is what the background check knows about one model.
type autoState struct {
	verified time.Time // a current result was there (or was made) at this time
	failed   time.Time // the last background check failed at this time
}

func newModelChecks(paths config.Paths, checked *event.Broker[fitness.Result]) *modelChecks {
	return &modelChecks{checked: checked,
		store:     fitness.NewStore(filepath.Join(paths.StateDir, fitness.FileName)),
		autoRetry: 10 * time.Minute,
		recheck:   10 * time.Minute,
		runs:      map[string]string{},
		seen:      map[string]autoState{},
	}
}

// checkTarget resolves a model name for the check: "openai/…" and "custom.x/…"
// name their provider; anything else is an Ollama model, with or without the
// "ollama/" prefix, as in the other models commands.
func (s *Service) checkTarget(name string) (key string, p llm.Provider, model string, err error) {
	cfg := s.settings.Config()
	provider := config.ProviderOllama
	if pre, _, ok := strings.Cut(strings.TrimSpace(name), "/"); ok && (pre == config.ProviderOpenAI || strings.HasPrefix(pre, "custom.")) {
		if provider, model, err = cfg.ResolveModel(strings.TrimSpace(name)); err != nil {
			return "", nil, "", fmt.Errorf("check %s: %w", name, err)
		}
		if ok, reason := cfg.ProviderConfigured(provider); !ok {
			return "", nil, "", fmt.Errorf("check %s: provider %s is not set up: %s", name, provider, reason)
		}
	} else if model, err = ollamaModelName(name); err != nil {
		return "", nil, "", fmt.Errorf("check: %w (hint: name a model, e.g. qwen3:4b)", err)
	}
	// Its own client marks the requests (fitness.Header); one quick retry
	// covers an Ollama that is just starting.
	p, err = s.build(cfg, provider, fitness.HTTPClientOver(s.egress.Transport("model check "+provider)), modelRetry())
	if err != nil {
		return "", nil, "", err
	}
	return fitness.Key(provider, model), p, model, nil
}

// Check runs the fitness check of a model now and keeps the result. It takes up to
// half a minute on a CPU; a background check in progress is stopped so the two do
// not compete.
func (s *Service) Check(ctx context.Context, name string) (fitness.Result, error) {
	key, p, model, err := s.checkTarget(name)
	if err != nil {
		return fitness.Result{}, err
	}
	s.checks.stopBackground()
	r, err := fitness.Check(ctx, p, model, s.checks.opts)
	if err != nil {
		return r, err
	}
	r.Model = key
	return s.checks.keep(key, r)
}

// SetToolsAnyway records (on) or withdraws the user's "Offer tools anyway" for a
// model at its current digest: the next turn offers it tools whatever its check said.
func (s *Service) SetToolsAnyway(ctx context.Context, name string, on bool) error {
	key, p, model, err := s.checkTarget(name)
	if err != nil {
		return err
	}
	digest := ""
	if sh, ok := p.(llm.ModelShower); ok {
		d, err := sh.Show(ctx, model)
		if err != nil {
			return fmt.Errorf("offer tools to %s: %w", name, err)
		}
		digest = d.Digest
	}
	return s.checks.store.SetToolsAnyway(key, digest, on, time.Now())
}

// AutoCheck turns on the background check after a model's first reply (the desktop
// app; a one-shot CLI run would only be kept from exiting).
func (s *Service) AutoCheck() {
	s.checks.mu.Lock()
	defer s.checks.mu.Unlock()
	s.checks.auto = true
}

// modelKey is the store key of a configured or listed model name.
func (s *Service) modelKey(name string) (string, error) {
	if pre, _, ok := strings.Cut(name, "/"); ok && (pre == config.ProviderOpenAI || strings.HasPrefix(pre, "custom.")) {
		provider, model, err := s.settings.Config().ResolveModel(name)
		if err != nil {
			return "", err
		}
		return fitness.Key(provider, model), nil
	}
	model, err := ollamaModelName(name)
	if err != nil {
		return "", err
	}
	return fitness.Key(config.ProviderOllama, model), nil
}

// keep stores a check's result, laying the user's chats over it first: a model that
// made a valid structured call for the user is not demoted by a probe (same digest).
func (c *modelChecks) keep(key string, r fitness.Result) (fitness.Result, error) {
	if e, ok := c.store.EvidenceFor(key, r.Digest); ok {
		r.Overrule(e)
	}
	err := c.store.Put(key, r)
	c.mu.Lock()
	c.seen[key] = autoState{verified: time.Now()}
	c.mu.Unlock()
	if c.checked != nil {
		c.checked.Publish(r)
	}
	return r, err
}

// Observe follows the runs (an event.Sink beside the audit log): a run that starts
// stops a background check (the user's reply comes first; the check is tried again
// later), and a run that ended well checks its model when no other run is going on.
func (s *Service) Observe(ev event.Event) {
	c := s.checks
	switch ev.Type {
	case event.RunStarted:
		d, _ := ev.Data.(event.StartedData)
		c.mu.Lock()
		c.runs[ev.RunID] = d.Model
		// A stopped check no longer counts as in progress, so the reply that
		// stopped it can start it again even before its goroutine has ended.
		cancel := c.cancel
		c.cancel = nil
		c.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	case event.RunFinished:
		d, _ := ev.Data.(event.FinishedData)
		c.mu.Lock()
		model := c.runs[ev.RunID]
		delete(c.runs, ev.RunID)
		idle := len(c.runs) == 0
		c.mu.Unlock()
		if idle && d.Status == event.StatusOK && model != "" {
			s.autoCheck(model)
		}
	}
}

// autoCheck starts the background check of a configured model name when it is
// due. Only Ollama models are checked unasked: the probes cost nothing there,
// but a cloud provider bills them.
func (s *Service) autoCheck(name string) {
	provider, _, err := s.settings.Config().ResolveModel(name)
	if err != nil || provider != config.ProviderOllama {
		return
	}
	key, err := s.modelKey(name)
	if err != nil {
		return
	}
	c := s.checks
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.seen[key]
	now := time.Now()
	if !c.auto || c.closed || c.cancel != nil || now.Sub(st.verified) < c.recheck || now.Sub(st.failed) < c.autoRetry {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	c.gen++
	gen := c.gen
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		err := s.backgroundCheck(ctx, key, name)
		c.mu.Lock()
		if c.gen == gen {
			c.cancel = nil
		}
		st := c.seen[key]
		switch {
		case err == nil:
			st.verified = time.Now()
		case ctx.Err() != nil:
			// Stopped for a run or by quitting: due again after the next reply.
		default:
			st.failed = time.Now()
			slog.Info("model fitness check failed; it is tried again later", "model", name, "err", err)
		}
		c.seen[key] = st
		c.mu.Unlock()
		cancel()
	}()
}

// backgroundCheck checks the model unless a current result exists for its digest.
func (s *Service) backgroundCheck(ctx context.Context, key, name string) error {
	_, p, model, err := s.checkTarget(name)
	if err != nil {
		return err
	}
	if sh, ok := p.(llm.ModelShower); ok {
		d, err := sh.Show(ctx, model)
		if err != nil {
			return err
		}
		if _, ok := s.checks.store.Get(key, d.Digest); ok {
			return nil
		}
		if d.Has(llm.CapEmbedding) && !d.Has(llm.CapCompletion) {
			return nil
		}
	}
	r, err := fitness.Check(ctx, p, model, s.checks.opts)
	if err != nil {
		return err
	}
	r.Model = key
	_, err = s.checks.keep(key, r)
	return err
}

// stopBackground stops the background check in progress, if any.
func (c *modelChecks) stopBackground() {
	c.mu.Lock()
	cancel := c.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// close stops the background check and waits for it.
func (c *modelChecks) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.stopBackground()
	c.wg.Wait()
}
