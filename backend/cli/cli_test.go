package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"hearth/backend/app"
	"hearth/backend/settings"
	"hearth/backend/workspace"
)

// setup isolates XDG dirs and points OLLAMA_HOST at ollama (a URL, or "" for a dead port).
func setup(t *testing.T, ollama string) string {
	t.Helper()
	root := t.TempDir()
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "data"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	if ollama == "" {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ollama = "http://" + l.Addr().String()
		_ = l.Close()
	}
	t.Setenv("OLLAMA_HOST", ollama)
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	return root
}

func fakeOllama(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/version" {
			_, _ = w.Write([]byte(`{"version":"0.17.4"}`))
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

var testInfo = BuildInfo{Version: "1.2.3", Commit: "abc1234"}

func run(t *testing.T, desktop DesktopFunc, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, testInfo, desktop, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExitCodesAndUsageErrors(t *testing.T) {
	setup(t, fakeOllama(t))
	cases := []struct {
		name    string
		args    []string
		code    int
		stderr  string
		stdoutR string
	}{
		{"version", []string{"version"}, 0, "", `^hearth 1\.2\.3 \(abc1234, go1\.\d+.*, \w+/\w+\)\n$`},
		{"--version", []string{"--version"}, 0, "", `^hearth 1\.2\.3 \(abc1234, `},
		{"bare root headless prints help", nil, 0, "", `(?s)Usage:\n  hearth \[flags\].*Available Commands:`},
		{"bare root tolerates unknown flags", []string{"--some-gui-flag"}, 0, "", `Usage:`},
		{"unknown command", []string{"stauts"}, 2, `unknown command "stauts" for "hearth" (did you mean "status"?)`, `^$`},
		{"unknown flag on subcommand", []string{"status", "--bogus"}, 2, "unknown flag: --bogus\nRun 'hearth status --help' for usage.", `^$`},
		{"unknown flag on version", []string{"version", "-x"}, 2, "Run 'hearth version --help'", `^$`},
		{"extra argument", []string{"onboard", "now"}, 2, `unknown command "now" for "hearth onboard"`, `^$`},
		{"flag needs a value", []string{"status", "--config"}, 2, "flag needs an argument", `^$`},
		{"help command", []string{"help", "status"}, 0, "", `Exit codes:`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(t, nil, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out, errOut)
			}
			if tc.stderr == "" && errOut != "" || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("stderr %q, want containing %q", errOut, tc.stderr)
			}
			if !regexp.MustCompile(tc.stdoutR).MatchString(out) {
				t.Errorf("stdout %q does not match %s", out, tc.stdoutR)
			}
		})
	}
}

func TestVersionIsFastAndLoadsNothing(t *testing.T) {
	root := setup(t, "")
	// A broken config must not matter: version never reads it.
	cfg := filepath.Join(root, "broken.json")
	if err := os.WriteFile(cfg, []byte("{nope"), 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, out, _ := run(t, nil, "--config", cfg, "version")
	if code != 0 || !strings.HasPrefix(out, "hearth 1.2.3 (abc1234, ") {
		t.Errorf("version: %d %q", code, out)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("version took %v", d)
	}
	if _, err := os.Stat(filepath.Join(root, "data")); !os.IsNotExist(err) {
		t.Errorf("version created the data dir (it opened the service)")
	}
	code, out, _ = run(t, nil, "version")
	if code != 0 || out != testInfo.versionLine()+"\n" {
		t.Errorf("unexpected %q", out)
	}
	var empty bytes.Buffer
	Main([]string{"version"}, BuildInfo{}, nil, &empty, &empty)
	if !strings.HasPrefix(empty.String(), "hearth dev (unknown commit, ") {
		t.Errorf("empty build info: %q", empty.String())
	}
}

func TestHelpTexts(t *testing.T) {
	setup(t, "")
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"--help"}, []string{"personal AI agent", "--config", "--workspace", "Examples:", "onboard", "status", "version"}},
		{[]string{"status", "--help"}, []string{"line and column", "Exit codes:", "0  the config is valid and Ollama is reachable", "1  the config has errors or Ollama is not reachable", "2  usage error", "--json", "Examples:", "--config"}},
		{[]string{"onboard", "-h"}, []string{"never touched", "memory/MEMORY.md", "Examples:", "--workspace"}},
		{[]string{"version", "--help"}, []string{"no network", "<os>/<arch>", "Examples:"}},
	}
	for _, tc := range cases {
		code, out, errOut := run(t, nil, tc.args...)
		if code != 0 || errOut != "" {
			t.Errorf("%v: exit %d stderr %q", tc.args, code, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v help lacks %q:\n%s", tc.args, w, out)
			}
		}
	}
}

