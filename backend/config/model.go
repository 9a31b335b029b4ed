package config

import (
	"fmt"
	"net"
	"net/url"
	"sort"
	"strings"

	"hearth/backend/i18n"
)

// Provider keys a model name can start with, besides `custom.<name>`.
const (
	ProviderOllama = "ollama"
	ProviderOpenAI = "openai"
	customPrefix   = "custom."
)

// ProblemError is an error worded for a person; its Error is the English, "text (hint: …)".
type ProblemError struct{ Why i18n.Problem }

func (e *ProblemError) Error() string {
	return e.Why.String()
}

// ParseModel splits a model name `<provider>/<model>` at the FIRST "/" (Ollama names such
// as "ollama/hf.co/org/model" keep their own slashes). A name without "/" takes the
// provider of defaultModel. The provider must be "ollama", "openai" or "custom.<name>":
// it is never guessed from the model name (nanobot's guessing sent local models to a
// cloud service). Whether a custom provider exists is checked by Config.ResolveModel.
func ParseModel(name, defaultModel string) (provider, model string, err error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", "", &ProblemError{i18n.P("config.model.empty", "example", DefaultModel)}
	}
	provider, model, ok := strings.Cut(name, "/")
	if !ok {
		dp, _, dok := strings.Cut(strings.TrimSpace(defaultModel), "/")
		if !dok || dp == "" {
			return "", "", &ProblemError{i18n.P("config.model.noDefaultProvider", "name", name, "default", defaultModel)}
		}
		provider, model = dp, name
	}
	if model == "" {
		return "", "", &ProblemError{i18n.P("config.model.noModel", "name", name, "provider", provider, "example", DefaultModel)}
	}
	if !isProviderKey(provider) {
		return "", "", &ProblemError{i18n.P("config.model.unknownProvider", "provider", provider, "name", name, "example", "ollama/"+model)}
	}
	return provider, model, nil
}

func isProviderKey(p string) bool {
	switch {
	case p == ProviderOllama, p == ProviderOpenAI:
		return true
	case strings.HasPrefix(p, customPrefix):
		return len(p) > len(customPrefix)
	}
	return false
}

// ResolveModel is ParseModel against this config: a name without "/" takes the provider
// of agents.defaults.model, and a `custom.<name>` provider must exist in providers.custom.
func (c *Config) ResolveModel(name string) (provider, model string, err error) {
	provider, model, err = ParseModel(name, c.Agents.Defaults.Model)
	if err != nil {
		return "", "", err
	}
	if cname, ok := strings.CutPrefix(provider, customPrefix); ok {
		if _, found := c.Providers.Custom[cname]; !found {
			return "", "", &ProblemError{i18n.M("config.model.unknownProvider", "provider", provider, "name", name).
				WithHint(i18n.M("config.model.addCustom", "custom", cname, "keys", strings.Join(c.ProviderKeys(), ", ")))}
		}
	}
	return provider, model, nil
}

// ProviderKeys lists the provider keys valid in a model name, sorted custom ones last.
func (c *Config) ProviderKeys() []string {
	keys := []string{ProviderOllama, ProviderOpenAI}
	var custom []string
	for name := range c.Providers.Custom {
		custom = append(custom, customPrefix+name)
	}
	sort.Strings(custom)
	return append(keys, custom...)
}

// ProviderConfigured reports whether a provider has what it needs to be called: Ollama
// always does (its host has a default); OpenAI needs an API key; a custom provider needs
// an apiBase (local servers often need no key). The reason says what is missing.
func (c *Config) ProviderConfigured(provider string) (ok bool, reason string) {
	switch {
	case provider == ProviderOllama:
		return true, ""
	case provider == ProviderOpenAI:
		if c.Providers.OpenAI.APIKey == "" {
			return false, "providers.openai.apiKey is empty (hint: set it, e.g. \"${OPENAI_API_KEY}\")"
		}
		return true, ""
	case strings.HasPrefix(provider, customPrefix):
		name := strings.TrimPrefix(provider, customPrefix)
		p, found := c.Providers.Custom[name]
		if !found {
			return false, fmt.Sprintf("providers.custom.%s does not exist (hint: add it with apiBase and apiKey)", name)
		}
		if p.APIBase == "" {
			return false, fmt.Sprintf("providers.custom.%s.apiBase is empty", name)
		}
		return true, ""
	}
	return false, fmt.Sprintf("unknown provider %q", provider)
}

// OllamaHost returns the Ollama base URL: providers.ollama.host if set, else OLLAMA_HOST
// from getenv, else http://127.0.0.1:11434. getenv may be nil (no environment).
func (c *Config) OllamaHost(getenv func(string) string) string {
	if h := strings.TrimSpace(c.Providers.Ollama.Host); h != "" {
		if u, err := NormalizeOllamaHost(h); err == nil {
			return u
		}
	}
	if getenv != nil {
		if h := strings.TrimSpace(getenv("OLLAMA_HOST")); h != "" {
			if u, err := NormalizeOllamaHost(h); err == nil {
				return u
			}
		}
	}
	return DefaultOllamaHost
}

// NormalizeOllamaHost turns the forms OLLAMA_HOST accepts ("host", "host:port", ":port",
// "0.0.0.0", "http://host:port/") into a base URL without a trailing slash. Like the
// Ollama CLI, a value without scheme gets http:// and port 11434. A listen-on-all address
// (0.0.0.0, ::) becomes 127.0.0.1, because it is a server setting, not a place to connect.
func NormalizeOllamaHost(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DefaultOllamaHost, nil
	}
	scheme, rest, hasScheme := strings.Cut(s, "://")
	if !hasScheme {
		scheme, rest = "http", s
	}
	scheme = strings.ToLower(scheme)
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("ollama host %q: scheme must be http or https", s)
	}
	hostport, path, _ := strings.Cut(rest, "/")
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = strings.Trim(hostport, "[]"), ""
	}
	if port == "" && !hasScheme {
		port = "11434"
	}
	if host == "" && hasScheme {
		return "", fmt.Errorf("ollama host %q has no host name (hint: write it as http://127.0.0.1:11434)", s)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	u := url.URL{Scheme: scheme, Host: host}
	if port != "" {
		u.Host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		u.Host = "[" + host + "]"
	}
	if path = strings.Trim(path, "/"); path != "" {
		u.Path = "/" + path
	}
	if _, err := url.Parse(u.String()); err != nil {
		return "", fmt.Errorf("ollama host %q: %w", s, err)
	}
	return u.String(), nil
}
