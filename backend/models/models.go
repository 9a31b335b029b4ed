// Package models is the models service: one provider per configured provider key
// (built on first use and rebuilt only when that provider's settings or key change),
// and the Ollama model management the Models view and `hearth models` use: list,
// pull (with progress, cancellable), delete and the first-run check.
package models

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hearth/backend/config"
	"hearth/backend/fitness"
	"hearth/backend/llm"
)

// ModelEntry is one installed Ollama model with what /api/show says about it.
type ModelEntry struct {
	Name          string   `json:"name"`
	Size          int64    `json:"size"`
	Family        string   `json:"family"`
	ParameterSize string   `json:"parameterSize"`
	Quantization  string   `json:"quantization"`
	ContextLength int      `json:"contextLength"`
	Capabilities  []string `json:"capabilities"`
	// Fitness is the model's fitness check, when one is current for its digest.
	Fitness *fitness.Result `json:"fitness,omitempty"`
	// ToolsAnyway: the user chose "Offer tools anyway" for this digest.
	ToolsAnyway bool `json:"toolsAnyway"`
}

// modelRetry keeps model management snappy when Ollama is down: one quick retry
// covers a server that is just starting.
func modelRetry() llm.RetryPolicy {
	return llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 300 * time.Millisecond}
}

// ollama builds a provider for the configured Ollama host.
func (s *Service) ollama() (*llm.Ollama, error) {
	cfg := s.settings.Config()
	o, err := llm.NewOllama(llm.OllamaConfig{
		Host:          cfg.OllamaHost(s.settings.Getenv),
		ContextTokens: cfg.Agents.Defaults.ContextTokens,
		Retry:         modelRetry(),
		HTTPClient:    s.egress.Client("Ollama models", 0),
	})
	if err != nil {
		return nil, fmt.Errorf("ollama provider: %w", err)
	}
	return o, nil
}

// ollamaModelName accepts "qwen3:4b" and "ollama/qwen3:4b"; other providers'
// models cannot be managed here.
func ollamaModelName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if p, m, ok := strings.Cut(name, "/"); ok && p == "ollama" {
		name = m
	} else if ok && (p == "openai" || strings.HasPrefix(p, "custom.")) {
		return "", fmt.Errorf("%s is a %s model: only Ollama models can be pulled, listed or removed", name, p)
	}
	if name == "" {
		return "", fmt.Errorf("empty model name")
	}
	return name, nil
}

// List lists the installed Ollama models with their details (one
// /api/show per model). A model whose details cannot be read is still listed.
func (s *Service) List(ctx context.Context) ([]ModelEntry, error) {
	o, err := s.ollama()
	if err != nil {
		return nil, err
	}
	models, err := o.Models(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ModelEntry, 0, len(models))
	for _, m := range models {
		e := ModelEntry{Name: m.Name, Size: m.Size, Family: m.Family, ParameterSize: m.ParameterSize, Quantization: m.QuantizationLevel}
		key := fitness.Key(config.ProviderOllama, m.Name)
		if r, ok := s.checks.store.Get(key, m.Digest); ok {
			e.Fitness = &r
		}
		e.ToolsAnyway = s.checks.store.ToolsAnyway(key, m.Digest)
		if d, err := o.Show(ctx, m.Name); err == nil {
			e.ContextLength = d.ContextLength
			for _, c := range d.Capabilities {
				e.Capabilities = append(e.Capabilities, string(c))
			}
		} else if ctx.Err() != nil {
			return nil, fmt.Errorf("list models: %w", ctx.Err())
		}
		out = append(out, e)
	}
	return out, nil
}

// Pull downloads an Ollama model, reporting progress to fn.
func (s *Service) Pull(ctx context.Context, name string, fn func(llm.PullProgress)) error {
	model, err := ollamaModelName(name)
	if err != nil {
		return err
	}
	o, err := s.ollama()
	if err != nil {
		return err
	}
	if err := o.Pull(ctx, model, fn); err != nil {
		return err
	}
	if s.pulled != nil {
		s.pulled.Publish(model) // the recall index asks for the embedding model again
	}
	return nil
}

// Delete removes an installed Ollama model.
func (s *Service) Delete(ctx context.Context, name string) error {
	model, err := ollamaModelName(name)
	if err != nil {
		return err
	}
	o, err := s.ollama()
	if err != nil {
		return err
	}
	return o.Delete(ctx, model)
}
