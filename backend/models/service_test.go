package models

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/adrg/xdg"
	"github.com/zalando/go-keyring"

	"hearth/backend/config"
	"hearth/backend/llm"
	"hearth/backend/settings"
)

func openSettings(t *testing.T) *settings.Service {
	t.Helper()
	root := t.TempDir()
	for k, v := range map[string]string{"HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data", "XDG_STATE_HOME": "state"} {
		t.Setenv(k, filepath.Join(root, v))
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	keyring.MockInitWithError(errors.New("no keyring in tests: keys stay in config.json"))
	return settings.Open(settings.Options{Getenv: func(string) string { return "" }})
}

// A provider is built once and kept while its own settings stay: a changed model or
// another provider's host leaves it alone; its new key builds it again.
func TestResolveRebuildsOnlyTheProviderWhoseSettingsChanged(t *testing.T) {
	s := openSettings(t)
	if err := s.Keys().SetAPIKey("openai", "sk-one"); err != nil {
		t.Fatal(err)
	}
	m := New(s, Options{Retry: llm.RetryPolicy{MaxAttempts: 1}})
	oa, name, err := m.Resolve("openai/gpt-4o")
	if err != nil || name != "gpt-4o" {
		t.Fatalf("Resolve = %v, %q, %v", oa, name, err)
	}
	ol, _, err := m.Resolve("ollama/qwen3:4b")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(func(c *config.Config) error { c.Agents.Defaults.Model = "ollama/llama3.2:1b"; return nil }); err != nil {
		t.Fatal(err)
	}
	if again, _, _ := m.Resolve("openai/gpt-4o"); again != oa {
		t.Error("a changed default model rebuilt the OpenAI provider")
	}
	if err := s.Update(func(c *config.Config) error { c.Providers.Ollama.Host = "http://127.0.0.1:1"; return nil }); err != nil {
		t.Fatal(err)
	}
	if again, _, _ := m.Resolve("openai/gpt-4o"); again != oa {
		t.Error("Ollama's new host rebuilt the OpenAI provider")
	}
	if again, _, _ := m.Resolve("ollama/qwen3:4b"); again == ol {
		t.Error("Ollama's new host kept the old Ollama provider")
	}
	if err := s.Keys().SetAPIKey("openai", "sk-two"); err != nil {
		t.Fatal(err)
	}
	if again, _, _ := m.Resolve("openai/gpt-4o"); again == oa {
		t.Error("a new OpenAI key kept the provider built with the old one")
	}
	if _, _, err := m.Resolve("custom.nope/x"); err == nil {
		t.Error("an unknown provider resolved")
	}
}
