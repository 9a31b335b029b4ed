package cli

import (
	"regexp"
	"strings"
	"testing"

	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
)

// The models commands against a real Ollama server with the tiny generated models: the
// list shows each with the capabilities the server itself reports, and rm removes one.
// Runs when HEARTH_TEST_OLLAMA names the binary (make test builds it); skips otherwise.
func TestModelsRealOllama(t *testing.T) {
	host := realollama.StartWithModels(t)
	setup(t, host)

	code, out, errOut := run(t, nil, "models", "list")
	if code != 0 {
		t.Fatalf("models list: exit %d\n%s%s", code, out, errOut)
	}
	t.Logf("hearth models list:\n%s", out)
	rows := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		rows[strings.Fields(l)[0]] = l
	}
	for name, badges := range map[string]string{
		testmodel.ChatModelName:  `\[tools\]`,
		testmodel.EmbedModelName: `\[embedding\]`,
	} {
		row, ok := rows[name]
		if !ok {
			t.Fatalf("%s missing from the list:\n%s", name, out)
		}
		if !regexp.MustCompile(`qwen3\s+\d+\s+.*` + badges).MatchString(row) {
			t.Errorf("row for %s lacks family/context/%s: %q", name, badges, row)
		}
	}

	if code, out, errOut := run(t, nil, "models", "rm", testmodel.TextToolModelName); code != 0 {
		t.Fatalf("models rm: exit %d\n%s%s", code, out, errOut)
	}
	_, out, _ = run(t, nil, "models", "list")
	if strings.Contains(out, testmodel.TextToolModelName) {
		t.Fatalf("%s still listed after rm:\n%s", testmodel.TextToolModelName, out)
	}
}
