package keymask

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"hearth/backend/config"
)

// keys is a config and keyring as the settings hold them.
type keys struct {
	cfg     atomic.Pointer[config.Config]
	ring    map[string]string
	version atomic.Int32
	reads   atomic.Int32
}

func newKeys(apiKey string) *keys {
	k := &keys{ring: map[string]string{}}
	c := config.Default()
	c.Providers.OpenAI.APIKey = apiKey
	k.cfg.Store(c)
	return k
}

func (k *keys) masker() *Keys {
	return New(Options{Config: k.cfg.Load, Version: func() int { return int(k.version.Load()) },
		Resolve: func(ref string) (string, error) {
			k.reads.Add(1)
			name := strings.TrimSuffix(strings.TrimPrefix(ref, "${keyring:"), "}")
			if v, ok := k.ring[name]; ok {
				return v, nil
			}
			return "", errors.New("no such entry")
		}})
}

// Every configured key is hidden: typed in, behind a keyring reference, an MCP
// header; a reference the keyring cannot read hides nothing and breaks nothing.
func TestMaskHidesEveryConfiguredKey(t *testing.T) {
	k := newKeys("${keyring:openai}")
	k.ring["openai"] = "sk-from-the-keyring"
	c := k.cfg.Load().Clone()
	c.Tools.Web.Search.APIKey = "brave-typed-in"
	c.Tools.MCPServers["gh"] = config.MCPServer{URL: "https://x", Headers: map[string]string{"Authorization": "Bearer gh-header-value"},
		Env: map[string]string{"GITHUB_TOKEN": "ghp-env-value", "HOME": "/home/me"}}
	c.Providers.Custom["groq"] = config.OpenAIProvider{APIBase: "https://g", APIKey: "${keyring:custom.groq}"}
	k.cfg.Store(c)
	m := k.masker()
	got := m.Mask("sk-from-the-keyring brave-typed-in Bearer gh-header-value ghp-env-value /home/me")
	if strings.Contains(got, "sk-from") || strings.Contains(got, "brave") || strings.Contains(got, "gh-header") ||
		strings.Contains(got, "ghp-env") || !strings.Contains(got, "/home/me") {
		t.Errorf("masked %q", got)
	}
	if n := m.Masker().Pending("answer: sk-from"); n != len("sk-from") {
		t.Errorf("Pending = %d: a key split across two pieces of a stream would show", n)
	}
}

// The masker is made once per config and keyring version: a run asks the keyring
// once, a saved config or a key written to the keyring makes it again.
func TestMaskerFollowsTheConfigAndTheKeyring(t *testing.T) {
	k := newKeys("${keyring:openai}")
	k.ring["openai"] = "sk-old-key-value"
	m := k.masker()
	first := m.Masker()
	if m.Masker() != first || k.reads.Load() != 1 {
		t.Fatalf("made again without a change (%d keyring reads)", k.reads.Load())
	}
	k.ring["openai"] = "sk-new-key-value"
	k.version.Add(1) // the same reference, another key behind it
	if got := m.Mask("sk-new-key-value"); strings.Contains(got, "sk-new") {
		t.Errorf("the replaced key shows: %q", got)
	}
	c := k.cfg.Load().Clone()
	c.Providers.OpenAI.APIKey = "sk-typed-in-now"
	k.cfg.Store(c)
	if got := m.Mask("sk-typed-in-now"); strings.Contains(got, "sk-typed") {
		t.Errorf("the saved key shows: %q", got)
	}
}

// exec never gets a variable holding a configured key, even when allowed by name;
// other variables pass.
func TestLookupEnvWithholdsConfiguredKeys(t *testing.T) {
	t.Setenv("HEARTH_TEST_PROVIDER_KEY", "sk-in-the-environment")
	t.Setenv("HEARTH_TEST_PLAIN", "just a value")
	m := newKeys("sk-in-the-environment").masker()
	if v, ok := m.LookupEnv("HEARTH_TEST_PROVIDER_KEY"); ok || v != "" {
		t.Errorf("configured key passed to exec: %q %v", v, ok)
	}
	if v, ok := m.LookupEnv("HEARTH_TEST_PLAIN"); !ok || v != "just a value" {
		t.Errorf("plain variable: %q %v", v, ok)
	}
}
