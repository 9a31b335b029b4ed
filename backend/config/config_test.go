package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hearth/backend/i18n"
)

func writeFile(t *testing.T, dir, text string) string {
	t.Helper()
	p := filepath.Join(dir, "config.json")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaults(t *testing.T) {
	c := Default()
	d := c.Agents.Defaults
	checks := []struct {
		name      string
		got, want any
	}{
		{"model", d.Model, "ollama/qwen3:4b"},
		{"embeddingModel", d.EmbeddingModel, "ollama/nomic-embed-text"},
		{"contextTokens", d.ContextTokens, 8192},
		{"maxTokens", d.MaxTokens, 2048},
		{"temperature", d.Temperature, 0.3},
		{"maxToolIterations", d.MaxToolIterations, 40},
		{"maxTurnMinutes", d.MaxTurnMinutes, 10},
		{"subagentMaxToolIterations", d.SubagentMaxToolIterations, 15},
		{"memoryWindow", d.MemoryWindow, 100},
		{"maxToolResultChars", d.MaxToolResultChars, 16000},
		{"recallBlock", d.RecallBlock, RecallBlock{Enabled: true, MinScore: 0.2, MaxChars: 0}},
		{"workspace", d.Workspace, ""},
		{"ollama.host", c.Providers.Ollama.Host, ""},
		{"openai.apiBase", c.Providers.OpenAI.APIBase, "https://api.openai.com/v1"},
		{"restrictToWorkspace", c.Tools.RestrictToWorkspace, true},
		{"exec", c.Tools.Exec, Exec{Enabled: true, Timeout: 60, AllowedEnvKeys: []string{}}},
		{"search.provider", c.Tools.Web.Search.Provider, "duckduckgo"},
		{"approval.mode", c.Tools.Approval.Mode, "risky"},
		{"heartbeat", c.Heartbeat, Heartbeat{Enabled: true, IntervalMinutes: 30}},
		{"missedRuns", c.Schedule.MissedRuns, "catchup"},
		{"ui", c.UI, UI{Theme: "system", Language: "auto", CloseToTray: true, SendDuringRun: "steer"}},
		{"memory", c.Memory, Memory{Dream: Dream{EveryHours: 4, MaxTokens: 60000, MaxMinutes: 5, MaxToolCalls: 24},
			Review: Review{OnExpiry: "discard"}}},
	}
	for _, tc := range checks {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s = %#v, want %#v", tc.name, tc.got, tc.want)
		}
	}
	if ps := c.Validate(); len(ps) != 0 {
		t.Errorf("defaults do not validate: %v", ps)
	}
	// The JSON shape is the documented one (docs/configuration.md): camelCase keys, every section present.
	b, _ := json.Marshal(c)
	for _, key := range []string{`"agents":{"defaults":{"model"`, `"recallBlock":{"enabled":true,"minScore":0.2,"maxChars":0}`,
		`"providers":{"ollama":{"host":"","start":"","keepRunning":false},"openai":{"apiBase":"https://api.openai.com/v1","apiKey":""},"custom":{}}`,
		`"web":{"offline":false,"search":{"provider":"duckduckgo","apiKey":"","url":""},"ssrfAllow":[]}`,
		`"approval":{"mode":"risky","always":[],"ask":[],"never":[]},"mcpServers":{}`,
		`"ui":{"theme":"system","language":"auto","closeToTray":true,"launchAtLogin":false,"sendDuringRun":"steer"}`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("default JSON lacks %s\n%s", key, b)
		}
	}
}

// Dream's schedule and budgets and the memory inbox's expiry are checked like the
// other settings: each wrong value is a problem naming its key.
func TestMemorySettingsValidated(t *testing.T) {
	c := Default()
	c.Memory = Memory{Dream: Dream{EveryHours: 0, MaxTokens: 10, MaxMinutes: 500, MaxToolCalls: -1},
		Review: Review{ExpireHours: -2, OnExpiry: "keep"}}
	var keys []string
	for _, p := range c.Validate() {
		keys = append(keys, p.Key)
	}
	want := "memory.dream.everyHours memory.dream.maxTokens memory.dream.maxMinutes memory.dream.maxToolCalls memory.review.expireHours memory.review.onExpiry"
	if strings.Join(keys, " ") != want {
		t.Errorf("problems %v", keys)
	}
}

