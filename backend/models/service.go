package models

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"hearth/backend/config"
	"hearth/backend/egress"
	"hearth/backend/event"
	"hearth/backend/fitness"
	"hearth/backend/i18n"
	"hearth/backend/llm"
	"hearth/backend/settings"
)

// Service is the models service. It is safe for concurrent use and built without
// touching the network: a provider is made when a model of it is first used.
type Service struct {
	settings *settings.Service
	retry    llm.RetryPolicy
	checks   *modelChecks // the fitness check (check.go)
	egress   *egress.Guard
	pulled   *event.Broker[string]
	check    *http.Client // asks Ollama whether it is up (serve.go)

	mu        sync.Mutex
	providers map[string]provider // by provider key ("ollama", "openai", "custom.groq")
	pulls     map[string]context.CancelFunc
	seq       int
	serve     *served // an `ollama serve` started by StartOllama (serve.go)
	// The engine Hearth manages (engine.go): the models Hearth asked Ollama for, what
	// to tell the next chat, when it was started again after dying.
	used       map[string]bool
	engineNews []i18n.Message
	restarts   []time.Time
	closing    bool

	startMu  sync.Mutex // one start at a time
	quitOnce sync.Once
	quit     chan struct{} // closed by Close: no more starts
	engineWG sync.WaitGroup
}

// provider is a built provider and the settings it was built from.
type provider struct {
	llm.Provider
	from string
}

// Options configure New; all may be zero.
type Options struct {
	// Retry bounds the retries of model calls; the zero value is llm's default (a
	// few attempts with backoff, for an Ollama that is still starting).
	Retry llm.RetryPolicy
	// Checked hears every new fitness check result.
	Checked *event.Broker[fitness.Result]
	// Egress is the door the providers' and the checks' connections go through
	// (local-only mode, the egress log); nil: a guard that refuses nothing and
	// keeps its log in memory.
	Egress *egress.Guard
	// Pulled hears every model pulled (memory asks for a missing embedding model
	// again instead of waiting a while).
	Pulled *event.Broker[string]
}

// New returns the service; it builds no provider yet.
func New(s *settings.Service, opts Options) *Service {
	g := opts.Egress
	if g == nil {
		g = egress.New(egress.Options{})
	}
	return &Service{settings: s, retry: opts.Retry, egress: g, pulled: opts.Pulled, providers: map[string]provider{},
		pulls: map[string]context.CancelFunc{}, checks: newModelChecks(s.Paths(), opts.Checked),
		check: g.Client("Ollama check", 0), quit: make(chan struct{})}
}

// Resolve maps a model name ("ollama/qwen3:4b", or a name of the default provider) to
// its provider and the provider's own name for it. A provider is built once per key
// and kept while its settings stay the same, so Ollama's capability cache is shared by
// every run; a changed host, base URL or key builds it anew.
func (s *Service) Resolve(name string) (llm.Provider, string, error) {
	cfg := s.settings.Config()
	key, model, err := cfg.ResolveModel(name)
	if err != nil {
		return nil, "", err
	}
	if ok, reason := cfg.ProviderConfigured(key); !ok {
		return nil, "", fmt.Errorf("provider %s is not set up: %s", key, reason)
	}
	from := s.fingerprint(cfg, key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.providers[key]; ok && p.from == from {
		return p.Provider, model, nil
	}
	p, err := s.build(cfg, key, nil, s.retry)
	if err != nil {
		return nil, "", fmt.Errorf("provider %s: %w", key, err)
	}
	s.providers[key] = provider{Provider: p, from: from}
	return p, model, nil
}

// fingerprint is what a provider is built from: the host or base URL and key, the
// context window and the keys' version (a key replaced in the keyring keeps the same
// reference).
func (s *Service) fingerprint(cfg *config.Config, key string) string {
	if key == config.ProviderOllama {
		return fmt.Sprint(cfg.OllamaHost(s.settings.Getenv), cfg.Agents.Defaults.ContextTokens)
	}
	return fmt.Sprint(openAIConf(cfg, key), cfg.Agents.Defaults.ContextTokens, s.settings.Keys().Version())
}

// openAIConf is the settings of an OpenAI-compatible provider key.
func openAIConf(cfg *config.Config, key string) config.OpenAIProvider {
	if key == config.ProviderOpenAI {
		return cfg.Providers.OpenAI
	}
	return cfg.Providers.Custom[strings.TrimPrefix(key, "custom.")]
}

// build makes the provider of key from cfg; a nil client means one through the
// egress guard (local-only mode, the egress log).
func (s *Service) build(cfg *config.Config, key string, client *http.Client, retry llm.RetryPolicy) (llm.Provider, error) {
	if client == nil {
		client = s.egress.Client("model provider "+key, 0)
	}
	ctxTokens := cfg.Agents.Defaults.ContextTokens
	if key == config.ProviderOllama {
		return llm.NewOllama(llm.OllamaConfig{Host: cfg.OllamaHost(s.settings.Getenv), ContextTokens: ctxTokens, HTTPClient: client, Retry: retry})
	}
	o := openAIConf(cfg, key)
	apiKey, err := s.settings.Keys().Resolve(o.APIKey)
	if err != nil {
		return nil, err
	}
	return llm.NewOpenAI(llm.OpenAIConfig{Name: key, BaseURL: o.APIBase, APIKey: apiKey, ContextTokens: ctxTokens, HTTPClient: client, Retry: retry})
}
