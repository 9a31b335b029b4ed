package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/zalando/go-keyring"

	"hearth/backend/config"
	"hearth/backend/llm"
	"hearth/backend/settings"
)

// fakeKeyring is an in-memory OS keyring behind keystore.Keyring. down makes
// every call fail (no Secret Service); setErr makes only Set fail (a locked
// keyring that refuses to store).
type fakeKeyring struct {
	mu     sync.Mutex
	m      map[string]string
	down   error
	setErr error
	calls  int
}

func newFakeKeyring() *fakeKeyring { return &fakeKeyring{m: map[string]string{}} }

func (f *fakeKeyring) Get(service, user string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.down != nil {
		return "", f.down
	}
	v, ok := f.m[service+"/"+user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (f *fakeKeyring) Set(service, user, secret string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.down != nil {
		return f.down
	}
	if f.setErr != nil {
		return f.setErr
	}
	f.m[service+"/"+user] = secret
	return nil
}

func (f *fakeKeyring) Delete(service, user string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.down != nil {
		return f.down
	}
	if _, ok := f.m[service+"/"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(f.m, service+"/"+user)
	return nil
}

func (f *fakeKeyring) entry(name string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.m["hearth/"+name]
	return v, ok
}

func (f *fakeKeyring) callCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// keysService opens a Service on cfgJSON (written with mode) and kr.
func keysService(t *testing.T, cfgJSON string, mode os.FileMode, kr *fakeKeyring, environ map[string]string) *App {
	t.Helper()
	setXDG(t)
	p := config.DefaultConfigFile()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(cfgJSON), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
	svc := open(t, Options{Getenv: env(environ), Keyring: kr, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	return svc
}

const keysConfig = `{
  "providers": {
    "openai": {"apiKey": "sk-hand-typed"},
    "custom": {
      "inring": {"apiBase": "http://127.0.0.1:1/v1", "apiKey": "${keyring:custom.inring}"},
      "fromenv": {"apiBase": "http://127.0.0.1:1/v1", "apiKey": "${GROQ_KEY}"},
      "plain": {"apiBase": "http://127.0.0.1:1/v1", "apiKey": "gsk-plain"},
      "nokey": {"apiBase": "http://127.0.0.1:1/v1", "apiKey": ""},
      "mixed": {"apiBase": "http://127.0.0.1:1/v1", "apiKey": "Bearer ${TOKEN}"}
    }
  },
  "tools": {"web": {"search": {"provider": "brave", "apiKey": "BSA-plain"}}},
  "myNote": "kept as is"
}
`

func TestPlainKeysFindsEachKind(t *testing.T) {
	kr := newFakeKeyring()
	svc := keysService(t, keysConfig, 0o600, kr, map[string]string{"GROQ_KEY": "gsk-env", "TOKEN": "tok"})
	if err := svc.Settings.ConfigError(); err != nil {
		t.Fatal(err)
	}
	rep := svc.Settings.Keys().PlainKeys()
	want := []settings.PlainKey{
		{Provider: "openai", Key: "providers.openai.apiKey"},
		{Provider: "custom.plain", Key: "providers.custom.plain.apiKey"},
		{Provider: "web.search", Key: "tools.web.search.apiKey"},
	}
	if !slices.Equal(rep.Plain, want) || !rep.Keyring || rep.FileMode != "0600" || !rep.Private || rep.Error != "" || rep.ConfigFile != svc.Settings.Paths().ConfigFile {
		t.Errorf("report %+v, want plain %v with the keyring answering and a private 0600 file", rep, want)
	}

	// A file others can read says so; a keyring that does not answer says so.
	if err := os.Chmod(svc.Settings.Paths().ConfigFile, 0o644); err != nil {
		t.Fatal(err)
	}
	down := newFakeKeyring()
	down.down = errors.New("org.freedesktop.secrets was not provided by any .service files")
	svc2 := open(t, Options{Getenv: env(map[string]string{"GROQ_KEY": "g", "TOKEN": "t"}), Keyring: down})
	t.Cleanup(func() { _ = svc2.Close(context.Background()) })
	rep = svc2.Settings.Keys().PlainKeys()
	if len(rep.Plain) != 3 || rep.Keyring || rep.FileMode != "0644" || rep.Private {
		t.Errorf("report %+v", rep)
	}
}

func TestPlainKeysNoneAsksNoKeyring(t *testing.T) {
	kr := newFakeKeyring()
	svc := keysService(t, `{"providers":{"openai":{"apiKey":"${keyring:openai}"},"custom":{"x":{"apiBase":"http://h/v1","apiKey":"${X_KEY}"}}}}`, 0o600, kr, nil)
	rep := svc.Settings.Keys().PlainKeys()
	if len(rep.Plain) != 0 || rep.Keyring || rep.Plain == nil {
		t.Errorf("report %+v", rep)
	}
	if n := kr.callCount(); n != 0 {
		t.Errorf("the keyring was asked %d times with no plain key to move", n)
	}
	// No file at all: nothing plain, no error.
	if err := os.Remove(svc.Settings.Paths().ConfigFile); err != nil {
		t.Fatal(err)
	}
	if rep := svc.Settings.Keys().PlainKeys(); len(rep.Plain) != 0 || rep.Error != "" || rep.FileMode != "" {
		t.Errorf("no file: %+v", rep)
	}
}

func TestMoveKeyToKeyring(t *testing.T) {
	kr := newFakeKeyring()
	var auth []string
	var authMu sync.Mutex
	openai := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		authMu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		authMu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"gpt-test","object":"model"}]}`))
	}))
	defer openai.Close()
	cfg := strings.Replace(keysConfig, `"openai": {"apiKey"`, `"openai": {"apiBase": "`+openai.URL+`/v1", "apiKey"`, 1)
	environ := map[string]string{"GROQ_KEY": "gsk-env", "TOKEN": "tok"}
	svc := keysService(t, cfg, 0o644, kr, environ)
	path := svc.Settings.Paths().ConfigFile

	if err := svc.Settings.Keys().MoveKeyToKeyring("openai"); err != nil {
		t.Fatal(err)
	}
	if v, ok := kr.entry("openai"); !ok || v != "sk-hand-typed" {
		t.Errorf("keyring entry openai = %q %v", v, ok)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Providers struct {
			OpenAI struct {
				APIBase string `json:"apiBase"`
				APIKey  string `json:"apiKey"`
			} `json:"openai"`
			Custom map[string]struct {
				APIKey string `json:"apiKey"`
			} `json:"custom"`
		} `json:"providers"`
		MyNote string `json:"myNote"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("config.json is no longer JSON: %v\n%s", err, data)
	}
	if doc.Providers.OpenAI.APIKey != "${keyring:openai}" || doc.Providers.OpenAI.APIBase != openai.URL+"/v1" ||
		doc.Providers.Custom["fromenv"].APIKey != "${GROQ_KEY}" || doc.Providers.Custom["mixed"].APIKey != "Bearer ${TOKEN}" ||
		doc.Providers.Custom["plain"].APIKey != "gsk-plain" || doc.MyNote != "kept as is" {
		t.Errorf("config.json after the move:\n%s", data)
	}
	if bytes.Contains(data, []byte("sk-hand-typed")) || bytes.Contains(data, []byte("gsk-env")) {
		t.Errorf("config.json still holds a key:\n%s", data)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("config.json mode %v %v, want 0600", fi.Mode().Perm(), err)
	}
	rep := svc.Settings.Keys().PlainKeys()
	if slices.ContainsFunc(rep.Plain, func(k settings.PlainKey) bool { return k.Provider == "openai" }) || len(rep.Plain) != 2 {
		t.Errorf("after the move: %+v", rep)
	}
	if got := svc.Settings.Config().Providers.OpenAI.APIKey; got != "${keyring:openai}" {
		t.Errorf("in memory: %q", got)
	}

	// The key is read through the normal path: a fresh Service on the same
	// keyring sends it to the provider.
	svc2 := open(t, Options{Getenv: env(environ), Keyring: kr, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	p, _, err := svc2.Models.Resolve("openai/gpt-test")
	if err != nil {
		t.Fatal(err)
	}
	lister, ok := p.(interface {
		Models(context.Context) ([]llm.ModelInfo, error)
	})
	if !ok {
		t.Fatalf("provider %T lists no models", p)
	}
	if _, err := lister.Models(context.Background()); err != nil {
		t.Fatal(err)
	}
	authMu.Lock()
	if len(auth) != 1 || auth[0] != "Bearer sk-hand-typed" {
		t.Errorf("provider got Authorization %q", auth)
	}
	authMu.Unlock()
	// The masker knows the moved key.
	if got := svc.Keys.Mask("key=sk-hand-typed"); strings.Contains(got, "sk-hand-typed") {
		t.Errorf("masker misses the moved key: %q", got)
	}

	// The other kinds move too; a key already moved, one from the environment
	// and an unknown name are refused with a reason.
	for _, p := range []string{"custom.plain", "web.search"} {
		if err := svc.Settings.Keys().MoveKeyToKeyring(p); err != nil {
			t.Errorf("move %s: %v", p, err)
		}
	}
	if v, _ := kr.entry("custom.plain"); v != "gsk-plain" {
		t.Errorf("custom.plain in keyring: %q", v)
	}
	if v, _ := kr.entry("web.search"); v != "BSA-plain" {
		t.Errorf("web.search in keyring: %q", v)
	}
	if rep := svc.Settings.Keys().PlainKeys(); len(rep.Plain) != 0 {
		t.Errorf("still plain: %+v", rep.Plain)
	}
	for p, want := range map[string]string{"openai": "not a key written in plain text", "custom.fromenv": "not a key written in plain text",
		"anthropic": "hint: use one of"} {
		if err := svc.Settings.Keys().MoveKeyToKeyring(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("move %s: %v, want %q", p, err, want)
		}
	}
}

// A keyring that refuses leaves config.json byte for byte as it was.
func TestMoveKeyKeyringFailureLeavesFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*fakeKeyring)
		want string
	}{
		{"set refused", func(f *fakeKeyring) { f.setErr = errors.New("the collection is locked") }, "config.json was not changed"},
		{"no keyring", func(f *fakeKeyring) { f.down = errors.New("no Secret Service") }, "the key stays in config.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kr := newFakeKeyring()
			tc.set(kr)
			svc := keysService(t, keysConfig, 0o600, kr, nil)
			before, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
			err := svc.Settings.Keys().MoveKeyToKeyring("openai")
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "move the openai key") {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			after, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
			if !bytes.Equal(before, after) {
				t.Errorf("config.json changed:\n%s", after)
			}
			if _, ok := kr.entry("openai"); ok {
				t.Error("keyring entry written")
			}
			if got := svc.Settings.Config().Providers.OpenAI.APIKey; got != "sk-hand-typed" {
				t.Errorf("in memory: %q", got)
			}
		})
	}
}

// A config.json with errors — at start or edited since — is refused before the
// keyring or the file is touched.
func TestMoveKeyRefusesBrokenConfig(t *testing.T) {
	t.Run("broken at start", func(t *testing.T) {
		kr := newFakeKeyring()
		text := `{"providers": {"openai": {"apiKey": "sk-hand-typed"}}, "ui": {"theme": "neon"}}`
		svc := keysService(t, text, 0o600, kr, nil)
		if svc.Settings.ConfigError() == nil {
			t.Fatal("config loaded")
		}
		err := svc.Settings.Keys().MoveKeyToKeyring("openai")
		if err == nil || !strings.Contains(err.Error(), "fix config.json by hand") {
			t.Errorf("error %v", err)
		}
		if b, _ := os.ReadFile(svc.Settings.Paths().ConfigFile); string(b) != text {
			t.Errorf("config.json changed:\n%s", b)
		}
		if kr.callCount() != 0 {
			t.Error("the keyring was used")
		}
	})
	t.Run("broken since", func(t *testing.T) {
		kr := newFakeKeyring()
		svc := keysService(t, keysConfig, 0o600, kr, nil)
		broken := `{"providers": {"openai": {"apiKey": "sk-hand-typed",}}}`
		if err := os.WriteFile(svc.Settings.Paths().ConfigFile, []byte(broken), 0o600); err != nil {
			t.Fatal(err)
		}
		err := svc.Settings.Keys().MoveKeyToKeyring("openai")
		if err == nil || !strings.Contains(err.Error(), "fix config.json by hand") {
			t.Errorf("error %v", err)
		}
		if b, _ := os.ReadFile(svc.Settings.Paths().ConfigFile); string(b) != broken {
			t.Errorf("config.json changed:\n%s", b)
		}
		if _, ok := kr.entry("openai"); ok {
			t.Error("keyring entry written")
		}
		if rep := svc.Settings.Keys().PlainKeys(); rep.Error == "" || len(rep.Plain) != 0 {
			t.Errorf("report on a file that is not JSON: %+v", rep)
		}
	})
}

// Opening Hearth never moves a key: the file keeps it until the user asks.
func TestOpenNeverMovesAKey(t *testing.T) {
	kr := newFakeKeyring()
	svc := keysService(t, keysConfig, 0o600, kr, nil)
	before, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
	if err := svc.Start(context.Background(), StartOptions{}); err != nil {
		t.Fatal(err)
	}
	_ = svc.Status(context.Background())
	after, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
	if !bytes.Equal(before, after) {
		t.Errorf("config.json changed at start:\n%s", after)
	}
	if _, ok := kr.entry("openai"); ok {
		t.Error("a key went to the keyring at start")
	}
}

// A key typed into the Settings view goes to the keyring when one answers; a
// keyring that refuses saves nothing.
func TestSaveSettingsKeyGoesToKeyring(t *testing.T) {
	kr := newFakeKeyring()
	svc := keysService(t, `{"providers":{"custom":{"g":{"apiBase":"http://127.0.0.1:1/v1","apiKey":"${keyring:custom.g}"}}}}`, 0o600, kr, nil)
	kr.m["hearth/custom.g"] = "gsk-old"
	s := svc.Settings.Settings()
	s.OpenAI.APIKey = "sk-from-settings"
	if res, err := svc.SaveSettings(s); err != nil || !res.Saved {
		t.Fatalf("%+v %v", res, err)
	}
	data, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
	if !strings.Contains(string(data), `"${keyring:openai}"`) || strings.Contains(string(data), "sk-from-settings") ||
		!strings.Contains(string(data), `"${keyring:custom.g}"`) {
		t.Errorf("config.json:\n%s", data)
	}
	if v, _ := kr.entry("openai"); v != "sk-from-settings" {
		t.Errorf("keyring openai = %q", v)
	}
	if v, _ := kr.entry("custom.g"); v != "gsk-old" {
		t.Errorf("an unchanged key moved: custom.g = %q", v)
	}
	if rep := svc.Settings.Keys().PlainKeys(); len(rep.Plain) != 0 {
		t.Errorf("plain after a Settings save: %+v", rep.Plain)
	}

	// Clearing a key in Settings removes its keyring entry.
	s = svc.Settings.Settings()
	s.Custom[0].ClearKey = true
	if res, err := svc.SaveSettings(s); err != nil || !res.Saved {
		t.Fatalf("%+v %v", res, err)
	}
	if _, ok := kr.entry("custom.g"); ok {
		t.Error("cleared key left in the keyring")
	}

	// The keyring refuses: nothing is saved, the old entry stays.
	before, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
	kr.setErr = errors.New("the collection is locked")
	s = svc.Settings.Settings()
	s.OpenAI.APIKey = "sk-newer"
	s.Temperature = 1.1
	if _, err := svc.SaveSettings(s); err == nil || !strings.Contains(err.Error(), "nothing was saved") {
		t.Errorf("save with a refusing keyring: %v", err)
	}
	if after, _ := os.ReadFile(svc.Settings.Paths().ConfigFile); !bytes.Equal(before, after) {
		t.Errorf("config.json changed:\n%s", after)
	}
	if v, _ := kr.entry("openai"); v != "sk-from-settings" {
		t.Errorf("keyring openai = %q", v)
	}
}
