package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/adrg/xdg"
	"github.com/zalando/go-keyring"

	"hearth/backend/agent"
	"hearth/backend/approval"
	"hearth/backend/audit"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
)

const (
	keyInKeyring = "sk-hearth-KEYRING-0123456789abcdef"
	keyFromEnv   = "env-secret-HEARTH-9876543210"
	keyLater     = "brave-key-SET-LATER-5555"
)

// fileSink writes every event as a JSON line to a file in the test's tree, so
// the final search covers the event stream too.
type fileSink struct {
	mu sync.Mutex
	f  *os.File
}

func (s *fileSink) sink(ev event.Event) {
	b, err := json.Marshal(ev)
	if err != nil {
		panic(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = s.f.Write(append(b, '\n'))
}

// logToFile sends slog output to a file in the test's tree for the test.
func logToFile(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(old); _ = f.Close() })
}

// searchTree fails the test for every file under root holding one of keys.
func searchTree(t *testing.T, root string, skip map[string]bool, keys ...string) (files int) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || skip[p] {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		for _, k := range keys {
			if bytes.Contains(data, []byte(k)) {
				t.Errorf("%s holds the key %.12s…", p, k)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func toolResults(evs []event.Event) []event.ToolResultData {
	var out []event.ToolResultData
	for _, e := range evs {
		if r, ok := e.Data.(event.ToolResultData); ok {
			out = append(out, r)
		}
	}
	return out
}

// Keys in the OS keyring (go-keyring's mock) and in the environment never
// reach logs, audit lines, exec's environment, events, session files or the
// model; the provider still gets its key.
func TestKeysNeverLeak(t *testing.T) {
	keyring.MockInit()
	var auth []string
	var authMu sync.Mutex
	openai := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		authMu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		authMu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`))
	}))
	defer openai.Close()
	t.Setenv("HEARTH_TEST_KEY", keyFromEnv)
	t.Setenv("HEARTH_PLAIN", "visible-value")
	cfg := `{"providers":{"openai":{"apiBase":"` + openai.URL + `/v1"},
	  "custom":{"local":{"apiBase":"http://127.0.0.1:1/v1","apiKey":"${HEARTH_TEST_KEY}"}}},
	  "tools":{"exec":{"allowedEnvKeys":["HEARTH_TEST_KEY","HEARTH_PLAIN"]}}}`
	svc, fake, _ := hitlService(t, cfg, map[string]string{"HEARTH_TEST_KEY": keyFromEnv},
		execReply("env"),
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"keys.txt"}`)}}},
		fakeollama.Reply{Content: "I saw redacted keys."},
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"later.txt"}`)}}},
		fakeollama.Reply{Content: "Also redacted."})
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/test-bus") // a bus "exists", so the (mocked) keyring is asked
	root := filepath.Dir(xdg.ConfigHome)
	logToFile(t, filepath.Join(xdg.StateHome, "hearth", "logs", "hearth.log"))

	if err := svc.Settings.Keys().SetAPIKey("openai", keyInKeyring); err != nil {
		t.Fatal(err)
	}
	if got := svc.Settings.Keys().Storage(); got != "keyring" {
		t.Fatalf("storage %q", got)
	}
	if v, _ := keyring.Get("hearth", "openai"); v != keyInKeyring {
		t.Fatalf("keyring holds %q", v)
	}
	data, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
	if !strings.Contains(string(data), `"${keyring:openai}"`) || !strings.Contains(string(data), `"${HEARTH_TEST_KEY}"`) {
		t.Errorf("config:\n%s", data)
	}
	ws := svc.Settings.Paths().Workspace
	if err := os.WriteFile(filepath.Join(ws, "keys.txt"), []byte("openai="+keyInKeyring+"\nlocal="+keyFromEnv+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "later.txt"), []byte("brave="+keyLater+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	evf, err := os.Create(filepath.Join(root, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer evf.Close()
	out := &fileSink{f: evf}
	a := newAnswerer(svc, approval.Once)
	sink := func(ev event.Event) { out.sink(ev); a.sink(ev) }

	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "leak", Text: "show me env and keys.txt"}, sink)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("result %+v", res)
	}
	rs := toolResults(a.evs)
	if len(rs) != 2 {
		t.Fatalf("tool results %+v", rs)
	}
	// exec ran `env`: the allowed plain variable is there, the one holding a
	// key is not passed at all (not merely masked).
	if env := rs[0].Content; !rs[0].OK || !strings.Contains(env, "PATH=") || !strings.Contains(env, "HEARTH_PLAIN=visible-value") ||
		strings.Contains(env, "HEARTH_TEST_KEY") {
		t.Errorf("exec env:\n%s", env)
	}
	if !strings.Contains(rs[1].Content, "openai=[redacted]") || !strings.Contains(rs[1].Content, "local=[redacted]") {
		t.Errorf("read_file result %q", rs[1].Content)
	}

	// A key set while running is masked from then on.
	if err := svc.Settings.Keys().SetAPIKey("web.search", keyLater); err != nil {
		t.Fatal(err)
	}
	run, _ = svc.Chat.Start(context.Background(), agent.Request{SessionID: "leak", Text: "and later.txt"}, sink)
	run.Wait()
	if rs := toolResults(a.evs); len(rs) != 3 || rs[2].Content == "" || strings.Contains(rs[2].Content, "brave-key") {
		t.Errorf("later key: %+v", rs)
	}

	// The OpenAI provider is called with the key from the keyring; the error
	// the user sees does not show it.
	run, err = svc.Chat.Start(context.Background(), agent.Request{SessionID: "cloud", Text: "hi", Model: "openai/gpt-test"}, sink)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusError {
		t.Errorf("cloud run %+v", res)
	}
	authMu.Lock()
	if len(auth) == 0 || auth[0] != "Bearer "+keyInKeyring {
		t.Errorf("provider got Authorization %q", auth)
	}
	authMu.Unlock()

	for _, r := range fake.ChatRequests() {
		b, _ := json.Marshal(r)
		for _, k := range []string{keyInKeyring, keyFromEnv, keyLater} {
			if bytes.Contains(b, []byte(k)) {
				t.Errorf("the model saw a key %.12s…", k)
			}
		}
	}
	if err := svc.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Every file the test wrote (config, sessions, audit, logs, events) except
	// the two planted in the workspace on purpose.
	skip := map[string]bool{filepath.Join(ws, "keys.txt"): true, filepath.Join(ws, "later.txt"): true}
	n := searchTree(t, root, skip, keyInKeyring, keyFromEnv, keyLater)
	auditFiles, _ := filepath.Glob(filepath.Join(svc.Guard.Audit.Dir(), "*.jsonl"))
	sessions, _ := filepath.Glob(filepath.Join(xdg.DataHome, "hearth", "sessions", "*.jsonl"))
	if len(auditFiles) != 1 || len(sessions) < 2 || n < 6 {
		t.Errorf("searched %d files; audit %v sessions %v", n, auditFiles, sessions)
	}
	if got, _ := svc.Guard.Audit.Query(audit.Filter{}); len(got) != 3 {
		t.Errorf("audit entries %d", len(got))
	}
}

// Without a keyring the key goes into the config file (0600); ${ENV}
// references stay references through later saves; an empty key removes it.
func TestKeyInConfigWithoutKeyring(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided by any .service files"))
	svc, _, _ := hitlService(t, `{"providers":{"custom":{"groq":{"apiBase":"http://127.0.0.1:1/v1"}}}}`,
		map[string]string{"GROQ_KEY": keyFromEnv},
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"k.txt"}`)}}},
		fakeollama.Reply{Content: "ok"})
	if got := svc.Settings.Keys().Storage(); got != "config" {
		t.Fatalf("storage %q", got)
	}
	if err := svc.Settings.Keys().SetAPIKey("openai", keyInKeyring); err != nil {
		t.Fatal(err)
	}
	if err := svc.Settings.Keys().SetAPIKey("custom.groq", "${GROQ_KEY}"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Settings.Keys().SetAPIKey("custom.nope", "x"); err == nil || !strings.Contains(err.Error(), "hint") {
		t.Errorf("unknown custom provider: %v", err)
	}
	if err := svc.Settings.Keys().SetAPIKey("anthropic", "x"); err == nil {
		t.Error("unknown provider accepted")
	}
	if got := svc.Settings.Config().Providers.Custom["groq"].APIKey; got != keyFromEnv {
		t.Errorf("reference not expanded in memory: %q", got)
	}
	// Another save must keep the reference, never write the expanded value.
	if err := svc.Guard.SetMode("ask"); err != nil {
		t.Fatal(err)
	}
	p := svc.Settings.Paths().ConfigFile
	data, _ := os.ReadFile(p)
	if !strings.Contains(string(data), keyInKeyring) || !strings.Contains(string(data), `"${GROQ_KEY}"`) || strings.Contains(string(data), keyFromEnv) {
		t.Errorf("config:\n%s", data)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("config mode %v", fi.Mode().Perm())
	}
	if cfg, _, err := config.Load(p, nil); err != nil || cfg.Providers.OpenAI.APIKey != keyInKeyring {
		t.Errorf("reload: %v", err)
	}
	// The key stored in the config is masked in tool output too.
	if err := svc.Guard.SetMode("risky"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(svc.Settings.Paths().Workspace, "k.txt"), []byte(keyInKeyring), 0o600); err != nil {
		t.Fatal(err)
	}
	var ev events
	run, _ := svc.Chat.Start(context.Background(), agent.Request{Text: "read k.txt"}, ev.sink)
	run.Wait()
	if rs := toolResults(ev.evs); len(rs) != 1 || rs[0].Content == "" || strings.Contains(rs[0].Content, keyInKeyring) {
		t.Errorf("result %+v", rs)
	}
	if err := svc.Settings.Keys().SetAPIKey("openai", ""); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); strings.Contains(string(data), keyInKeyring) {
		t.Errorf("removed key still in the config:\n%s", data)
	}
}

// Moving a key from the keyring to an ${ENV} reference removes the keyring entry.
func TestKeyringEntryRemovedWhenReplaced(t *testing.T) {
	keyring.MockInit()
	svc, _, _ := hitlService(t, "", nil)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/test-bus") // a bus "exists", so the (mocked) keyring is asked
	if err := svc.Settings.Keys().SetAPIKey("openai", keyInKeyring); err != nil {
		t.Fatal(err)
	}
	if err := svc.Settings.Keys().SetAPIKey("openai", "${OPENAI_API_KEY}"); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get("hearth", "openai"); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("keyring entry left: %v", err)
	}
}
