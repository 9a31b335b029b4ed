//go:build unix

package llm

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
)

func TestRealOllama(t *testing.T) {
	// The one way tests start a real server: realollama (it waits on /api/version).
	host := realollama.StartWithModels(t)
	u, _ := url.Parse(host)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	o, err := NewOllama(OllamaConfig{Host: host, ContextTokens: 2 * testmodel.ContextLength, Retry: RetryPolicy{MaxAttempts: 2, BaseDelay: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	chatModel, embedModel := testmodel.ChatModelName, testmodel.EmbedModelName
	weather := ToolDef{Name: testmodel.ToolName, Description: "Current weather for a city",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}

	t.Run("show", func(t *testing.T) {
		d, err := o.Show(ctx, chatModel)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Has(CapCompletion) || !d.Has(CapTools) || d.Has(CapEmbedding) || d.ContextLength != testmodel.ContextLength || d.Family != "qwen3" || d.Size < 100_000 {
			t.Errorf("chat model details %+v", d)
		}
		e, err := o.Show(ctx, embedModel)
		if err != nil {
			t.Fatal(err)
		}
		if !e.Has(CapEmbedding) || e.Has(CapTools) {
			t.Errorf("embed model details %+v", e)
		}
	})

	t.Run("list", func(t *testing.T) {
		models, err := o.Models(ctx)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		for _, m := range models {
			names[m.Name] = true
			if m.Size <= 0 {
				t.Errorf("model %s has size %d", m.Name, m.Size)
			}
		}
		if !names[chatModel] || !names[embedModel] {
			t.Errorf("models = %+v", models)
		}
	})

	t.Run("streamed answer", func(t *testing.T) {
		var chunks []Chunk
		resp, err := o.Chat(ctx, Request{Model: chatModel, Messages: userMsg("Say hello")}, collect(&chunks))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Message.Content != testmodel.ChatReply || textOf(chunks, ChunkText) != testmodel.ChatReply {
			t.Errorf("answer %q, streamed %q", resp.Message.Content, textOf(chunks, ChunkText))
		}
		if len(chunks) < 3 {
			t.Errorf("answer came in %d chunks, want a stream", len(chunks))
		}
		if resp.Usage.PromptTokens <= 0 || resp.Usage.CompletionTokens <= 0 || resp.FinishReason != FinishStop {
			t.Errorf("usage %+v finish %q", resp.Usage, resp.FinishReason)
		}
		if resp.ContextTokens != testmodel.ContextLength {
			t.Errorf("num_ctx %d, want the model's %d (%d asked, capped)", resp.ContextTokens, testmodel.ContextLength, 2*testmodel.ContextLength)
		}
	})

	t.Run("think on a model that cannot think", func(t *testing.T) {
		think := true
		resp, err := o.Chat(ctx, Request{Model: chatModel, Messages: userMsg("hi"), Think: &think}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !resp.ThinkDropped || resp.Message.Content != testmodel.ChatReply {
			t.Errorf("resp %+v", resp)
		}
	})

	t.Run("max tokens", func(t *testing.T) {
		resp, err := o.Chat(ctx, Request{Model: chatModel, Messages: userMsg("hi"), MaxTokens: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.FinishReason != FinishLength || resp.Message.Content != "Hello from" || resp.Usage.CompletionTokens != 2 {
			t.Errorf("finish %q content %q usage %+v", resp.FinishReason, resp.Message.Content, resp.Usage)
		}
	})

	t.Run("context overflow", func(t *testing.T) {
		long := strings.Repeat("lorem ipsum dolor sit amet ", 200)
		_, err := o.Chat(ctx, Request{Model: chatModel, Messages: userMsg(long), ContextTokens: 256}, nil)
		e, ok := AsError(err)
		if !ok || e.Kind != KindContextOverflow || e.Hint != HintContextOverflow {
			t.Fatalf("err = %v", err)
		}
		t.Logf("overflow error: %v", err)
	})

	t.Run("tool call then answer", func(t *testing.T) {
		req := Request{Model: chatModel, Messages: userMsg("Weather in Paris?"), Tools: []ToolDef{weather}}
		resp, err := o.Chat(ctx, req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Message.ToolCalls) != 1 {
			t.Fatalf("no tool call: %+v", resp.Message)
		}
		tc := resp.Message.ToolCalls[0]
		if tc.Name != testmodel.ToolName || tc.Unknown || tc.FromText || resp.Message.Content != "" {
			t.Errorf("tool call %+v content %q", tc, resp.Message.Content)
		}
		var args map[string]any
		if err := json.Unmarshal(tc.Arguments, &args); err != nil || args["city"] != "Paris" {
			t.Errorf("arguments %s: %v", tc.Arguments, err)
		}
		req.Messages = append(req.Messages, resp.Message,
			Message{Role: RoleTool, ToolCallID: tc.ID, ToolName: tc.Name, Content: "sunny, 21°C"})
		resp, err = o.Chat(ctx, req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Message.Content != testmodel.ChatReply || len(resp.Message.ToolCalls) != 0 {
			t.Errorf("answer after tool result: %+v", resp.Message)
		}
	})

	t.Run("tool call printed as text", func(t *testing.T) {
		var chunks []Chunk
		req := Request{Model: testmodel.TextToolModelName, Messages: userMsg("Weather in Paris?"), Tools: []ToolDef{weather}}
		resp, err := o.Chat(ctx, req, collect(&chunks))
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.Message.ToolCalls) != 1 {
			t.Fatalf("fallback found no call: %+v", resp.Message)
		}
		tc := resp.Message.ToolCalls[0]
		if tc.Name != testmodel.ToolName || !tc.FromText || tc.Unknown || string(tc.Arguments) != `{"city":"Paris"}` {
			t.Errorf("call %+v", tc)
		}
		if resp.Message.Content != "" || textOf(chunks, ChunkText) != "" {
			t.Errorf("call text leaked: %q / %q", resp.Message.Content, textOf(chunks, ChunkText))
		}
	})

	t.Run("tool calls printed in other families' shapes", func(t *testing.T) {
		// Each model prints its call as text in another family's shape, in
		// pieces; Hearth must recover the call, run the tool and go on. (The
		// coder model needs a template that does not name <tool_call>:
		// Ollama would hold its XML call back as an unparsable JSON call and
		// return an empty reply.)
		models := []struct {
			name, template string
			build          func() ([]byte, error)
		}{
			{testmodel.MistralToolModelName, testmodel.Template, testmodel.MistralToolModel},
			{testmodel.CoderToolModelName, testmodel.TemplateNoCallTag, testmodel.CoderToolModel},
		}
		for _, m := range models {
			t.Run(m.name, func(t *testing.T) {
				gguf, err := m.build()
				if err != nil {
					t.Fatal(err)
				}
				if err := testmodel.Create(ctx, api.NewClient(u, http.DefaultClient), m.name, gguf, m.template); err != nil {
					t.Fatal(err)
				}
				var chunks []Chunk
				req := Request{Model: m.name, Messages: userMsg("Weather in Paris?"), Tools: []ToolDef{weather}}
				resp, err := o.Chat(ctx, req, collect(&chunks))
				if err != nil {
					t.Fatal(err)
				}
				if len(resp.Message.ToolCalls) != 1 || !resp.TextToolCalls {
					t.Fatalf("no call recovered: %+v (text calls %v)", resp.Message, resp.TextToolCalls)
				}
				tc := resp.Message.ToolCalls[0]
				if tc.Name != testmodel.ToolName || !tc.FromText || tc.Unknown || string(tc.Arguments) != `{"city":"Paris"}` {
					t.Errorf("call %+v", tc)
				}
				if resp.Message.Content != "" || textOf(chunks, ChunkText) != "" {
					t.Errorf("call text leaked: %q / %q", resp.Message.Content, textOf(chunks, ChunkText))
				}
				// Run the tool the way the agent does and send the result back.
				var args struct{ City string }
				if err := json.Unmarshal(tc.Arguments, &args); err != nil {
					t.Fatal(err)
				}
				result := map[string]string{"Paris": "sunny, 21°C"}[args.City]
				req.Messages = append(req.Messages, resp.Message,
					Message{Role: RoleTool, ToolCallID: tc.ID, ToolName: tc.Name, Content: result})
				resp, err = o.Chat(ctx, req, nil)
				if err != nil {
					t.Fatal(err)
				}
				if resp.Message.Content != testmodel.ChatReply || len(resp.Message.ToolCalls) != 0 || resp.TextToolCalls {
					t.Errorf("answer after the tool result: %+v", resp)
				}
			})
		}
	})

	t.Run("embed", func(t *testing.T) {
		vecs, err := o.Embed(ctx, embedModel, []string{"the cat sat", "a dog barked", "the cat sat"})
		if err != nil {
			t.Fatal(err)
		}
		if len(vecs) != 3 || len(vecs[0]) != testmodel.EmbeddingLength {
			t.Fatalf("got %d vectors of %d", len(vecs), len(vecs[0]))
		}
		var n float64
		same, differ := true, false
		for i := range vecs[0] {
			n += float64(vecs[0][i] * vecs[0][i])
			same = same && math.Abs(float64(vecs[0][i]-vecs[2][i])) < 1e-5
			differ = differ || math.Abs(float64(vecs[0][i]-vecs[1][i])) > 1e-3
		}
		if math.Abs(n-1) > 1e-3 || !same || !differ {
			t.Errorf("norm %v, same input same vector %v, different input different vector %v", n, same, differ)
		}
	})

	t.Run("pull from unreachable registry", func(t *testing.T) {
		var progress []PullProgress
		err := o.Pull(ctx, "127.0.0.1:1/library/none", func(p PullProgress) { progress = append(progress, p) })
		e, ok := AsError(err)
		if !ok || e.Kind != KindUnreachable || !strings.Contains(e.Hint, "internet") {
			t.Fatalf("err = %v (%+v)", err, e)
		}
		t.Logf("pull error: %v (hint: %s)", e, e.Hint)
		if strings.Contains(e.Hint, "ollama serve") {
			t.Errorf("registry failure blamed on Ollama: %q", e.Hint)
		}
	})

	t.Run("delete", func(t *testing.T) {
		if err := o.Delete(ctx, chatModel); err != nil {
			t.Fatal(err)
		}
		models, err := o.Models(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range models {
			if m.Name == chatModel {
				t.Fatal("deleted model still listed")
			}
		}
		_, err = o.Chat(ctx, Request{Model: chatModel, Messages: userMsg("hi")}, nil)
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindModelNotFound || !strings.Contains(e.Hint, "hearth models pull "+chatModel) {
			t.Errorf("chat with deleted model: %v", err)
		}
		if err := o.Delete(ctx, chatModel); !IsKind(err, KindModelNotFound) {
			t.Errorf("second delete: %v", err)
		}
	})
}
