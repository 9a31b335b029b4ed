package llm

import (
	"context"
	"encoding/json"
	"testing"

	"hearth/backend/internal/fakeollama"
)

var familyToolDefs = func() []ToolDef {
	var defs []ToolDef
	for _, n := range familyTools {
		defs = append(defs, ToolDef{Name: n, Description: n, Parameters: json.RawMessage(`{"type":"object"}`)})
	}
	return defs
}()

// TestChatFamilyCallsThroughOllama streams each family's reply from the fake
// Ollama in token-like pieces through the real client: the calls come out
// as tool calls, nothing of them reaches the user, and the response says
// they were recovered from text.
func TestChatFamilyCallsThroughOllama(t *testing.T) {
	for _, tc := range familyCases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.visible == "" && len(tc.calls) == 0 {
				t.Skip("no visible text and no call: an empty reply")
			}
			o, _, _ := newFakeOllama(t, fakeollama.Reply{Chunks: tokenRE.FindAllString(tc.text, -1)})
			var chunks []Chunk
			resp, err := o.Chat(context.Background(), Request{Model: "qwen3:4b", Messages: userMsg("x"), Tools: familyToolDefs}, collect(&chunks))
			if err != nil {
				t.Fatal(err)
			}
			checkCalls(t, "ollama", resp.Message.ToolCalls, tc.calls)
			if resp.TextToolCalls != (len(tc.calls) > 0) {
				t.Errorf("TextToolCalls = %v with %d calls", resp.TextToolCalls, len(tc.calls))
			}
			if got := textOf(chunks, ChunkText); got != tc.visible {
				t.Errorf("streamed %q, want %q", got, tc.visible)
			}
			if len(tc.calls) > 0 && resp.FinishReason != FinishToolCalls {
				t.Errorf("finish %q", resp.FinishReason)
			}
		})
	}
}

func TestTextToolCallsFlag(t *testing.T) {
	o, _, _ := newFakeOllama(t,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"a"}`)}}},
		fakeollama.Reply{Content: "[TOOL_CALLS]read_file[ARGS]{\"path\": \"a\"}"},
		fakeollama.Reply{Content: "No tools needed."},
	)
	req := Request{Model: "qwen3:4b", Messages: userMsg("x"), Tools: []ToolDef{readFileTool}}
	for i, want := range []bool{false, true, false} {
		resp, err := o.Chat(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.TextToolCalls != want {
			t.Errorf("reply %d: TextToolCalls = %v, want %v (%+v)", i, resp.TextToolCalls, want, resp.Message)
		}
	}
}

// TestOpenAITextToolCalls: an OpenAI-compatible server without a tool
// parser for the model (llama.cpp without --jinja, vLLM without
// --tool-call-parser) passes the call through as content.
func TestOpenAITextToolCalls(t *testing.T) {
	var events []string
	for _, piece := range []string{"[TOOL_CALLS]", "get", "_weather", "[ARGS]", `{"city": `, `"Paris"}`} {
		b, _ := json.Marshal(map[string]string{"content": piece})
		events = append(events, delta(string(b)))
	}
	events = append(events, finish("stop"), usageEvent)
	p, _, _ := newFakeOpenAI(t, sseReply{events: events, done: true})
	var chunks []Chunk
	resp, err := p.Chat(context.Background(), Request{Model: "m", Messages: userMsg("x"), Tools: familyToolDefs}, collect(&chunks))
	if err != nil {
		t.Fatal(err)
	}
	checkCalls(t, "openai", resp.Message.ToolCalls, weather())
	if !resp.TextToolCalls || textOf(chunks, ChunkText) != "" || resp.FinishReason != FinishToolCalls {
		t.Errorf("TextToolCalls %v, streamed %q, finish %q", resp.TextToolCalls, textOf(chunks, ChunkText), resp.FinishReason)
	}
}
