package models

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"hearth/backend/config"
	"hearth/backend/fitness"
	"hearth/backend/i18n"
	"hearth/backend/llm"
)

// checkedProvider is the provider of one chat run. Before the run's first request (the
// loop's Show) it makes sure a managed Ollama runs (engine.go), and it lays the model's
// check over what the provider says about the model, so the loop reads both through
// llm.ModelShower: a model found unable to call tools shows no tools capability (the
// run sends no tool schemas and says so once) unless the user chose "Offer tools
// anyway", and a context maximum the provider does not report comes from the check.
type checkedProvider struct {
	llm.Provider
	key    string
	ollama bool
	svc    *Service
	notes  *runNotes
	host   string // where a provider other than Ollama answers (its apiBase's host)
}

// Cloud reports a provider other than the local engine (agent.Remote).
func (p checkedProvider) Cloud() bool { return !p.ollama }

// LocalOnlyBlocked reports a provider that local-only mode would refuse now: a
// fallback to it is skipped before anything is sent (agent.Remote). Ollama's host is
// always allowed.
func (p checkedProvider) LocalOnlyBlocked() bool { return !p.ollama && !p.svc.egress.Allows(p.host) }

// runNotes is what the run's provider has to tell the user as the run starts.
type runNotes struct {
	mu     sync.Mutex
	msgs   []i18n.Message
	digest string // the model's, as Show found it
	proven bool   // the run's evidence is recorded
}

// Chat is the provider's; a reply with a valid structured call of an offered tool is
// kept as evidence that the model calls tools (fitness.Evidence).
func (p checkedProvider) Chat(ctx context.Context, req llm.Request, onDelta func(llm.Chunk)) (llm.Response, error) {
	resp, err := p.Provider.Chat(ctx, req, onDelta)
	if err != nil {
		return resp, err
	}
	if tool := structuredCall(req, resp); tool != "" {
		p.notes.mu.Lock()
		digest, done := p.notes.digest, p.notes.proven
		p.notes.proven = true
		p.notes.mu.Unlock()
		if !done {
			if err := p.svc.checks.store.RecordCall(p.key, digest, tool, time.Now()); err != nil {
				slog.Warn("could not keep the evidence that the model calls tools", "model", p.key, "err", err)
			}
		}
	}
	return resp, nil
}

// structuredCall names the first call of resp that is evidence the model calls tools:
// structured (not read from text), of a tool the request offered, with an object of
// arguments; "" when there is none.
func structuredCall(req llm.Request, resp llm.Response) string {
	for _, c := range resp.Message.ToolCalls {
		if c.Unknown || c.FromText || c.ArgsError != "" || resp.TextToolCalls {
			continue
		}
		var args map[string]any
		if json.Unmarshal(c.Arguments, &args) != nil {
			continue
		}
		for _, d := range req.Tools {
			if d.Name == c.Name {
				return c.Name
			}
		}
	}
	return ""
}

func (p checkedProvider) Show(ctx context.Context, model string) (llm.ModelDetails, error) {
	if p.ollama {
		p.svc.use(model)
		_ = p.svc.EnsureOllama(ctx) // a failure is told (EngineNotices); Show's error follows
		msgs := p.svc.EngineNotices()
		p.notes.mu.Lock()
		p.notes.msgs = append(p.notes.msgs, msgs...)
		p.notes.mu.Unlock()
	}
	var d llm.ModelDetails
	if sh, ok := p.Provider.(llm.ModelShower); ok {
		var err error
		if d, err = sh.Show(ctx, model); err != nil {
			return d, err
		}
	}
	p.notes.mu.Lock()
	p.notes.digest = d.Digest
	p.notes.mu.Unlock()
	store := p.svc.checks.store
	r, ok := store.Get(p.key, d.Digest)
	if !ok {
		return d, nil
	}
	if r.ContextMax > 0 && (d.ContextLength == 0 || r.ContextMax < d.ContextLength) {
		d.ContextLength = r.ContextMax
	}
	if !r.OffersTools() && !store.ToolsAnyway(p.key, d.Digest) {
		caps := []llm.Capability{llm.CapCompletion}
		for _, c := range d.Capabilities {
			if c != llm.CapTools && c != llm.CapCompletion {
				caps = append(caps, c)
			}
		}
		d.Capabilities = caps
	}
	return d, nil
}

// Notices returns, once, what the run should tell the user as it starts (Hearth
// started Ollama, or started it again after it died).
func (p checkedProvider) Notices() []i18n.Message {
	p.notes.mu.Lock()
	defer p.notes.mu.Unlock()
	out := p.notes.msgs
	p.notes.msgs = nil
	return out
}

// ResolveChat is Resolve for the chat's runs: the provider comes with the engine kept
// running and the model's check laid over it (checkedProvider).
func (s *Service) ResolveChat(name string) (llm.Provider, string, error) {
	p, model, err := s.Resolve(name)
	if err != nil {
		return nil, "", err
	}
	provider, _, err := s.settings.Config().ResolveModel(name)
	if err != nil {
		return nil, "", err
	}
	cp := checkedProvider{Provider: p, key: fitness.Key(provider, model), ollama: provider == config.ProviderOllama,
		svc: s, notes: &runNotes{}}
	if !cp.ollama {
		cp.host = apiHost(openAIConf(s.settings.Config(), provider).APIBase)
	}
	return cp, model, nil
}

// apiHost is the host:port an API base URL is reached at ("" when it cannot be read:
// not this machine, so local-only mode refuses it).
func apiHost(base string) string {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || u.Hostname() == "" {
		return ""
	}
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "http" {
		return net.JoinHostPort(u.Hostname(), "80")
	}
	return net.JoinHostPort(u.Hostname(), "443")
}
