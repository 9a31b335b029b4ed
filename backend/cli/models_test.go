package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/models"
)

func startModels(t *testing.T) *fakeollama.Server {
	t.Helper()
	srv, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{
		fakeollama.DefaultModel(), fakeollama.EmbedModel(),
		{Name: "llava:7b", Family: "llama", Size: 4_700_000_000, ContextLength: 4096, Capabilities: []string{"completion", "vision"}},
	}})
	setup(t, url)
	return srv
}

func TestModelsList(t *testing.T) {
	startModels(t)
	code, out, errOut := run(t, nil, "models", "list")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !regexp.MustCompile(`^NAME\s+SIZE\s+FAMILY\s+CONTEXT\s+CAPABILITIES$`).MatchString(lines[0]) {
		t.Fatalf("table:\n%s", out)
	}
	for _, want := range []string{
		`^llava:7b\s+4\.7 GB\s+llama\s+4096\s+\[vision\]$`,
		`^nomic-embed-text:latest\s+274\.3 MB\s+nomic-bert\s+2048\s+\[embedding\]$`,
		`^qwen3:4b\s+2\.5 GB\s+qwen3\s+40960\s+\[tools\] \[thinking\]$`,
	} {
		found := false
		for _, l := range lines[1:] {
			found = found || regexp.MustCompile(want).MatchString(l)
		}
		if !found {
			t.Errorf("no line matches %s:\n%s", want, out)
		}
	}

	code, out, _ = run(t, nil, "models", "ls", "--json")
	var models []models.ModelEntry
	if err := json.Unmarshal([]byte(out), &models); err != nil || code != 0 {
		t.Fatalf("json: %v %d\n%s", err, code, out)
	}
	if len(models) != 3 || models[2].Name != "qwen3:4b" || models[2].ContextLength != 40960 || len(models[2].Capabilities) != 3 {
		t.Errorf("models %+v", models)
	}
}

func TestModelsListEmpty(t *testing.T) {
	srv := startModels(t)
	srv.SetModels()
	code, out, _ := run(t, nil, "models", "list")
	if code != 0 || !strings.Contains(out, "hearth models pull") {
		t.Errorf("exit %d: %q", code, out)
	}
}

func TestModelsOllamaDown(t *testing.T) {
	setup(t, "")
	for _, args := range [][]string{{"models", "list"}, {"models", "pull", "qwen3:4b"}, {"models", "rm", "qwen3:4b"}} {
		code, out, errOut := run(t, nil, args...)
		if code != 1 || out != "" || !strings.Contains(errOut, "cannot reach Ollama") ||
			!strings.Contains(errOut, "Hint: Ollama is not running — start it with `ollama serve`") {
			t.Errorf("%v: exit %d stdout %q stderr %q", args, code, out, errOut)
		}
	}
}

func TestModelsPull(t *testing.T) {
	srv := startModels(t)
	code, out, errOut := run(t, nil, "models", "pull", "ollama/llama3.2")
	if code != 0 || out != "Pulled ollama/llama3.2\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, out, errOut)
	}
	for _, w := range []string{"pulling manifest\n", "  50%  500 B / 1.0 kB\n", " 100%  1.0 kB / 1.0 kB\n", "verifying sha256 digest\n", "success\n"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("progress lacks %q:\n%s", w, errOut)
		}
	}
	var pulled bool
	for _, r := range srv.Requests() {
		pulled = pulled || (r.Path == "/api/pull" && strings.Contains(string(r.Body), `"model":"llama3.2"`))
	}
	if !pulled {
		t.Error("the ollama/ prefix was sent to Ollama")
	}

	srv.EnqueuePull(fakeollama.PullReply{Steps: []fakeollama.Progress{{Status: "pulling manifest"}}, Error: "pull model manifest: file does not exist"})
	code, out, errOut = run(t, nil, "models", "pull", "nosuch")
	if code != 1 || out != "" || !strings.Contains(errOut, "no such model in the registry") || !strings.Contains(errOut, "Hint: check the model name") {
		t.Errorf("missing model: exit %d stdout %q stderr %q", code, out, errOut)
	}

	code, _, errOut = run(t, nil, "models", "pull", "openai/gpt-4o")
	if code != 1 || !strings.Contains(errOut, "only Ollama models") {
		t.Errorf("openai model: exit %d stderr %q", code, errOut)
	}
}

func TestModelsRm(t *testing.T) {
	srv := startModels(t)
	code, out, errOut := run(t, nil, "models", "rm", "llava:7b", "ollama/qwen3:4b")
	if code != 0 || out != "Removed llava:7b\nRemoved ollama/qwen3:4b\n" || errOut != "" {
		t.Fatalf("exit %d stdout %q stderr %q", code, out, errOut)
	}
	if m := srv.Models(); len(m) != 1 || m[0].Name != "nomic-embed-text:latest" {
		t.Errorf("left: %+v", m)
	}
	code, _, errOut = run(t, nil, "models", "rm", "llava:7b")
	if code != 1 || !strings.Contains(errOut, "not installed") || !strings.Contains(errOut, "Hint: model not found — pull it with `hearth models pull llava:7b`") {
		t.Errorf("second rm: exit %d stderr %q", code, errOut)
	}
}

func TestModelsUsage(t *testing.T) {
	startModels(t)
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"models", "pull"}, 2, "accepts 1 arg(s), received 0"},
		{[]string{"models", "rm"}, 2, "requires at least 1 arg(s)"},
		{[]string{"models", "list", "extra"}, 2, `unknown command "extra" for "hearth models list"`},
		{[]string{"models", "lst"}, 2, `unknown command "lst" for "hearth models"`},
		{[]string{"models"}, 0, ""},
	}
	for _, tc := range cases {
		code, out, errOut := run(t, nil, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.stderr) {
			t.Errorf("%v: exit %d stderr %q", tc.args, code, errOut)
		}
		if tc.code == 0 && !strings.Contains(out, "Exit codes:") {
			t.Errorf("models help:\n%s", out)
		}
	}
}
