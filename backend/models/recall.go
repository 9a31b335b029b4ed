package models

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"hearth/backend/config"
	"hearth/backend/llm"
)

// Recall modes of Status.Recall.
const (
	RecallHybrid  = "hybrid"
	RecallKeyword = "keyword"
)

// CheckRecall says whether memory recall can search by meaning (the status report):
// the embedding model is set, its provider can embed, and (for Ollama) the model is
// installed and is an embedding model. One /api/show, bounded like the
// reachability check.
func (s *Service) CheckRecall(ctx context.Context, ollamaUp bool) (mode, note string) {
	cfg := s.settings.Config()
	name := strings.TrimSpace(cfg.Agents.Defaults.EmbeddingModel)
	if name == "" {
		return RecallKeyword, "no embedding model is set (agents.defaults.embeddingModel)"
	}
	key, model, err := cfg.ResolveModel(name)
	if err != nil {
		return RecallKeyword, fmt.Sprintf("embedding model %s: %v", name, err)
	}
	if ok, reason := cfg.ProviderConfigured(key); !ok {
		return RecallKeyword, fmt.Sprintf("embedding model %s: provider %s is not set up: %s", name, key, reason)
	}
	if key != config.ProviderOllama {
		return RecallKeyword, fmt.Sprintf("embedding model %s: only Ollama embedding models are supported (hint: set agents.defaults.embeddingModel to e.g. %s)", name, config.DefaultEmbeddingModel)
	}
	if !ollamaUp {
		return RecallKeyword, "Ollama is not reachable, so the embedding model cannot be used until it is"
	}
	o, err := s.ollama()
	if err != nil {
		return RecallKeyword, err.Error()
	}
	ctx, cancel := context.WithTimeout(ctx, OllamaCheckTimeout)
	defer cancel()
	d, err := o.Show(ctx, model)
	if err != nil {
		if le, ok := llm.AsError(err); ok && le.Kind == llm.KindModelNotFound {
			return RecallKeyword, fmt.Sprintf("the embedding model %s is not installed (hint: hearth models pull %s)", model, model)
		}
		return RecallKeyword, fmt.Sprintf("the embedding model %s could not be checked: %v", model, err)
	}
	if len(d.Capabilities) > 0 && !slices.Contains(d.Capabilities, llm.CapEmbedding) {
		return RecallKeyword, fmt.Sprintf("%s is not an embedding model (hint: set agents.defaults.embeddingModel to e.g. %s)", name, config.DefaultEmbeddingModel)
	}
	return RecallHybrid, ""
}
