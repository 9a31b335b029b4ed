package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"

	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// The agent loop in miniature: offer a tool, run the call the model asks for,
// send the result back, print the streamed answer.
func ExampleOllama_Chat() {
	srv := fakeollama.New(fakeollama.Script{
		Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Replies: []fakeollama.Reply{
			{ToolCalls: []fakeollama.ToolCall{{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}},
			{Content: "It is sunny in Paris.", PromptEvalCount: 120, EvalCount: 6},
		},
	})
	ts := httptest.NewServer(srv)
	defer ts.Close()

	var p llm.Provider
	p, err := llm.NewOllama(llm.OllamaConfig{Host: ts.URL, ContextTokens: 8192})
	if err != nil {
		fmt.Println(err)
		return
	}
	req := llm.Request{
		Model:    "qwen3:4b",
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Weather in Paris?"}},
		Tools: []llm.ToolDef{{Name: "get_weather", Description: "Current weather",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}},
	}
	ctx := context.Background()
	for {
		resp, err := p.Chat(ctx, req, func(c llm.Chunk) {
			if c.Kind == llm.ChunkText {
				fmt.Print(c.Text)
			}
		})
		if err != nil {
			var le *llm.Error
			if errors.As(err, &le) {
				fmt.Println(le.Kind, "—", le.Hint)
			}
			return
		}
		req.Messages = append(req.Messages, resp.Message)
		if len(resp.Message.ToolCalls) == 0 {
			fmt.Printf("\n[%s, %d+%d tokens of %d]\n", resp.FinishReason, resp.Usage.PromptTokens, resp.Usage.CompletionTokens, resp.ContextTokens)
			return
		}
		for _, tc := range resp.Message.ToolCalls {
			fmt.Printf("[call %s %s]\n", tc.Name, tc.Arguments)
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, ToolName: tc.Name, Content: "sunny, 21°C"})
		}
	}
	// Output:
	// [call get_weather {"city":"Paris"}]
	// It is sunny in Paris.
	// [stop, 120+6 tokens of 8192]
}

// Errors carry a kind for the UI and a hint for the user.
func ExampleError() {
	o, _ := llm.NewOllama(llm.OllamaConfig{Host: "127.0.0.1:1", Retry: llm.RetryPolicy{MaxAttempts: 1}})
	_, err := o.Chat(context.Background(), llm.Request{Model: "qwen3:4b"}, nil)
	if le, ok := llm.AsError(err); ok {
		fmt.Println(le.Kind)
		fmt.Println(le.Hint)
	}
	// Output:
	// unreachable
	// Ollama is not running — start it with `ollama serve`
}
