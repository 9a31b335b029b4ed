package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Recorded answers of llama.cpp's server and vLLM (testdata/wire, sources in
// its README), replayed through the OpenAI-compatible provider: Hearth must
// read what those servers really send, not only what OpenAI sends.

// replay answers each request with the next file: a .sse file as an event
// stream with status 200, a .json file as an error body with its status.
type replay struct {
	mu     sync.Mutex
	steps  []replayStep
	bodies []map[string]any
}

type replayStep struct {
	file   string
	status int
}

func (r *replay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	b, _ := io.ReadAll(req.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	r.mu.Lock()
	r.bodies = append(r.bodies, body)
	var st replayStep
	if len(r.steps) > 0 {
		st, r.steps = r.steps[0], r.steps[1:]
	}
	r.mu.Unlock()
	if st.file == "" {
		http.Error(w, "no more recordings", http.StatusGone)
		return
	}
	data, err := os.ReadFile(filepath.Join("testdata", "wire", st.file))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if strings.HasSuffix(st.file, ".sse") {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(data)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(st.status)
	_, _ = w.Write(data)
}

func replayProvider(t *testing.T, name string, steps ...replayStep) (*OpenAI, *replay) {
	t.Helper()
	r := &replay{steps: steps}
	ts := httptest.NewServer(r)
	t.Cleanup(ts.Close)
	p, err := NewOpenAI(OpenAIConfig{Name: name, BaseURL: ts.URL + "/v1", ContextTokens: 8192,
		Retry: RetryPolicy{MaxAttempts: 2, Sleep: func(context.Context, time.Duration) error { return nil }}})
	if err != nil {
		t.Fatal(err)
	}
	return p, r
}

var wireWeather = ToolDef{Name: "get_weather", Description: "Current weather",
	Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}

func TestWireText(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"llamacpp_text.sse", "Hello from llama.cpp!"},
		{"vllm_text.sse", "Hello from vLLM!"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p, r := replayProvider(t, "custom.gpu", replayStep{file: tc.file})
			var chunks []Chunk
			resp, err := p.Chat(context.Background(), Request{Model: "qwen3-8b", Messages: userMsg("hi")}, collect(&chunks))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Content != tc.want || textOf(chunks, ChunkText) != tc.want || resp.FinishReason != FinishStop {
				t.Errorf("content %q streamed %q finish %q", resp.Message.Content, textOf(chunks, ChunkText), resp.FinishReason)
			}
			if resp.Usage.PromptTokens == 0 || resp.Usage.CompletionTokens != 4 {
				t.Errorf("usage %+v", resp.Usage)
			}
			// Usage in the last chunk is asked for: both servers send it only then.
			if so, _ := r.bodies[0]["stream_options"].(map[string]any); so["include_usage"] != true {
				t.Errorf("stream_options %v", r.bodies[0]["stream_options"])
			}
		})
	}
}

