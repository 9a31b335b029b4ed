//go:build unix

package cli

import (
	"strings"
	"testing"

	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
)

// `hearth models check` against the real Ollama server: the tiny model that calls
// tools (whenever they are offered) and the one that prints its call.
func TestModelsCheckRealOllama(t *testing.T) {
	host := realollama.StartWithModels(t)
	setup(t, host)
	for model, want := range map[string][]string{
		testmodel.ChatModelName:     {"Tool calls:    yes, structured", "Restraint:     no", "Verdict:       good for tools", "  but it also calls a tool when none is needed"},
		testmodel.TextToolModelName: {"Tool calls:    yes, as text", "Verdict:       works with the text fallback"},
	} {
		code, out, errOut := run(t, nil, "models", "check", model)
		t.Logf("hearth models check %s:\n%s", model, out)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q", model, w)
			}
		}
	}
}