func TestStatus(t *testing.T) {
	t.Run("reachable", func(t *testing.T) {
		root := setup(t, fakeOllama(t))
		code, out, errOut := run(t, nil, "status")
		if code != 0 || errOut != "" {
			t.Fatalf("exit %d stderr %q\n%s", code, errOut, out)
		}
		for _, w := range []string{"Hearth 1.2.3", filepath.Join(root, "config/hearth/config.json"), "not present — the defaults apply",
			"Workspace   " + filepath.Join(root, "data/hearth/workspace"), "Model       ollama/qwen3:4b", "configured (provider ollama)",
			"reachable (version 0.17.4)"} {
			if !strings.Contains(out, w) {
				t.Errorf("status lacks %q:\n%s", w, out)
			}
		}
	})
	t.Run("dead port", func(t *testing.T) {
		setup(t, "")
		code, out, _ := run(t, nil, "status")
		if code != 1 || !strings.Contains(out, "NOT reachable") || !strings.Contains(out, "ollama serve") {
			t.Errorf("exit %d\n%s", code, out)
		}
	})
	t.Run("broken config with reachable ollama", func(t *testing.T) {
		root := setup(t, fakeOllama(t))
		cfg := filepath.Join(root, "c.json")
		text := "{\n  \"agents\": {\"defaults\": {\"temperature\": 9}},\n  \"ui\": {\"theme\": \"neon\"}\n}\n"
		if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, _ := run(t, nil, "--config", cfg, "status")
		for _, w := range []string{"INVALID", "line 2, column 42: agents.defaults.temperature: must be between 0 and 2", "line 3, column 19: ui.theme: unknown value \"neon\"", "hint:", "reachable (version"} {
			if !strings.Contains(out, w) {
				t.Errorf("status lacks %q:\n%s", w, out)
			}
		}
		if code != 1 {
			t.Errorf("exit %d, want 1", code)
		}
		if data, _ := os.ReadFile(cfg); string(data) != text {
			t.Errorf("status changed the broken config")
		}
	})
	t.Run("json with flags", func(t *testing.T) {
		root := setup(t, fakeOllama(t))
		cfg := filepath.Join(root, "c.json")
		if err := os.WriteFile(cfg, []byte(`{"agents":{"defaults":{"model":"openai/gpt-4o"}},"extra":1}`), 0o600); err != nil {
			t.Fatal(err)
		}
		ws := filepath.Join(root, "ws")
		code, out, _ := run(t, nil, "status", "--json", "--config", cfg, "--workspace", ws)
		var st settings.Status
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		if code != 0 || st.ConfigFile != cfg || st.Workspace != ws || st.ModelConfigured || st.ModelProvider != "openai" ||
			len(st.ConfigWarnings) != 1 || !st.OllamaReachable {
			t.Errorf("exit %d status %+v", code, st)
		}
	})
}

func TestOnboardCommand(t *testing.T) {
	root := setup(t, "")
	ws := filepath.Join(root, "notes")
	code, out, errOut := run(t, nil, "onboard", "--workspace", ws)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d stderr %q", code, errOut)
	}
	for _, f := range workspace.Files() {
		if !strings.Contains(out, "created  "+f) {
			t.Errorf("first run does not report %s created:\n%s", f, out)
		}
	}
	if !strings.Contains(out, "created  skills/") || !strings.Contains(out, "not present: the defaults apply") {
		t.Errorf("output:\n%s", out)
	}
	user := filepath.Join(ws, "USER.md")
	if err := os.WriteFile(user, []byte("I am me."), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = run(t, nil, "--workspace", ws, "onboard")
	if code != 0 || strings.Contains(out, "created") || !strings.Contains(out, "present  USER.md") {
		t.Errorf("second run: %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(user); string(b) != "I am me." {
		t.Errorf("onboard overwrote USER.md: %q", b)
	}
	// A broken config: still onboards (the default workspace) but exits 1 and says why.
	cfg := filepath.Join(root, "bad.json")
	if err := os.WriteFile(cfg, []byte("{,}"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = run(t, nil, "--config", cfg, "onboard")
	if code != 1 || !strings.Contains(errOut, "bad.json:1:2") {
		t.Errorf("broken config onboard: %d %q", code, errOut)
	}
}

func TestDesktop(t *testing.T) {
	setup(t, "")
	var got *app.App
	desktop := func(open func() (*app.App, error)) error {
		var err error
		got, err = open()
		return err
	}
	code, out, _ := run(t, desktop, "--workspace", filepath.Join(t.TempDir(), "w"))
	if code != 0 || got == nil || out != "" {
		t.Fatalf("desktop not started: %d %q", code, out)
	}
	if !strings.HasSuffix(got.Settings.Paths().Workspace, "/w") {
		t.Errorf("workspace flag not passed: %s", got.Settings.Paths().Workspace)
	}
	// Unknown flags on the bare root reach the desktop build without an error.
	got = nil
	if code, _, errOut := run(t, desktop, "--gtk-thing", "-x"); code != 0 || got == nil {
		t.Errorf("unknown root flags: %d %q", code, errOut)
	}
	failing := func(func() (*app.App, error)) error { return errors.New("no display") }
	if code, _, errOut := run(t, failing); code != 1 || !strings.Contains(errOut, "desktop app: no display") {
		t.Errorf("failing desktop: %d %q", code, errOut)
	}
	// Subcommands never start the desktop.
	got = nil
	if code, _, _ := run(t, desktop, "version"); code != 0 || got != nil {
		t.Errorf("version started the desktop")
	}
}
