package models

import (
	"context"
	"fmt"
	"sync"

	"hearth/backend/config"
	"hearth/backend/llm"
	"hearth/backend/settings"
)

// Service is the models service. It is safe for concurrent use and built without
// touching the network: a provider is made when a model of it is first used.
type Service struct {
	settings *settings.Service
	retry    llm.RetryPolicy

	mu        sync.Mutex
	providers map[string]provider // by provider key ("ollama", "openai", "custom.groq")
	pulls     map[string]context.CancelFunc
	seq       int
}

// provider is a built provider and the settings it was built from.
type provider struct {
	llm.Provider
	from string
}

// New returns the service; retry bounds the retries of model calls (the zero value
// is llm's default: a few attempts with backoff, for an Ollama that is still
// starting).
func New(s *settings.Service, retry llm.RetryPolicy) *Service {
	return &Service{settings: s, retry: retry, providers: map[string]provider{}, pulls: map[string]context.CancelFunc{}}
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
	p, err := s.build(cfg, key)
	if err != nil {
		return nil, "", fmt.Errorf("provider %s: %w", key, err)
	}
	s.providers[key] = provider{Provider: p, from: from}
	return p, model, nil
}

// fingerprint is what a provider is built from: its settings, the context window and
// the keys' version (a key replaced in the keyring keeps the same reference).
func (s *Service) fingerprint(cfg *config.Config, key string) string {
	ctx := cfg.Agents.Defaults.ContextTokens
	switch key {
	case config.ProviderOllama:
		return fmt.Sprintf("%s|%d", cfg.OllamaHost(s.settings.Getenv), ctx)
	case config.ProviderOpenAI:
		o := cfg.Providers.OpenAI
		return fmt.Sprintf("%s|%s|%d|%d", o.APIBase, o.APIKey, ctx, s.settings.Keys().Version())
	}
	c := cfg.Providers.Custom[key[len("custom."):]]
	return fmt.Sprintf("%s|%s|%d|%d", c.APIBase, c.APIKey, ctx, s.settings.Keys().Version())
}

func (s *Service) build(cfg *config.Config, key string) (llm.Provider, error) {
	ctxTokens := cfg.Agents.Defaults.ContextTokens
	keys := s.settings.Keys()
	switch key {
	case config.ProviderOllama:
		return llm.NewOllama(llm.OllamaConfig{Host: cfg.OllamaHost(s.settings.Getenv), ContextTokens: ctxTokens, Retry: s.retry})
	case config.ProviderOpenAI:
		o := cfg.Providers.OpenAI
		apiKey, err := keys.Resolve(o.APIKey)
		if err != nil {
			return nil, err
		}
		return llm.NewOpenAI(llm.OpenAIConfig{Name: key, BaseURL: o.APIBase, APIKey: apiKey, ContextTokens: ctxTokens, Retry: s.retry})
	}
	c := cfg.Providers.Custom[key[len("custom."):]]
	apiKey, err := keys.Resolve(c.APIKey)
	if err != nil {
		return nil, err
	}
	return llm.NewOpenAI(llm.OpenAIConfig{Name: key, BaseURL: c.APIBase, APIKey: apiKey, ContextTokens: ctxTokens, Retry: s.retry})
}