func TestLoadMissingFileIsDefaults(t *testing.T) {
	p := filepath.Join(t.TempDir(), "none", "config.json")
	c, warns, err := Load(p, nil)
	if err != nil || len(warns) != 0 {
		t.Fatalf("Load missing: err=%v warns=%v", err, warns)
	}
	if c.Agents.Defaults.Model != DefaultModel {
		t.Errorf("model = %q", c.Agents.Defaults.Model)
	}
	if _, err := os.Stat(filepath.Dir(p)); !os.IsNotExist(err) {
		t.Errorf("Load created the config directory: %v", err)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "config.json")
	c, _, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.Agents.Defaults.Model = "openai/gpt-4o-mini"
	c.Agents.Defaults.Temperature = 0.7
	c.Providers.OpenAI.APIKey = "sk-test"
	c.Providers.Custom["groq"] = OpenAIProvider{APIBase: "https://api.groq.com/openai/v1", APIKey: "k"}
	c.Tools.AllowedPaths = []string{"/tmp/a", "/tmp/b"}
	c.Tools.MCPServers["fs"] = MCPServer{Command: "npx", Args: []string{"-y", "server-fs"}, Env: map[string]string{"A": "1"}, EnabledTools: []string{"read"}, ToolTimeout: 10}
	c.UI.Theme = "dark"
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	got, warns, err := Load(p, nil)
	if err != nil || len(warns) != 0 {
		t.Fatalf("reload: err=%v warns=%v", err, warns)
	}
	got.src, c.src = nil, nil
	if !reflect.DeepEqual(got, c) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", got, c)
	}
	// Only what changed was written: untouched defaults stay out of the file.
	data, _ := os.ReadFile(p)
	if strings.Contains(string(data), "maxToolIterations") {
		t.Errorf("unchanged default written:\n%s", data)
	}
}

func TestSavePermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "conf")
	p := filepath.Join(dir, "config.json")
	c := Default()
	c.UI.Theme = "light"
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("file mode = %o, want 600", st.Mode().Perm())
	}
	dst, _ := os.Stat(dir)
	if dst.Mode().Perm() != 0o700 {
		t.Errorf("dir mode = %o, want 700", dst.Mode().Perm())
	}
	// A save over a file someone made 0644 brings it back to 0600.
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	c.UI.Theme = "dark"
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("after resave mode = %o, want 600", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

func TestMalformedConfig(t *testing.T) {
	cases := []struct {
		name      string
		text      string
		line, col int
		key       string
		msg       string
		hint      string
	}{
		{"trailing comma", "{\n  \"ui\": {\"theme\": \"dark\",}\n}\n", 2, 26, "", "invalid JSON", "no trailing commas"},
		{"missing comma", "{\n  \"ui\": {\"theme\": \"dark\"\n   \"language\": \"en\"}\n}\n", 3, 4, "", "invalid JSON", "comma is probably missing"},
		{"truncated", "{\n  \"ui\": {\"theme\": ", 2, 19, "", "unexpected end of file", "ends too early"},
		{"string for number", "{\n  \"agents\": {\n    \"defaults\": {\n      \"temperature\": \"hot\"\n    }\n  }\n}\n", 4, 22, "agents.defaults.temperature", "expected a number, found the string \"hot\"", "0.3 (no quotes)"},
		{"fraction for int", "{\"tools\": {\"exec\": {\"timeout\": 1.5}}}", 1, 32, "tools.exec.timeout", "expected a whole number", "60 (no quotes)"},
		{"number in list", "{\"tools\": {\"allowedPaths\": [\"/a\", 7]}}", 1, 35, "tools.allowedPaths.1", "expected a string", "double quotes"},
		{"temperature out of range", "{\"agents\": {\"defaults\": {\"temperature\": 5}}}", 1, 41, "agents.defaults.temperature", "between 0 and 2", "from 0 to 2"},
		{"unknown provider", "{\n\"agents\": {\"defaults\": {\"model\": \"foo/bar\"}}}", 2, 34, "agents.defaults.model", `unknown provider "foo"`, "ollama/bar"},
		{"unknown custom provider", "{\"agents\": {\"defaults\": {\"model\": \"custom.x/m\"}}}", 1, 35, "agents.defaults.model", "providers.custom.x", "add providers.custom.x"},
		{"top level array", "[1]", 1, 1, "", "must be a JSON object", "start the file with {"},
		{"empty", "  \n", 1, 1, "", "empty", "write {}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), tc.text)
			c, _, err := Load(p, nil)
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want *LoadError", err)
			}
			if le.Line != tc.line || le.Column != tc.col || le.Key != tc.key {
				t.Errorf("at %d:%d key %q, want %d:%d key %q (%v)", le.Line, le.Column, le.Key, tc.line, tc.col, tc.key, err)
			}
			if !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), p) || le.Hint == "" {
				t.Errorf("error %q lacks %q, the path or a hint", err, tc.msg)
			}
			if !strings.Contains(le.Hint, tc.hint) {
				t.Errorf("hint %q, want containing %q", le.Hint, tc.hint)
			}
			if c == nil || c.Agents.Defaults.Model != DefaultModel {
				t.Errorf("a broken config must give defaults, got %+v", c)
			}
			c.UI.Theme = "dark"
			serr := c.Save(p)
			if !errors.Is(serr, ErrBrokenFile) || !strings.Contains(serr.Error(), "by hand") {
				t.Errorf("Save over a broken file: %v", serr)
			}
			// Even a fresh Config must not overwrite the broken file.
			if serr := Default().Save(p); !errors.Is(serr, ErrBrokenFile) {
				t.Errorf("Save of Default() over a broken file: %v", serr)
			}
			if data, _ := os.ReadFile(p); string(data) != tc.text {
				t.Errorf("broken file changed:\n%s", data)
			}
		})
	}
}

func TestUnknownKeysPreservedAndReported(t *testing.T) {
	text := `{
  "topLevelExtra": {"a": [1, 2, {"b": null}]},
  "agents": {
    "defaults": {
      "model": "ollama/llama3.2:3b",
      "futureKnob": 7
    },
    "coder": {"model": "ollama/qwen2.5-coder"}
  },
  "tools": {
    "mcpServers": {
      "fs": {"command": "npx", "args": ["-y", "fs"], "disabled": true}
    }
  },
  "UI": {"theme": "dark"}
}
`
	p := writeFile(t, t.TempDir(), text)
	c, warns, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"topLevelExtra", "agents.defaults.futureKnob", "agents.coder", "tools.mcpServers.fs.disabled", "UI"}
	if got := c.UnknownKeys(); !reflect.DeepEqual(got, want) {
		t.Errorf("UnknownKeys = %v, want %v", got, want)
	}
	if len(warns) != len(want) || warns[1].Key != "agents.defaults.futureKnob" || warns[1].Line != 6 ||
		warns[1].Why == nil || warns[1].Why.Text.Code != "config.warn.unknownKey" || warns[1].Hint == "" {
		t.Errorf("warnings = %+v", warns)
	}
	// A key that is a known one in other letters says which spelling is meant.
	if ui := warns[4]; ui.Key != "UI" || ui.Why == nil || ui.Why.Text.Code != "config.warn.caseKey" ||
		ui.Why.Text.Args["known"] != "ui" || !strings.Contains(ui.Hint, `"ui"`) {
		t.Errorf("case-variant key warning = %+v", ui)
	}
	// "UI" is not "ui": the exact key is required, so the theme stays the default.
	if c.UI.Theme != "system" {
		t.Errorf("case-insensitive key was applied: theme %q", c.UI.Theme)
	}
	c.Agents.Defaults.Temperature = 0.5
	c.Tools.MCPServers["fs"] = MCPServer{Command: "npx", Args: []string{"-y", "fs", "/home"}}
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	for _, s := range []string{`"topLevelExtra": {`, `"b": null`, `"futureKnob": 7`, `"coder": {`, `"disabled": true`, `"UI": {`, `"temperature": 0.5`, `"/home"`} {
		if !bytes.Contains(data, []byte(s)) {
			t.Errorf("saved file lacks %s:\n%s", s, data)
		}
	}
	// Key order is the user's: the unknown top-level key stays first.
	if !bytes.HasPrefix(data, []byte("{\n  \"topLevelExtra\"")) {
		t.Errorf("key order changed:\n%s", data)
	}
	if _, w2, err := Load(p, nil); err != nil || len(w2) != len(want) {
		t.Errorf("reload: %v %v", err, w2)
	}
}

