package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hearth/backend/internal/fakeollama"
)

// `hearth models check` against the scripted server, whose models answer the
// check's requests by their declared tool style.
func TestModelsCheck(t *testing.T) {
	text := fakeollama.Model{Name: "printer:3b", Family: "llama", ContextLength: 4096, Capabilities: []string{"completion", "tools"}, ToolStyle: "text"}
	never := fakeollama.Model{Name: "mute:1b", Family: "gemma", ContextLength: 32768, Capabilities: []string{"completion", "tools"}, ToolStyle: "none"}
	_, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel(), text, never}})
	root := setup(t, url)

	code, out, errOut := run(t, nil, "models", "check", "qwen3:4b")
	if code != 0 || !strings.Contains(errOut, "Checking qwen3:4b") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	t.Logf("hearth models check qwen3:4b:\n%s", out)
	for _, want := range []string{
		`(?m)^Model:\s+ollama/qwen3:4b$`, `(?m)^Tool calls:\s+yes, structured`, `(?m)^Restraint:\s+yes`,
		`(?m)^After result:\s+answers$`, `(?m)^Speed:\s+25\.0 tokens/s$`, `(?m)^Context max:\s+40960 tokens$`,
		`(?m)^Verdict:\s+good for tools$`, `(?m)^What it did:\n  - asked about the weather, it called get_weather`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("no match for %s", want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "state", "hearth", "model-checks.json")); err != nil {
		t.Errorf("result not kept: %v", err)
	}

	code, out, _ = run(t, nil, "models", "check", "ollama/printer:3b")
	if code != 0 || !strings.Contains(out, "Verdict:       works with the text fallback") || !strings.Contains(out, "  but its context window is small (4096 tokens)") {
		t.Errorf("text model: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, nil, "models", "check", "mute:1b")
	if code != 0 || !strings.Contains(out, "Verdict:       chat only — Hearth will not offer it tools") || strings.Contains(out, "Restraint:") {
		t.Errorf("chat-only model: exit %d\n%s", code, out)
	}

	code, out, _ = run(t, nil, "models", "list")
	if code != 0 {
		t.Errorf("models list: exit %d\n%s", code, out)
	}
	for _, want := range []string{`(?m)^qwen3:4b\s.*\[tools\] \[thinking\] \[fit: good\]$`, `(?m)^printer:3b\s.*\[tools\] \[fit: text-fallback\]$`,
		`(?m)^mute:1b\s.*\[fit: chat-only\]$`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("models list lacks %s:\n%s", want, out)
		}
	}

	code, out, errOut = run(t, nil, "models", "check", "--json", "mute:1b")
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 || errOut != "" {
		t.Fatalf("json: %v exit %d\n%s%s", err, code, out, errOut)
	}
	for k, v := range map[string]any{"model": "ollama/mute:1b", "toolCalls": "none", "restraint": true, "contextMax": 32768.0,
		"tokensPerSecond": 25.0, "verdict": "chat-only"} {
		if got[k] != v {
			t.Errorf("json %s = %v, want %v", k, got[k], v)
		}
	}
}

func TestModelsCheckFailures(t *testing.T) {
	setup(t, "")
	code, out, errOut := run(t, nil, "models", "check", "qwen3:4b")
	if code != 1 || out != "" || !strings.Contains(errOut, "Hint: Ollama is not running — start it with `ollama serve`") {
		t.Errorf("Ollama down: exit %d stdout %q stderr %q", code, out, errOut)
	}

	startModels(t)
	code, _, errOut = run(t, nil, "models", "check", "llama9:70b")
	if code != 1 || !strings.Contains(errOut, "Hint: model not found — pull it with `hearth models pull llama9:70b`") {
		t.Errorf("missing model: exit %d stderr %q", code, errOut)
	}
	code, _, errOut = run(t, nil, "models", "check", "nomic-embed-text")
	if code != 1 || !strings.Contains(errOut, "embedding model") || !strings.Contains(errOut, "Hint:") {
		t.Errorf("embedding model: exit %d stderr %q", code, errOut)
	}
	code, _, errOut = run(t, nil, "models", "check")
	if code != 2 || !strings.Contains(errOut, "accepts 1 arg(s), received 0") {
		t.Errorf("no name: exit %d stderr %q", code, errOut)
	}
	code, _, errOut = run(t, nil, "models", "check", "openai/gpt-4.1-mini")
	if code != 1 || !strings.Contains(errOut, "not set up") {
		t.Errorf("unconfigured provider: exit %d stderr %q", code, errOut)
	}
}