func TestWireToolCalls(t *testing.T) {
	t.Run("llama.cpp", func(t *testing.T) {
		p, _ := replayProvider(t, "custom.gpu", replayStep{file: "llamacpp_tools.sse"})
		var chunks []Chunk
		resp, err := p.Chat(context.Background(), Request{Model: "qwen3-8b", Messages: userMsg("Weather in Paris?"), Tools: []ToolDef{wireWeather}}, collect(&chunks))
		if err != nil {
			t.Fatal(err)
		}
		if resp.FinishReason != FinishToolCalls || len(resp.Message.ToolCalls) != 1 {
			t.Fatalf("finish %q calls %+v", resp.FinishReason, resp.Message.ToolCalls)
		}
		tc := resp.Message.ToolCalls[0]
		if tc.ID != "kXm2Yq9Qv7fTpL0sBn4Wc8rEj1uHd6Ga" || tc.Name != "get_weather" || tc.ArgsError != "" {
			t.Errorf("call %+v", tc)
		}
		assertArgs(t, tc.Arguments, map[string]any{"city": "Paris", "unit": "celsius"})
		if textOf(chunks, ChunkReasoning) != "The user wants the weather." {
			t.Errorf("reasoning %q", textOf(chunks, ChunkReasoning))
		}
		if resp.Usage != (Usage{PromptTokens: 312, CompletionTokens: 27}) {
			t.Errorf("usage %+v", resp.Usage)
		}
	})
	t.Run("vLLM two calls", func(t *testing.T) {
		p, _ := replayProvider(t, "custom.gpu", replayStep{file: "vllm_tools.sse"})
		resp, err := p.Chat(context.Background(), Request{Model: "Qwen/Qwen2.5-7B-Instruct", Messages: userMsg("Weather, then my notes"), Tools: []ToolDef{wireWeather}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		calls := resp.Message.ToolCalls
		if resp.FinishReason != FinishToolCalls || len(calls) != 2 || resp.Message.Content != "" {
			t.Fatalf("finish %q content %q calls %+v", resp.FinishReason, resp.Message.Content, calls)
		}
		if calls[0].ID != "chatcmpl-tool-3b8e1f0c2d4a4b6c8e0f1a2b3c4d5e6f" || calls[0].Name != "get_weather" ||
			calls[1].ID != "chatcmpl-tool-7c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f" || calls[1].Name != "read_file" {
			t.Errorf("calls %+v", calls)
		}
		assertArgs(t, calls[0].Arguments, map[string]any{"city": "Paris"})
		assertArgs(t, calls[1].Arguments, map[string]any{"path": "notes/todo.md"})
		if resp.Usage != (Usage{PromptTokens: 421, CompletionTokens: 44}) {
			t.Errorf("usage %+v", resp.Usage)
		}
	})
}

// Two calls in one index: each new id starts a call, and the empty id of a
// continuation does not.
func TestWireToolCallsSameIndex(t *testing.T) {
	p, _ := replayProvider(t, "custom.gpu", replayStep{file: "vllm_tools_same_index.sse"})
	resp, err := p.Chat(context.Background(), Request{Model: "Qwen/Qwen2.5-7B-Instruct", Messages: userMsg("Paris and Oslo?"), Tools: []ToolDef{wireWeather}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 2 {
		t.Fatalf("calls %+v", calls)
	}
	if calls[0].ID != "chatcmpl-tool-c9ZCzB9b9NikK5kjPBXpFG" || calls[1].ID != "chatcmpl-tool-HfzZPEVfQgvgpSJccb8Vr8" {
		t.Errorf("ids %q %q", calls[0].ID, calls[1].ID)
	}
	assertArgs(t, calls[0].Arguments, map[string]any{"city": "Paris"})
	assertArgs(t, calls[1].Arguments, map[string]any{"city": "Oslo"})
}

func assertArgs(t *testing.T, raw json.RawMessage, want map[string]any) {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("arguments %s: %v", raw, err)
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Errorf("arguments %s, want %s", gb, wb)
	}
}

func TestWireLength(t *testing.T) {
	p, _ := replayProvider(t, "custom.gpu", replayStep{file: "llamacpp_length.sse"})
	resp, err := p.Chat(context.Background(), Request{Model: "qwen3-8b", Messages: userMsg("Tell a story"), MaxTokens: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.FinishReason != FinishLength || resp.Message.Content != "Once upon" || resp.Usage.CompletionTokens != 2 {
		t.Errorf("finish %q content %q usage %+v", resp.FinishReason, resp.Message.Content, resp.Usage)
	}
}

// The context refusals: one coded error that says the conversation is too
// long for the server's window and what to do, never retried as a server fault.
func TestWireContextTooLong(t *testing.T) {
	for _, tc := range []struct {
		file   string
		status int
		tokens string
		window string
	}{
		{"llamacpp_context.json", 400, "14429", "8192"},
		{"llamacpp_context_500.json", 500, "1407", "256"},
		{"vllm_context.json", 400, "5023", "4096"},
		{"vllm_context_nested.json", 400, "20480", "16384"},
		{"vllm_stream_error.sse", 200, "4097", "4096"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p, r := replayProvider(t, "custom.gpu", replayStep{file: tc.file, status: tc.status})
			_, err := p.Chat(context.Background(), Request{Model: "qwen3-8b", Messages: userMsg("a long story")}, nil)
			e, ok := AsError(err)
			if !ok || e.Kind != KindContextOverflow {
				t.Fatalf("err = %v", err)
			}
			if e.Why.Text.Code != "error.provider.contextOverflow" || !strings.Contains(e.Message, tc.tokens) || !strings.Contains(e.Message, tc.window) {
				t.Errorf("message %q (%s)", e.Message, e.Why.Text.Code)
			}
			if !strings.Contains(e.Hint, "/new") || !strings.Contains(e.Hint, "--ctx-size") || !strings.Contains(e.Hint, "contextTokens") {
				t.Errorf("hint %q", e.Hint)
			}
			if len(r.bodies) != 1 {
				t.Errorf("%d requests: a context refusal is not retried", len(r.bodies))
			}
		})
	}
}

func TestWireErrors(t *testing.T) {
	t.Run("tools need a server flag", func(t *testing.T) {
		for _, st := range []replayStep{{"llamacpp_jinja.json", 500}, {"llamacpp_tools_unsupported.json", 500}, {"vllm_tools_disabled.json", 400}} {
			file := st.file
			p, r := replayProvider(t, "custom.gpu", st, replayStep{file: "llamacpp_text.sse"})
			resp, err := p.Chat(context.Background(), Request{Model: "qwen3-8b", Messages: userMsg("hi"), Tools: []ToolDef{wireWeather}}, nil)
			if err != nil || !resp.ToolsDropped || resp.Message.Content != "Hello from llama.cpp!" {
				t.Fatalf("%s: resp %+v err %v", file, resp, err)
			}
			if _, has := r.bodies[1]["tools"]; has || len(r.bodies) != 2 {
				t.Errorf("%s: retry still offers tools: %v", file, r.bodies)
			}
		}
	})
	t.Run("llama.cpp bad request", func(t *testing.T) {
		p, r := replayProvider(t, "custom.gpu", replayStep{file: "llamacpp_bad_request.json", status: 400})
		_, err := p.Chat(context.Background(), Request{Model: "qwen3-8b", Messages: userMsg("hi")}, nil)
		e, ok := AsError(err)
		if !ok || e.Kind != KindBadResponse || e.Why.Text.Code != "error.provider.failed" || len(r.bodies) != 1 {
			t.Fatalf("err = %v (%d requests)", err, len(r.bodies))
		}
		if !strings.Contains(err.Error(), "must be an array") {
			t.Errorf("the server's own words are lost: %v", err)
		}
	})
	t.Run("vLLM unknown model", func(t *testing.T) {
		p, _ := replayProvider(t, "custom.gpu", replayStep{file: "vllm_model_missing.json", status: 404})
		_, err := p.Chat(context.Background(), Request{Model: "qwen3-8b", Messages: userMsg("hi")}, nil)
		if !IsKind(err, KindModelNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
}

// An error body is kept only up to maxErrorBody: a server (or something in
// between) answering with an endless error page does not take all memory.
func TestWireHugeErrorBody(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":{"code":400,"type":"exceed_context_size_error","message":"`)
		chunk := strings.Repeat("x", 1<<16)
		for i := 0; i < 64; i++ { // 4 MB
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, `","n_prompt_tokens":9000,"n_ctx":4096}}`)
	}))
	t.Cleanup(ts.Close)
	p, err := NewOpenAI(OpenAIConfig{Name: "custom.gpu", BaseURL: ts.URL + "/v1", Retry: RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Chat(context.Background(), Request{Model: "m", Messages: userMsg("hi")}, nil)
	e, ok := AsError(err)
	if !ok || e.Kind == KindContextOverflow && strings.Contains(e.Message, "9000") {
		t.Fatalf("a cut body was read whole: %v", err)
	}
	if len(err.Error()) > 2*maxErrorBody {
		t.Errorf("error text of %d bytes", len(err.Error()))
	}
}

// FuzzContextRefusal: whatever an OpenAI-compatible server answers with an
// error, reading it neither panics nor calls a refusal without the words.
func FuzzContextRefusal(f *testing.F) {
	for _, name := range []string{"llamacpp_context.json", "vllm_context.json", "vllm_context_nested.json", "llamacpp_bad_request.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "wire", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), "")
	}
	f.Add(`{"error":{"type":"exceed_context_size_error","n_prompt_tokens":-1,"n_ctx":99999999999999999999}}`, "maximum context length is 99999999999999999999 tokens. However, you requested 1 tokens")
	p := &OpenAI{cfg: OpenAIConfig{Name: "custom.gpu"}}
	f.Fuzz(func(t *testing.T, body, msg string) {
		e, ok := p.contextRefusal(errors.New(msg), msg, []byte(body))
		if ok && (e == nil || e.Kind != KindContextOverflow || e.Hint == "") {
			t.Fatalf("refusal %+v", e)
		}
	})
}
