package cli

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/internal/fakeollama"
)

const (
	leakEnvKey  = "sk-env-LEAK-0123456789abcdef0123"  // providers.openai.apiKey = ${HEARTH_LEAK_OPENAI}
	leakCfgKey  = "sk-cfg-LEAK-fedcba9876543210fedc"  // providers.custom.local.apiKey, in the file
	leakHeader  = "hdr-LEAK-5555aaaa6666bbbb7777"     // an MCP server's Authorization header
	leakMCPEnv  = "ghp_LEAK_mcp_env_0000111122223333" // an MCP server's GITHUB_TOKEN
	leakPattern = "pattern-LEAK-9999888877776666"     // MY_SERVICE_API_KEY in Hearth's environment
)

// A run with keys configured every way (an ${ENV} reference, a key in the file, MCP
// headers and env) and a model that types a key into tool arguments, a provider
// error that quotes the key, `mcp list --json`, `status` and `audit tail`: no key
// is in anything the commands printed or any file they wrote, except config.json,
// which holds the keys written into it on purpose.
func TestNoKeyInAnythingARunWrites(t *testing.T) {
	cloud := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		msg, _ := json.Marshal("Incorrect API key provided: " + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		_, _ = w.Write([]byte(`{"error":{"message":` + string(msg) + `,"type":"invalid_request_error"}}`))
	}))
	defer cloud.Close()
	typed, _ := json.Marshal(map[string]string{"path": "notes/k.md", "content": "my key is " + leakEnvKey})
	cmd, _ := json.Marshal(map[string]string{"command": "curl -H 'Authorization: Bearer " + leakCfgKey + "' https://example.invalid"})
	startChat(t,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "write_file", Arguments: typed}}},
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "exec", Arguments: cmd}}},
		fakeollama.Reply{Content: "I could not: " + leakEnvKey},
		fakeollama.Reply{Status: 500, Error: "backend rejected key " + leakCfgKey},
		fakeollama.Reply{Status: 500, Error: "backend rejected key " + leakCfgKey},
		fakeollama.Reply{Status: 500, Error: "backend rejected key " + leakCfgKey},
		fakeollama.Reply{Status: 500, Error: "backend rejected key " + leakCfgKey},
	)
	t.Setenv("HEARTH_LEAK_OPENAI", leakEnvKey)
	t.Setenv("MY_SERVICE_API_KEY", leakPattern)
	cfg := map[string]any{
		"providers": map[string]any{
			"openai": map[string]any{"apiBase": cloud.URL + "/v1", "apiKey": "${HEARTH_LEAK_OPENAI}"},
			"custom": map[string]any{"local": map[string]any{"apiBase": "http://127.0.0.1:1/v1", "apiKey": leakCfgKey}},
		},
		"tools": map[string]any{"mcpServers": map[string]any{
			"remote": map[string]any{"url": "http://127.0.0.1:1/mcp", "headers": map[string]string{"Authorization": "Bearer " + leakHeader}},
			"gh":     map[string]any{"command": "/nonexistent/mcp-server-github", "env": map[string]string{"GITHUB_TOKEN": leakMCPEnv}},
		}},
	}
	data, _ := json.Marshal(cfg)
	writeConfig(t, string(data))

	var outputs []string
	runCmd := func(args ...string) {
		t.Helper()
		_, out, errOut := runIn(t, "", args...)
		outputs = append(outputs, strings.Join(args, " ")+"\n"+out+errOut)
	}
	runCmd("agent", "-m", "note my key", "-s", "leak")
	runCmd("agent", "-m", "hi", "-s", "cloud", "--model", "openai/gpt-test")
	runCmd("agent", "-m", "hi again", "-s", "leak")
	runCmd("mcp", "list", "--json", "--wait", "2s")
	runCmd("mcp", "list")
	runCmd("status")
	runCmd("status", "--json")
	runCmd("audit", "tail")

	keys := []string{leakEnvKey, leakCfgKey, leakHeader, leakMCPEnv, leakPattern}
	all := strings.Join(outputs, "\n")
	for _, k := range keys {
		if strings.Contains(all, k) {
			t.Errorf("key %.14s… printed:\n%s", k, excerpt(all, k))
		}
	}
	if !strings.Contains(all, "[redacted]") {
		t.Errorf("nothing was masked — did the runs reach the keys at all?\n%s", all)
	}
	cfgFile := filepath.Join(xdg.ConfigHome, "hearth", "config.json")
	root := filepath.Dir(xdg.ConfigHome)
	files := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for _, k := range keys {
			if p == cfgFile && k != leakEnvKey && k != leakPattern {
				continue // written there by the user
			}
			if bytes.Contains(data, []byte(k)) {
				t.Errorf("%s holds the key %.14s…:\n%s", p, k, excerpt(string(data), k))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sessions, _ := filepath.Glob(filepath.Join(xdg.DataHome, "hearth", "sessions", "*.jsonl"))
	audit, _ := filepath.Glob(filepath.Join(xdg.StateHome, "hearth", "audit", "*.jsonl"))
	if len(sessions) < 2 || len(audit) != 1 || files < 5 {
		t.Errorf("searched %d files; sessions %v audit %v", files, sessions, audit)
	}
}

func excerpt(s, k string) string {
	i := strings.Index(s, k)
	if i < 0 {
		return ""
	}
	return s[max(0, i-200):min(len(s), i+len(k)+80)]
}
