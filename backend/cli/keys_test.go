package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/settings"

	"github.com/zalando/go-keyring"
)

// useKeyring switches go-keyring to its in-memory mock (up) or to one that
// fails like a machine without a Secret Service, until the test ends.
func useKeyring(t *testing.T, up bool) {
	t.Helper()
	noKeyring := errors.New("org.freedesktop.secrets was not provided by any .service files")
	if up {
		keyring.MockInit()
		t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/test-bus") // a bus "exists", so the (mocked) keyring is asked
	} else {
		keyring.MockInitWithError(noKeyring)
	}
	t.Cleanup(func() { keyring.MockInitWithError(noKeyring) })
}

const plainCfg = `{"providers": {"openai": {"apiKey": "sk-typed-by-hand"},
  "custom": {"groq": {"apiBase": "https://api.groq.com/openai/v1", "apiKey": "${GROQ_KEY}"}}},
  "tools": {"web": {"search": {"provider": "brave", "apiKey": "BSA-by-hand"}}}}`

func writeCfg(t *testing.T, root, text string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(root, "c.json")
	if err := os.WriteFile(p, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestStatusPlainKeys(t *testing.T) {
	t.Run("keyring answers", func(t *testing.T) {
		root := setup(t, fakeOllama(t))
		useKeyring(t, true)
		cfg := writeCfg(t, root, plainCfg, 0o600)
		code, out, errOut := run(t, nil, "--config", cfg, "status")
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d stderr %q\n%s", code, errOut, out)
		}
		for _, w := range []string{
			"API keys    providers.openai.apiKey is stored in plain text in config.json\n",
			pad + "tools.web.search.apiKey is stored in plain text in config.json\n",
			`press` + "\n" + pad + `"Move to keyring" beside the key (Hearth never moves a key on its own)`,
			"reachable (version 0.17.4)", "Model       ollama/qwen3:4b",
		} {
			if !strings.Contains(out, w) {
				t.Errorf("status lacks %q:\n%s", w, out)
			}
		}
		if strings.Contains(out, "groq.apiKey is stored") || strings.Contains(out, "sk-typed-by-hand") || strings.Contains(out, "WARNING") {
			t.Errorf("status names an env key, prints a key or warns:\n%s", out)
		}
		if b, _ := os.ReadFile(cfg); string(b) != plainCfg {
			t.Error("status changed config.json")
		}
	})
	t.Run("no keyring, file readable by others", func(t *testing.T) {
		root := setup(t, fakeOllama(t))
		useKeyring(t, false)
		cfg := writeCfg(t, root, plainCfg, 0o644)
		_, out, _ := run(t, nil, "--config", cfg, "status")
		for _, w := range []string{"providers.openai.apiKey is stored in plain text", "no OS keyring answers, so they stay there\n",
			"WARNING: other users can read config.json (mode 0644); run: chmod 600 " + cfg} {
			if !strings.Contains(out, w) {
				t.Errorf("status lacks %q:\n%s", w, out)
			}
		}
		if strings.Contains(out, "Move to keyring") {
			t.Errorf("offers a move with no keyring:\n%s", out)
		}
	})
	t.Run("no keyring, private file", func(t *testing.T) {
		root := setup(t, fakeOllama(t))
		useKeyring(t, false)
		cfg := writeCfg(t, root, plainCfg, 0o600)
		_, out, _ := run(t, nil, "--config", cfg, "status")
		if !strings.Contains(out, "no OS keyring answers, so they stay there; config.json is readable only by you (0600)\n") || strings.Contains(out, "WARNING") {
			t.Errorf("status:\n%s", out)
		}
	})
	t.Run("json", func(t *testing.T) {
		root := setup(t, fakeOllama(t))
		useKeyring(t, true)
		cfg := writeCfg(t, root, plainCfg, 0o600)
		code, out, _ := run(t, nil, "--config", cfg, "status", "--json")
		var st settings.Status
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if st.APIKeys == nil {
			t.Fatalf("no apiKeys in\n%s", out)
		}
		k := *st.APIKeys
		if code != 0 || len(k.Plain) != 2 || k.Plain[0] != (settings.PlainKey{Provider: "openai", Key: "providers.openai.apiKey"}) ||
			k.Plain[1] != (settings.PlainKey{Provider: "web.search", Key: "tools.web.search.apiKey"}) ||
			!k.Keyring || k.FileMode != "0600" || !k.Private {
			t.Errorf("exit %d apiKeys %+v", code, k)
		}
		if !strings.Contains(out, `"apiKeys": {`) || !strings.Contains(out, `"plain": [`) || strings.Contains(out, "sk-typed-by-hand") {
			t.Errorf("JSON:\n%s", out)
		}
	})
	t.Run("no plain key: nothing said", func(t *testing.T) {
		root := setup(t, fakeOllama(t))
		useKeyring(t, true)
		cfg := writeCfg(t, root, `{"providers":{"openai":{"apiKey":"${keyring:openai}"}}}`, 0o600)
		_, out, _ := run(t, nil, "--config", cfg, "status")
		if strings.Contains(out, "API keys") {
			t.Errorf("status:\n%s", out)
		}
		_, out, _ = run(t, nil, "--config", cfg, "status", "--json")
		if strings.Contains(out, `"apiKeys"`) {
			t.Errorf("JSON:\n%s", out)
		}
	})
}
