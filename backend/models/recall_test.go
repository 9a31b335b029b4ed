package models

import (
	"context"
	"strings"
	"testing"

	"hearth/backend/config"
	"hearth/backend/i18n"
	"hearth/backend/llm"
)

// When the embedding model cannot be checked (Ollama answered the reachability probe but
// not the model check), the note says what to do, in both languages: where Ollama was
// asked, how to install the model, and that clearing the setting recalls by words.
func TestCheckRecallFailedGivesItsHint(t *testing.T) {
	s := openSettings(t)
	if err := s.Update(func(c *config.Config) error {
		c.Providers.Ollama.Host = "http://127.0.0.1:1"
		c.Agents.Defaults.EmbeddingModel = "ollama/nomic-embed-text"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	m := New(s, Options{Retry: llm.RetryPolicy{MaxAttempts: 1}})
	mode, note := m.CheckRecall(context.Background(), true)
	if mode != RecallKeyword || note.Code != "recall.checkFailed" || note.Args["host"] != "http://127.0.0.1:1" {
		t.Fatalf("CheckRecall = %q, %+v", mode, note)
	}
	en := note.String()
	for _, want := range []string{"nomic-embed-text could not be checked", "hint:", "Ollama is running at http://127.0.0.1:1",
		"hearth models pull nomic-embed-text", "Download in the Models view", "clear agents.defaults.embeddingModel"} {
		if !strings.Contains(en, want) {
			t.Errorf("English note %q lacks %q", en, want)
		}
	}
	zh := note.In(i18n.Chinese)
	for _, want := range []string{"无法检查嵌入模型 nomic-embed-text", "提示：确认 Ollama 正在 http://127.0.0.1:1 运行",
		"hearth models pull nomic-embed-text", "“模型”视图中的“下载”", "清空 agents.defaults.embeddingModel"} {
		if !strings.Contains(zh, want) {
			t.Errorf("Chinese note %q lacks %q", zh, want)
		}
	}
	if strings.Contains(zh, "hint") || strings.Contains(zh, "Download") {
		t.Errorf("Chinese note has English in it: %q", zh)
	}
}
