package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"
)

func TestParseModel(t *testing.T) {
	cases := []struct {
		name, def    string
		prov, model  string
		errSubstring string
	}{
		{"ollama/qwen3:4b", DefaultModel, "ollama", "qwen3:4b", ""},
		{"openai/gpt-4o", DefaultModel, "openai", "gpt-4o", ""},
		{"custom.groq/llama-3.3-70b", DefaultModel, "custom.groq", "llama-3.3-70b", ""},
		// Split at the FIRST slash: the rest is the provider's own model name.
		{"ollama/hf.co/bartowski/Qwen3-GGUF:Q4_K_M", DefaultModel, "ollama", "hf.co/bartowski/Qwen3-GGUF:Q4_K_M", ""},
		// No slash: the default model's provider, whatever the name looks like.
		{"qwen3:4b", DefaultModel, "ollama", "qwen3:4b", ""},
		{"gpt-4o", DefaultModel, "ollama", "gpt-4o", ""},
		{"llama3", "openai/gpt-4o", "openai", "llama3", ""},
		{"  ollama/x  ", DefaultModel, "ollama", "x", ""},
		{"anthropic/claude", DefaultModel, "", "", `unknown provider "anthropic"`},
		{"qwen/qwen3", DefaultModel, "", "", "hint:"},
		{"custom./m", DefaultModel, "", "", "unknown provider"},
		{"ollama/", DefaultModel, "", "", "has no model"},
		{"", DefaultModel, "", "", "empty model name"},
		{"qwen3", "qwen3:4b", "", "", "names no provider"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, m, err := ParseModel(tc.name, tc.def)
			if tc.errSubstring != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errSubstring) {
					t.Fatalf("err = %v, want containing %q", err, tc.errSubstring)
				}
				return
			}
			if err != nil || p != tc.prov || m != tc.model {
				t.Fatalf("= %q, %q, %v; want %q, %q", p, m, err, tc.prov, tc.model)
			}
		})
	}
}

func TestResolveModelCustom(t *testing.T) {
	c := Default()
	c.Providers.Custom["lm"] = OpenAIProvider{APIBase: "http://localhost:1234/v1"}
	if p, m, err := c.ResolveModel("custom.lm/phi"); err != nil || p != "custom.lm" || m != "phi" {
		t.Errorf("custom.lm/phi = %q %q %v", p, m, err)
	}
	if _, _, err := c.ResolveModel("custom.nope/phi"); err == nil || !strings.Contains(err.Error(), "custom.lm") {
		t.Errorf("unknown custom provider error should list the known ones: %v", err)
	}
	configured := []struct {
		provider string
		want     bool
	}{{"ollama", true}, {"openai", false}, {"custom.lm", true}, {"custom.nope", false}, {"x", false}}
	for _, tc := range configured {
		if ok, reason := c.ProviderConfigured(tc.provider); ok != tc.want || (!ok && reason == "") {
			t.Errorf("ProviderConfigured(%q) = %v %q", tc.provider, ok, reason)
		}
	}
}

func TestOllamaHost(t *testing.T) {
	cases := []struct {
		config, env, want string
	}{
		{"", "", "http://127.0.0.1:11434"},
		{"", "10.0.0.5:9999", "http://10.0.0.5:9999"},
		{"", "myhost", "http://myhost:11434"},
		{"", ":8080", "http://127.0.0.1:8080"},
		{"", "0.0.0.0", "http://127.0.0.1:11434"},
		{"", "https://ollama.example.com/", "https://ollama.example.com"},
		{"", "http://[::1]:11434", "http://[::1]:11434"},
		{"", "  ", "http://127.0.0.1:11434"},
		{"", "ftp://bad", "http://127.0.0.1:11434"},
		{"", "http://", "http://127.0.0.1:11434"}, // no host name: refused, so the default
		{"http://box:1234", "10.0.0.5:9999", "http://box:1234"},
		{"box:1234", "", "http://box:1234"},
		{"http://proxy/ollama/", "", "http://proxy/ollama"},
	}
	for _, tc := range cases {
		c := Default()
		c.Providers.Ollama.Host = tc.config
		getenv := func(k string) string {
			if k == "OLLAMA_HOST" {
				return tc.env
			}
			return ""
		}
		if got := c.OllamaHost(getenv); got != tc.want {
			t.Errorf("host %q env %q: got %q, want %q", tc.config, tc.env, got, tc.want)
		}
	}
	if got := Default().OllamaHost(nil); got != DefaultOllamaHost {
		t.Errorf("nil getenv: %q", got)
	}
}

// setXDG points every XDG base directory and HOME into a temp dir.
func setXDG(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	t.Cleanup(xdg.Reload) // before the variables are set: it runs after t.Setenv puts them back
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "data"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
	xdg.Reload()
	return root
}

func TestPaths(t *testing.T) {
	root := setXDG(t)
	home := filepath.Join(root, "home")
	cwd, _ := os.Getwd()
	cfgWithWS := func(ws string) *Config { c := Default(); c.Agents.Defaults.Workspace = ws; return c }
	cases := []struct {
		name               string
		configFlag, wsFlag string
		cfg                *Config
		wantConfig, wantWS string
	}{
		{"defaults", "", "", Default(), filepath.Join(root, "config/hearth/config.json"), filepath.Join(root, "data/hearth/workspace")},
		{"config flag with ~", "~/my/hearth.json", "", Default(), filepath.Join(home, "my/hearth.json"), filepath.Join(root, "data/hearth/workspace")},
		{"relative config flag", "c.json", "", Default(), filepath.Join(cwd, "c.json"), filepath.Join(root, "data/hearth/workspace")},
		{"workspace from config", "", "", cfgWithWS("~/notes"), filepath.Join(root, "config/hearth/config.json"), filepath.Join(home, "notes")},
		{"relative workspace from config", "/etc/h/config.json", "", cfgWithWS("ws"), "/etc/h/config.json", "/etc/h/ws"},
		{"flag beats config", "", "~/flagws", cfgWithWS("/cfgws"), filepath.Join(root, "config/hearth/config.json"), filepath.Join(home, "flagws")},
		{"nil config", "", "", nil, filepath.Join(root, "config/hearth/config.json"), filepath.Join(root, "data/hearth/workspace")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cf, err := ConfigFile(tc.configFlag)
			if err != nil || cf != tc.wantConfig {
				t.Fatalf("ConfigFile = %q %v, want %q", cf, err, tc.wantConfig)
			}
			p, err := ResolvePaths(cf, tc.wsFlag, tc.cfg)
			if err != nil || p.Workspace != tc.wantWS {
				t.Fatalf("Workspace = %q %v, want %q", p.Workspace, err, tc.wantWS)
			}
			want := map[string]string{
				p.DataDir: "data/hearth", p.SessionsDir: "data/hearth/sessions", p.IndexDir: "data/hearth/index",
				p.WorkspacesDir: "data/hearth/workspaces",
				p.CronDir:       "data/hearth/cron", p.StateDir: "state/hearth", p.LogsDir: "state/hearth/logs",
				p.AuditDir: "state/hearth/audit", p.WindowFile: "state/hearth/window.json", p.LockFile: "state/hearth/hearth.lock",
			}
			for got, rel := range want {
				if got != filepath.Join(root, rel) {
					t.Errorf("path %q, want %q", got, filepath.Join(root, rel))
				}
			}
			if p.ConfigDir != filepath.Dir(cf) {
				t.Errorf("ConfigDir %q", p.ConfigDir)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(root, "data")); !os.IsNotExist(err) {
		t.Errorf("resolving paths created directories")
	}
}
