package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/models"
	"hearth/backend/settings"
)

// hearth status says when recall is keyword-only because the embedding
// model is missing, and that it searches by meaning once it is installed.
func TestStatusRecall(t *testing.T) {
	for _, tc := range []struct {
		name   string
		models []fakeollama.Model
		mode   string
		text   string
	}{
		{"embedding model missing", []fakeollama.Model{fakeollama.DefaultModel()}, models.RecallKeyword,
			"Recall      keyword-only: the embedding model nomic-embed-text is not installed (hint: hearth models pull nomic-embed-text)"},
		{"embedding model installed", []fakeollama.Model{fakeollama.DefaultModel(), fakeollama.EmbedModel()}, models.RecallHybrid,
			"Recall      by meaning and keywords (embedding model ollama/nomic-embed-text)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, url := fakeollama.Start(t, fakeollama.Script{Models: tc.models})
			setup(t, url)
			code, out, _ := run(t, nil, "status")
			if code != 0 || !strings.Contains(out, tc.text) {
				t.Errorf("exit %d, want %q in\n%s", code, tc.text, out)
			}
			_, out, _ = run(t, nil, "status", "--json")
			var st settings.Status
			if err := json.Unmarshal([]byte(out), &st); err != nil {
				t.Fatal(err)
			}
			if st.Recall != tc.mode || st.EmbeddingModel != "ollama/nomic-embed-text" || (tc.mode == models.RecallKeyword) != (st.RecallNote != "") {
				t.Errorf("json recall %q note %q model %q", st.Recall, st.RecallNote, st.EmbeddingModel)
			}
		})
	}
	t.Run("no embedding model set", func(t *testing.T) {
		root := setup(t, fakeOllama(t))
		cfg := filepath.Join(root, "c.json")
		if err := os.WriteFile(cfg, []byte(`{"agents":{"defaults":{"embeddingModel":""}}}`), 0o600); err != nil {
			t.Fatal(err)
		}
		_, out, _ := run(t, nil, "--config", cfg, "status")
		if !strings.Contains(out, "keyword-only: no embedding model is set") {
			t.Errorf("status:\n%s", out)
		}
	})
}