func TestEnvReferences(t *testing.T) {
	env := map[string]string{"OPENAI_KEY": "sk-secret", "MCP_TOKEN": "tok"}
	getenv := func(k string) string { return env[k] }
	text := `{
  "providers": {
    "openai": {"apiKey": "${OPENAI_KEY}"},
    "custom": {"local": {"apiBase": "http://localhost:8080/v1", "apiKey": "pre-${MISSING}-post"}}
  },
  "tools": {"mcpServers": {"gh": {"url": "https://mcp.example/mcp", "headers": {"Authorization": "Bearer ${MCP_TOKEN}"}}}}
}
`
	p := writeFile(t, t.TempDir(), text)
	c, warns, err := Load(p, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Providers.OpenAI.APIKey != "sk-secret" || c.Providers.Custom["local"].APIKey != "pre--post" ||
		c.Tools.MCPServers["gh"].Headers["Authorization"] != "Bearer tok" {
		t.Errorf("not expanded: %+v %+v", c.Providers, c.Tools.MCPServers)
	}
	if len(warns) != 1 || warns[0].Key != "providers.custom.local.apiKey" || warns[0].Line != 4 ||
		!strings.Contains(warns[0].Msg, "MISSING is not set") || !strings.Contains(warns[0].Hint, "set MISSING") {
		t.Errorf("warnings = %+v", warns)
	}
	// A save after an unrelated change writes the references back, never the secrets.
	c.UI.Language = "en"
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if bytes.Contains(data, []byte("sk-secret")) || bytes.Contains(data, []byte("Bearer tok")) {
		t.Errorf("expanded secret written:\n%s", data)
	}
	for _, s := range []string{`"${OPENAI_KEY}"`, `"pre-${MISSING}-post"`, `"Bearer ${MCP_TOKEN}"`, `"language": "en"`} {
		if !bytes.Contains(data, []byte(s)) {
			t.Errorf("saved file lacks %s:\n%s", s, data)
		}
	}
	// A field the program changed is written as the new value.
	c.Providers.OpenAI.APIKey = "sk-new"
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(p)
	if !bytes.Contains(data, []byte(`"apiKey": "sk-new"`)) || bytes.Contains(data, []byte("${OPENAI_KEY}")) {
		t.Errorf("changed field not written:\n%s", data)
	}
	if !bytes.Contains(data, []byte(`"Bearer ${MCP_TOKEN}"`)) {
		t.Errorf("unchanged reference lost on second save:\n%s", data)
	}
}

// A list that grows keeps its unchanged references (the secret is never written).
func TestEnvReferenceInGrowingList(t *testing.T) {
	getenv := func(k string) string { return map[string]string{"TOKEN": "s3cret"}[k] }
	p := writeFile(t, t.TempDir(), `{"tools": {"mcpServers": {"x": {"command": "srv", "args": ["--token", "${TOKEN}"]}}}}`)
	c, _, err := Load(p, getenv)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Tools.MCPServers["x"]
	if s.Args[1] != "s3cret" {
		t.Fatalf("args %v", s.Args)
	}
	s.Args = append([]string{"--verbose"}, s.Args...)
	c.Tools.MCPServers["x"] = s
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if bytes.Contains(data, []byte("s3cret")) || !bytes.Contains(data, []byte(`"--verbose",`)) || !bytes.Contains(data, []byte(`"${TOKEN}"`)) {
		t.Errorf("saved:\n%s", data)
	}
}

// A ${VAR} holding a URL that validation checks must not make Save think the file is broken.
func TestSaveWithReferencedURL(t *testing.T) {
	getenv := func(k string) string { return map[string]string{"LM_BASE": "http://127.0.0.1:1234/v1"}[k] }
	p := writeFile(t, t.TempDir(), `{"providers": {"custom": {"lm": {"apiBase": "${LM_BASE}"}}}}`)
	c, _, err := Load(p, getenv)
	if err != nil {
		t.Fatal(err)
	}
	c.UI.Theme = "dark"
	if err := c.Save(p); err != nil {
		t.Fatalf("Save: %v", err)
	}
	if data, _ := os.ReadFile(p); !bytes.Contains(data, []byte(`"apiBase": "${LM_BASE}"`)) {
		t.Errorf("reference lost:\n%s", data)
	}
}

func TestSaveKeepsHandEditsMadeAfterLoad(t *testing.T) {
	p := writeFile(t, t.TempDir(), `{"ui": {"theme": "dark"}}`)
	c, _, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The user edits the file while Hearth runs; then Hearth saves another field.
	if err := os.WriteFile(p, []byte(`{"ui": {"theme": "light"}, "heartbeat": {"intervalMinutes": 5}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c.Schedule.MissedRuns = "skip"
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	got, _, err := Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.UI.Theme != "light" || got.Heartbeat.IntervalMinutes != 5 || got.Schedule.MissedRuns != "skip" {
		t.Errorf("merge lost an edit: ui=%+v heartbeat=%+v schedule=%+v", got.UI, got.Heartbeat, got.Schedule)
	}
}

func TestSaveRejectsInvalidValues(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.json")
	c := Default()
	c.Agents.Defaults.Model = "qwen3:4b"
	err := c.Save(p)
	if err == nil || !strings.Contains(err.Error(), "agents.defaults.model") {
		t.Errorf("Save invalid: %v", err)
	}
	if _, serr := os.Stat(p); !os.IsNotExist(serr) {
		t.Errorf("invalid config was written")
	}
}

func TestCloneIsDeep(t *testing.T) {
	c := Default()
	c.Tools.MCPServers["fs"] = MCPServer{Command: "npx", Args: []string{"a"}, Env: map[string]string{"K": "v"}}
	n := c.Clone()
	n.Tools.Approval.Always = append(n.Tools.Approval.Always, "exec")
	n.Tools.MCPServers["fs"].Args[0] = "changed"
	n.Tools.MCPServers["fs"].Env["K"] = "changed"
	n.Providers.Custom["x"] = OpenAIProvider{APIBase: "http://x"}
	if len(c.Tools.Approval.Always) != 0 || c.Tools.MCPServers["fs"].Args[0] != "a" ||
		c.Tools.MCPServers["fs"].Env["K"] != "v" || len(c.Providers.Custom) != 0 {
		t.Errorf("changing the clone changed the original: %+v", c.Tools)
	}
	if n.src != c.src {
		t.Error("the clone forgot the loaded file")
	}
}

// Every problem carries its wording as catalog codes beside the English: the window shows
// the banner in its language, the CLI prints Msg and Hint.
func TestProblemsCarryTheirCodes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.json")
	for _, tc := range []struct{ file, code, zh string }{
		{`{"agents": {"defaults": {"temperature": 7}}}`, "config.between", "应在 0 到 2 之间，实际为 7"},
		{`{"agents": {"defaults": {"model": "nowhere/x"}}}`, "config.model.unknownProvider", "服务商“nowhere”未知"},
		{`{"agents": {"defaults": {"maxTokens": "many"}}}`, "config.type.int", "应为整数"},
		{`{"agents": {"defaults": {"model": "ollama/x",}}}`, "config.syntax", "JSON 无效"},
		{``, "config.empty", "文件是空的"},
	} {
		if err := os.WriteFile(p, []byte(tc.file), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := Load(p, func(string) string { return "" })
		le, ok := errors.AsType[*LoadError](err)
		if !ok || le.Why == nil || le.Why.Text.Code != tc.code || len(le.Why.Hint) == 0 {
			t.Errorf("%s: %v, why %+v", tc.file, err, le)
			continue
		}
		if le.Msg != le.Why.Text.String() || le.Hint != le.Why.HintString() {
			t.Errorf("%s: English %q (hint %q) is not the codes' %q", tc.file, le.Msg, le.Hint, le.Why.Text.String())
		}
		if zh := le.Why.Text.In(i18n.Chinese); !strings.Contains(zh, tc.zh) {
			t.Errorf("%s: zh-CN %q, want %q in it", tc.file, zh, tc.zh)
		}
	}
}

// A recall block left at the old scoring's defaults moves to the new ones;
// a value the user chose stays.
func TestRecallBlockMigrated(t *testing.T) {
	for in, want := range map[string]RecallBlock{
		`{"agents":{"defaults":{"recallBlock":{"enabled":true,"minScore":0.35,"maxChars":1500}}}}`: {Enabled: true, MinScore: 0.2},
		`{"agents":{"defaults":{"recallBlock":{"enabled":true,"minScore":0.4,"maxChars":1500}}}}`:  {Enabled: true, MinScore: 0.4, MaxChars: 1500},
	} {
		p := filepath.Join(t.TempDir(), "config.json")
		if err := os.WriteFile(p, []byte(in), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, _, err := Load(p, func(string) string { return "" })
		if err != nil || cfg.Agents.Defaults.RecallBlock != want {
			t.Errorf("%s: %+v %v", in, cfg.Agents.Defaults.RecallBlock, err)
		}
	}
}

func TestSendDuringRunIsAMode(t *testing.T) {
	c := Default()
	c.UI.SendDuringRun = "later"
	ps := c.Validate()
	if len(ps) != 1 || ps[0].Key != "ui.sendDuringRun" {
		t.Fatalf("problems %v", ps)
	}
}

// A turn's budgets are checked like the other settings: each wrong value is a problem
// naming its key, and the hint says the range.
func TestTurnBudgetsValidated(t *testing.T) {
	for _, tc := range []struct {
		minutes, rounds int
		want            string
	}{
		{10, 40, ""},
		{1, 1, ""},
		{1440, 40, ""},
		{0, 40, "agents.defaults.maxTurnMinutes"},
		{1441, 40, "agents.defaults.maxTurnMinutes"},
		{-5, 0, "agents.defaults.maxToolIterations agents.defaults.maxTurnMinutes"},
	} {
		c := Default()
		c.Agents.Defaults.MaxTurnMinutes, c.Agents.Defaults.MaxToolIterations = tc.minutes, tc.rounds
		var keys []string
		for _, p := range c.Validate() {
			keys = append(keys, p.Key)
			if p.Key == "agents.defaults.maxTurnMinutes" && !strings.Contains(p.Msg+p.Hint, "1440") {
				t.Errorf("%d minutes: %q does not say the range", tc.minutes, p.Msg+p.Hint)
			}
		}
		if got := strings.Join(keys, " "); got != tc.want {
			t.Errorf("%d minutes, %d rounds: problems %q, want %q", tc.minutes, tc.rounds, got, tc.want)
		}
	}
}
