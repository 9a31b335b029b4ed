// Package fakeollama is a scripted fake Ollama server that speaks the real
// wire format (application/x-ndjson streams, {"error":…} bodies and lines,
// /api/show, /api/tags, /api/pull, /api/delete, /api/embed, /api/version).
// Go tests run it over httptest (Start); browser tests start cmd/fakeollama.
// Each /api/chat request takes the next scripted Reply from a queue (or the
// default reply) and every request is recorded for assertions.
package fakeollama

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Model is an installed model as /api/tags and /api/show describe it.
type Model struct {
	Name          string   `json:"name"`
	Family        string   `json:"family,omitempty"`
	Size          int64    `json:"size,omitempty"`
	ContextLength int      `json:"contextLength,omitempty"`
	Capabilities  []string `json:"capabilities,omitempty"`
	ParameterSize string   `json:"parameterSize,omitempty"`
	Quantization  string   `json:"quantization,omitempty"`
	// Digest overrides the digest /api/tags reports (derived from the name
	// otherwise): a test changes it to play a re-pulled model.
	Digest string `json:"digest,omitempty"`
	// ToolStyle is how the model answers the fitness check's requests (see
	// probe.go): "structured", "text", "none", "eager" or "broken"; empty
	// means "structured" for a model with the tools capability, else "none".
	ToolStyle string `json:"toolStyle,omitempty"`
	// ProbeDelayMS slows the answers to the fitness check (a model on a slow CPU).
	ProbeDelayMS int `json:"probeDelayMs,omitempty"`
}

// ToolCall is a structured call in a streamed line.
type ToolCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Reply scripts one /api/chat answer.
type Reply struct {
	// Status >= 400 answers with that HTTP status and {"error": Error}.
	Status int `json:"status,omitempty"`
	// Error without Status is sent as an {"error":…} line inside the 200
	// stream, after the parts below.
	Error    string `json:"error,omitempty"`
	Thinking string `json:"thinking,omitempty"`
	// Content is streamed in word-sized pieces; Chunks gives the pieces exactly.
	Content   string     `json:"content,omitempty"`
	Chunks    []string   `json:"chunks,omitempty"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// DoneReason defaults to "stop".
	DoneReason      string `json:"doneReason,omitempty"`
	PromptEvalCount int    `json:"promptEvalCount,omitempty"`
	EvalCount       int    `json:"evalCount,omitempty"`
	// EvalDurationMS is the reported generation time (eval_duration); 0 means 1 µs.
	EvalDurationMS int `json:"evalDurationMs,omitempty"`
	// DelayMS waits between streamed lines (a slow model).
	DelayMS int `json:"delayMs,omitempty"`
	// Hang keeps the stream open after its parts until the client goes away.
	Hang bool `json:"hang,omitempty"`
	// Echo answers with a friendly sentence quoting the last user message.
	Echo bool `json:"echo,omitempty"`
}

func (r Reply) delay() time.Duration { return time.Duration(r.DelayMS) * time.Millisecond }

// Progress is one /api/pull progress line.
type Progress struct {
	Status    string `json:"status"`
	Digest    string `json:"digest,omitempty"`
	Total     int64  `json:"total,omitempty"`
	Completed int64  `json:"completed,omitempty"`
}

// PullReply scripts one /api/pull answer. The zero value succeeds with
// typical progress and installs the model.
type PullReply struct {
	Status int `json:"status,omitempty"`
	// Error is an error line after Steps (how an offline pull fails).
	Error   string     `json:"error,omitempty"`
	Steps   []Progress `json:"steps,omitempty"`
	DelayMS int        `json:"delayMs,omitempty"`
}

// Script is the JSON file cmd/fakeollama reads.
type Script struct {
	Models  []Model     `json:"models"`
	Replies []Reply     `json:"replies"`
	Pulls   []PullReply `json:"pulls,omitempty"`
	// Default answers chats once Replies is used up; nil means Echo.
	Default *Reply `json:"default,omitempty"`
}

// LoadScript reads a Script from a JSON file.
func LoadScript(path string) (Script, error) {
	var s Script
	b, err := os.ReadFile(path)
	if err != nil {
		return s, fmt.Errorf("read fake Ollama script: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("parse fake Ollama script %s: %w", path, err)
	}
	return s, nil
}

// DefaultModel is a chat model with tools and thinking, like qwen3:4b.
func DefaultModel() Model {
	return Model{
		Name: "qwen3:4b", Family: "qwen3", Size: 2_497_293_918, ContextLength: 40960,
		Capabilities:  []string{"completion", "tools", "thinking"},
		ParameterSize: "4.0B", Quantization: "Q4_K_M",
	}
}

// EmbedModel is an embedding model like nomic-embed-text.
func EmbedModel() Model {
	return Model{
		Name: "nomic-embed-text:latest", Family: "nomic-bert", Size: 274_302_450, ContextLength: 2048,
		Capabilities: []string{"embedding"}, ParameterSize: "137M", Quantization: "F16",
	}
}

// DefaultScript is what cmd/fakeollama serves without a script file.
func DefaultScript() Script {
	return Script{Models: []Model{DefaultModel(), EmbedModel()}}
}

func timeMS(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }
