package app

import (
	"context"
	"slices"
	"strings"

	"hearth/backend/config"
)

// modelInstalled tells /model whether an Ollama model is downloaded, with the installed
// ones to offer instead; another provider's model is taken as it is (its server says
// whether it knows the name when the chat asks). Ollama down is an error: /model then
// switches without a claim either way.
func (a *App) modelInstalled(ctx context.Context, name string) (bool, []string, error) {
	provider, model, err := a.Settings.Config().ResolveModel(name)
	if err != nil || provider != config.ProviderOllama {
		return true, nil, err
	}
	list, err := a.Models.List(ctx)
	if err != nil {
		return false, nil, err
	}
	var names []string
	for _, m := range list {
		if sameOllamaModel(m.Name, model) {
			return true, nil, nil
		}
		names = append(names, m.Name)
	}
	return false, names, nil
}

// sameOllamaModel compares names as Ollama does: "qwen3" is "qwen3:latest".
func sameOllamaModel(a, b string) bool {
	tagged := func(s string) string {
		if !strings.Contains(s, ":") {
			return s + ":latest"
		}
		return s
	}
	return strings.EqualFold(tagged(a), tagged(b))
}

// visionModels names the installed Ollama models that see pictures (their /api/show
// capabilities say "vision"): the models a chat can switch to when its own cannot see
// a message's pictures. Ollama down names none.
func (a *App) visionModels(ctx context.Context) []string {
	list, err := a.Models.List(ctx)
	if err != nil {
		return nil
	}
	var names []string
	for _, m := range list {
		if slices.Contains(m.Capabilities, "vision") {
			names = append(names, m.Name)
		}
	}
	return names
}
