package models

import "testing"

func TestOllamaModelName(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{in: "qwen3:4b", want: "qwen3:4b"},
		{in: "ollama/qwen3:4b", want: "qwen3:4b"},
		{in: "ollama/hf.co/org/model:Q4", want: "hf.co/org/model:Q4"},
		{in: " llama3.2 ", want: "llama3.2"},
		{in: "openai/gpt-4o", err: true},
		{in: "custom.groq/llama", err: true},
		{in: "", err: true},
		{in: "ollama/", err: true},
	}
	for _, tt := range tests {
		got, err := ollamaModelName(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ollamaModelName(%q) = %q, %v", tt.in, got, err)
		}
	}
}
