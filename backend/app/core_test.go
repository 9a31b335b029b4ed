package app

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/config"
	"hearth/backend/i18n"
	"hearth/backend/models"
	"hearth/backend/settings"
	"hearth/backend/workspace"
)

// setXDG points HOME and the XDG folders of this test at a folder of its own, once per
// test (open calls it too, so no test reaches the real home), and returns it.
func setXDG(t testing.TB) string {
	t.Helper()
	if root, ok := xdgRoots.Load(t); ok {
		return root.(string)
	}
	root := t.TempDir()
	xdgRoots.Store(t, root)
	// Registered before the variables are set, so it runs after t.Setenv has put them
	// back: the next test must not inherit this test's (removed) folders.
	t.Cleanup(func() { xdgRoots.Delete(t); xdg.Reload() })
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "data"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	xdg.Reload()
	return root
}

// xdgRoots holds each running test's folder from setXDG.
var xdgRoots sync.Map

func fakeOllama(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/version" {
			_, _ = w.Write([]byte(`{"version":"0.17.4"}`))
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// deadHost returns a loopback URL on which nothing listens.
func deadHost(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestOpenDefaults(t *testing.T) {
	root := setXDG(t)
	srv := fakeOllama(t)
	s := open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": srv.URL}), Version: "1.2.3"})
	if err := s.Settings.ConfigError(); err != nil {
		t.Fatalf("ConfigError = %v", err)
	}
	p := s.Settings.Paths()
	if p.ConfigFile != filepath.Join(root, "config/hearth/config.json") || p.Workspace != filepath.Join(root, "data/hearth/workspace") {
		t.Errorf("paths %+v", p)
	}
	if _, err := os.Stat(p.ConfigFile); !os.IsNotExist(err) {
		t.Errorf("Open wrote a config file: %v", err)
	}
	for _, f := range workspace.Files() {
		if _, err := os.Stat(filepath.Join(p.Workspace, f)); err != nil {
			t.Errorf("workspace not onboarded: %v", err)
		}
	}
	st := s.Status(context.Background())
	want := settings.Status{
		ConfigFile: p.ConfigFile, ConfigWarnings: []config.Problem{}, Workspace: p.Workspace,
		DataDir: filepath.Join(root, "data/hearth"), StateDir: filepath.Join(root, "state/hearth"),
		MemoryStateDir: workspace.StateDir(filepath.Join(root, "data/hearth/workspaces"), p.Workspace),
		Model:          "ollama/qwen3:4b", ModelProvider: "ollama", ModelConfigured: true,
		OllamaHost: srv.URL, OllamaReachable: true, OllamaVersion: "0.17.4", Version: "1.2.3",
		EmbeddingModel: "ollama/nomic-embed-text", Recall: models.RecallKeyword,
		RecallNote: "the embedding model nomic-embed-text is not installed (hint: hearth models pull nomic-embed-text)",
		RecallWhy:  &i18n.Message{Code: "recall.notInstalled", Args: map[string]string{"model": "nomic-embed-text"}},
		Sandbox:    st.Sandbox, // what this machine offers; backend/sandbox tests it
	}
	if st.Sandbox.Summary == "" {
		t.Error("Status says nothing about the sandbox")
	}
	gotJSON, _ := json.Marshal(st)
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("Status\n got %s\nwant %s", gotJSON, wantJSON)
	}
	for _, key := range []string{`"configFile"`, `"configError"`, `"configWarnings"`, `"ollamaReachable"`, `"modelConfigured"`, `"ollamaVersion"`, `"modelProvider"`} {
		if !strings.Contains(string(gotJSON), key) {
			t.Errorf("Status JSON lacks %s", key)
		}
	}
	//lint:ignore SA1012 the desktop app may call Status before Wails hands it a context
	if st := s.Status(nil); !st.OllamaReachable { //nolint:staticcheck
		t.Errorf("Status(nil) = %+v", st)
	}
	created, err := s.Settings.Onboard()
	if err != nil || len(created) != len(workspace.Files())+2 {
		t.Errorf("Onboard after Open = %v, %v", created, err)
	}
}

func TestOpenBrokenConfigAndFlags(t *testing.T) {
	root := setXDG(t)
	cfgPath := filepath.Join(root, "elsewhere", "hearth.json")
	if err := os.MkdirAll(filepath.Dir(cfgPath), 0o700); err != nil {
		t.Fatal(err)
	}
	broken := "{\n  \"agents\": {\"defaults\": {\"maxTokens\": \"lots\"}}\n}\n"
	if err := os.WriteFile(cfgPath, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(root, "myws")
	s := open(t, Options{ConfigPath: cfgPath, WorkspaceFlag: ws, Getenv: env(map[string]string{"OLLAMA_HOST": deadHost(t)})})
	var le *config.LoadError
	if !errors.As(s.Settings.ConfigError(), &le) || le.Line != 2 {
		t.Fatalf("ConfigError = %v", s.Settings.ConfigError())
	}
	if s.Settings.Config().Agents.Defaults.MaxTokens != 2048 {
		t.Errorf("broken config should give defaults")
	}
	if s.Settings.Paths().Workspace != ws || s.Settings.Paths().ConfigFile != cfgPath {
		t.Errorf("flags ignored: %+v", s.Settings.Paths())
	}
	if _, err := os.Stat(filepath.Join(ws, "AGENTS.md")); err != nil {
		t.Errorf("flag workspace not onboarded: %v", err)
	}
	st := s.Status(context.Background())
	if !strings.Contains(st.ConfigError, ":2:") || st.OllamaReachable || !strings.Contains(st.OllamaError, "ollama serve") {
		t.Errorf("status = %+v", st)
	}
	if err := s.Settings.Update(func(c *config.Config) error { c.UI.Theme = "dark"; return nil }); !errors.Is(err, config.ErrBrokenFile) {
		t.Errorf("Update over broken file: %v", err)
	}
	if data, _ := os.ReadFile(cfgPath); string(data) != broken {
		t.Errorf("broken config changed")
	}
}

func TestStatusModelAndOllama(t *testing.T) {
	setXDG(t)
	srv := fakeOllama(t)
	notOllama := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<html>hello</html>"))
	}))
	defer notOllama.Close()
	cases := []struct {
		name       string
		configJSON string
		ollamaEnv  string
		configured bool
		reachable  bool
		provider   string
		problem    string
	}{
		{"openai without key", `{"agents":{"defaults":{"model":"openai/gpt-4o"}}}`, srv.URL, false, true, "openai", "apiKey is empty"},
		{"openai with key from env", `{"agents":{"defaults":{"model":"openai/gpt-4o"}},"providers":{"openai":{"apiKey":"${K}"}}}`, srv.URL, true, true, "openai", ""},
		{"custom provider", `{"agents":{"defaults":{"model":"custom.lm/phi"}},"providers":{"custom":{"lm":{"apiBase":"http://127.0.0.1:1/v1"}}}}`, srv.URL, true, true, "custom.lm", ""},
		{"host from config beats env", `{"providers":{"ollama":{"host":"` + srv.URL + `"}}}`, "http://127.0.0.1:1", true, true, "ollama", ""},
		{"dead port", `{}`, deadHost(t), true, false, "ollama", ""},
		{"not an ollama server", `{}`, notOllama.URL, true, false, "ollama", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "config.json")
			if err := os.WriteFile(p, []byte(tc.configJSON), 0o600); err != nil {
				t.Fatal(err)
			}
			s := open(t, Options{ConfigPath: p, WorkspaceFlag: t.TempDir(), Getenv: env(map[string]string{"OLLAMA_HOST": tc.ollamaEnv, "K": "sk"})})
			if err := s.Settings.ConfigError(); err != nil {
				t.Fatal(err)
			}
			st := s.Status(context.Background())
			if st.ModelConfigured != tc.configured || st.OllamaReachable != tc.reachable || st.ModelProvider != tc.provider {
				t.Errorf("status %+v", st)
			}
			if !strings.Contains(st.ModelProblem, tc.problem) || (tc.problem == "") != (st.ModelProblem == "") {
				t.Errorf("model problem %q, want %q", st.ModelProblem, tc.problem)
			}
			if !tc.reachable && (st.OllamaError == "" || !strings.Contains(st.OllamaError, "hint")) {
				t.Errorf("unreachable without a hint: %q", st.OllamaError)
			}
		})
	}
}
