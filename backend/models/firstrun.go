package models

import (
	"context"
	"os/exec"
	"slices"
	"strings"

	"hearth/backend/i18n"
	"hearth/backend/settings"
)

// SuggestedModel is offered on first run when no chat model is installed: small,
// with tools and thinking, good on a laptop.
const SuggestedModel = "qwen3:4b"

// FirstRun is what the first-run guide checks: is Ollama running or at least
// installed, is there a model to chat with, where is the workspace.
type FirstRun struct {
	OllamaHost      string   `json:"ollamaHost"`
	OllamaRunning   bool     `json:"ollamaRunning"`
	OllamaInstalled bool     `json:"ollamaInstalled"`
	OllamaError     string   `json:"ollamaError"`
	Models          []string `json:"models"`
	ChatModels      []string `json:"chatModels"`
	ModelInstalled  bool     `json:"modelInstalled"` // the configured model is installed
	Model           string   `json:"model"`
	SuggestedModel  string   `json:"suggestedModel"`
	Workspace       string   `json:"workspace"`
}

// FirstRun checks what the guide needs. lookPath finds the ollama binary
// (nil means exec.LookPath).
func (s *Service) FirstRun(ctx context.Context, lookPath func(string) (string, error)) FirstRun {
	if ctx == nil {
		ctx = context.Background()
	}
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	cfg := s.settings.Config()
	fr := FirstRun{OllamaHost: cfg.OllamaHost(s.settings.Getenv), Models: []string{}, ChatModels: []string{},
		Model: cfg.Agents.Defaults.Model, SuggestedModel: SuggestedModel, Workspace: s.settings.Paths().Workspace}
	_, fr.OllamaError = s.CheckOllama(ctx, fr.OllamaHost)
	fr.OllamaRunning = fr.OllamaError == ""
	_, err := lookPath("ollama")
	fr.OllamaInstalled = err == nil || fr.OllamaRunning
	if !fr.OllamaRunning {
		return fr
	}
	models, err := s.List(ctx)
	if err != nil {
		fr.OllamaError = err.Error()
		return fr
	}
	want, _ := strings.CutPrefix(fr.Model, "ollama/")
	for _, m := range models {
		fr.Models = append(fr.Models, m.Name)
		if !slices.Contains(m.Capabilities, "embedding") {
			fr.ChatModels = append(fr.ChatModels, m.Name)
		}
		if m.Name == want || m.Name == want+":latest" {
			fr.ModelInstalled = true
		}
	}
	return fr
}

// Report adds to st what the models service knows: whether Ollama answers at the
// configured host and what Hearth can do about it, and how memory recall searches.
func (s *Service) Report(ctx context.Context, st *settings.Status) {
	st.OllamaVersion, st.OllamaError = s.CheckOllama(ctx, st.OllamaHost)
	st.OllamaReachable = st.OllamaError == ""
	st.OllamaEngine = s.Engine(st.OllamaHost)
	var why i18n.Message
	if st.Recall, why = s.CheckRecall(ctx, st.OllamaReachable); why.Code != "" {
		st.RecallNote, st.RecallWhy = why.String(), &why
	}
}
