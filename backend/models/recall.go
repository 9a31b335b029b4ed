package models

import (
	"context"
	"slices"
	"strings"

	"hearth/backend/config"
	"hearth/backend/i18n"
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
// reachability check. The note is worded for the window (a code) and says what to do.
func (s *Service) CheckRecall(ctx context.Context, ollamaUp bool) (mode string, note i18n.Message) {
	cfg := s.settings.Config()
	name := strings.TrimSpace(cfg.Agents.Defaults.EmbeddingModel)
	if name == "" {
		return RecallKeyword, i18n.M("recall.unset")
	}
	key, model, err := cfg.ResolveModel(name)
	if err != nil {
		return RecallKeyword, i18n.M("recall.invalid", "model", name, "error", err.Error())
	}
	if ok, reason := cfg.ProviderConfigured(key); !ok {
		return RecallKeyword, i18n.M("recall.provider", "model", name, "provider", key, "reason", reason)
	}
	if key != config.ProviderOllama {
		return RecallKeyword, i18n.M("recall.notOllama", "model", name, "suggested", config.DefaultEmbeddingModel)
	}
	if !ollamaUp {
		return RecallKeyword, i18n.M("recall.ollamaDown")
	}
	// A failed check says where Ollama was asked, how to install the model and how to
	// do without it.
	host := cfg.OllamaHost(s.settings.Getenv)
	o, err := s.ollama()
	if err != nil {
		return RecallKeyword, i18n.M("recall.checkFailed", "model", name, "error", err.Error(), "host", host)
	}
	ctx, cancel := context.WithTimeout(ctx, OllamaCheckTimeout)
	defer cancel()
	d, err := o.Show(ctx, model)
	if err != nil {
		if le, ok := llm.AsError(err); ok && le.Kind == llm.KindModelNotFound {
			return RecallKeyword, i18n.M("recall.notInstalled", "model", model)
		}
		return RecallKeyword, i18n.M("recall.checkFailed", "model", model, "error", err.Error(), "host", host)
	}
	if len(d.Capabilities) > 0 && !slices.Contains(d.Capabilities, llm.CapEmbedding) {
		return RecallKeyword, i18n.M("recall.notEmbedding", "model", name, "suggested", config.DefaultEmbeddingModel)
	}
	return RecallHybrid, i18n.Message{}
}
