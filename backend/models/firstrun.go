package models

import (
	"context"
	"os/exec"
	"slices"
	"strings"
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
	st := s.settings.Status(ctx)
	fr := FirstRun{
		OllamaHost: st.OllamaHost, OllamaRunning: st.OllamaReachable, OllamaError: st.OllamaError,
		Models: []string{}, ChatModels: []string{}, Model: st.Model, SuggestedModel: SuggestedModel, Workspace: st.Workspace,
	}
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
	want, _ := strings.CutPrefix(st.Model, "ollama/")
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
