package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// sseReply is one scripted answer of the fake OpenAI-compatible server.
type sseReply struct {
	status int    // non-200: body is sent as is
	body   string // for errors
	events []string
	delay  time.Duration
	done   bool // end with data: [DONE]
}

type fakeOpenAI struct {
	mu      sync.Mutex
	replies []sseReply
	bodies  []map[string]any
	auth    []string
}

func (f *fakeOpenAI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/v1/models" {
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model"},{"id":"deepseek-chat","object":"model"}]}`)
		return
	}
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	var rep sseReply
	if len(f.replies) > 0 {
		rep, f.replies = f.replies[0], f.replies[1:]
	}
	f.mu.Unlock()
	if rep.status != 0 && rep.status != 200 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		_, _ = io.WriteString(w, rep.body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	for _, e := range rep.events {
		_, _ = fmt.Fprintf(w, "data: %s\n\n", e)
		fl.Flush()
		if rep.delay > 0 {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(rep.delay):
			}
		}
	}
	if rep.done {
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
	}
}

func newFakeOpenAI(t *testing.T, replies ...sseReply) (*OpenAI, *fakeOpenAI, *sleeps) {
	t.Helper()
	f := &fakeOpenAI{replies: replies}
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	sl := &sleeps{}
	p, err := NewOpenAI(OpenAIConfig{Name: "deepseek", BaseURL: ts.URL + "/v1", APIKey: "sk-test", ContextTokens: 64000,
		Retry: RetryPolicy{MaxAttempts: 3, Sleep: sl.sleep}})
	if err != nil {
		t.Fatal(err)
	}
	return p, f, sl
}

func delta(d string) string {
	return `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + d + `,"finish_reason":null}]}`
}

func finish(reason string) string {
	return `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"` + reason + `"}]}`
}

const usageEvent = `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":31,"completion_tokens":9,"total_tokens":40}}`

func TestOpenAIStreamsTextReasoningAndUsage(t *testing.T) {
	p, f, _ := newFakeOpenAI(t, sseReply{done: true, events: []string{
		delta(`{"role":"assistant","content":"","reasoning_content":"User says hi."}`),
		delta(`{"content":"Hello"}`),
		delta(`{"content":" there!"}`),
		finish("stop"),
		usageEvent,
	}})
	var chunks []Chunk
	temp := 0.3
	resp, err := p.Chat(context.Background(), Request{Model: "deepseek-chat", Messages: []Message{
		{Role: RoleSystem, Content: "be brief"}, {Role: RoleUser, Content: "hi"},
		{Role: RoleAssistant, Content: "earlier", Reasoning: "secret thoughts"}, {Role: RoleUser, Content: "again"},
	}, MaxTokens: 100, Temperature: &temp}, collect(&chunks))
	if err != nil {
		t.Fatal(err)
	}
	if textOf(chunks, ChunkText) != "Hello there!" || textOf(chunks, ChunkReasoning) != "User says hi." {
		t.Errorf("streamed %+v", chunks)
	}
	if resp.Message.Content != "Hello there!" || resp.Message.Reasoning != "User says hi." {
		t.Errorf("message %+v", resp.Message)
	}
	if resp.Usage != (Usage{PromptTokens: 31, CompletionTokens: 9}) || resp.FinishReason != FinishStop || resp.ContextTokens != 64000 {
		t.Errorf("usage %+v finish %q ctx %d", resp.Usage, resp.FinishReason, resp.ContextTokens)
	}
	body := f.bodies[0]
	if so, _ := body["stream_options"].(map[string]any); so["include_usage"] != true || body["stream"] != true {
		t.Errorf("stream options %v", body)
	}
	if f.auth[0] != "Bearer sk-test" || body["max_tokens"] != float64(100) || body["temperature"] != 0.3 {
		t.Errorf("auth %q body %v", f.auth[0], body)
	}
	raw, _ := json.Marshal(body["messages"])
	if strings.Contains(string(raw), "secret thoughts") {
		t.Errorf("reasoning sent back: %s", raw)
	}
}

func TestOpenAIToolCallPiecesAssembledPerIndex(t *testing.T) {
	p, f, _ := newFakeOpenAI(t, sseReply{done: true, events: []string{
		delta(`{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"read_file","arguments":""}}]}`),
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"pa"}}]}`),
		delta(`{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"exec","arguments":"{'command': "}}]}`),
		delta(`{"tool_calls":[{"index":0,"function":{"arguments":"th\": \"a.md\"}"}}]}`),
		delta(`{"tool_calls":[{"index":1,"function":{"arguments":"'ls',}"}}]}`),
		finish("tool_calls"),
		usageEvent,
	}})
	var chunks []Chunk
	req := Request{Model: "deepseek-chat", Messages: userMsg("x"), Tools: []ToolDef{readFileTool, {Name: "exec", Description: "run"}}}
	resp, err := p.Chat(context.Background(), req, collect(&chunks))
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 2 || resp.FinishReason != FinishToolCalls {
		t.Fatalf("calls %+v finish %q", calls, resp.FinishReason)
	}
	if calls[0].ID != "call_a" || calls[0].Name != "read_file" || string(calls[0].Arguments) != `{"path":"a.md"}` || calls[0].Repaired {
		t.Errorf("call 0 = %+v", calls[0])
	}
	if calls[1].ID != "call_b" || calls[1].Name != "exec" || string(calls[1].Arguments) != `{"command":"ls"}` || !calls[1].Repaired {
		t.Errorf("call 1 = %+v", calls[1])
	}
	tools, _ := json.Marshal(f.bodies[0]["tools"])
	if !strings.Contains(string(tools), `"required":["path"]`) || !strings.Contains(string(tools), `{"description":"run","name":"exec","parameters":{"properties":{},"type":"object"}}`) {
		t.Errorf("tools sent: %s", tools)
	}

	// The assistant turn and the tool result go back in OpenAI's shape.
	p2, f2, _ := newFakeOpenAI(t, sseReply{done: true, events: []string{delta(`{"content":"done"}`), finish("stop")}})
	req.Messages = append(req.Messages, resp.Message, Message{Role: RoleTool, ToolCallID: "call_a", ToolName: "read_file", Content: "hi"})
	if _, err := p2.Chat(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	msgs, _ := json.Marshal(f2.bodies[0]["messages"])
	for _, want := range []string{`"tool_calls":[{"function":{"arguments":"{\"path\":\"a.md\"}","name":"read_file"},"id":"call_a","type":"function"}`, `{"content":"hi","name":"read_file","role":"tool","tool_call_id":"call_a"}`} {
		if !strings.Contains(string(msgs), want) {
			t.Errorf("messages %s lack %s", msgs, want)
		}
	}
}

func TestOpenAIUnrepairableArgumentsAreReported(t *testing.T) {
	p, _, _ := newFakeOpenAI(t, sseReply{done: true, events: []string{
		delta(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"exec","arguments":"[1,2]"}}]}`), finish("tool_calls"),
	}})
	resp, err := p.Chat(context.Background(), Request{Model: "m", Messages: userMsg("x"), Tools: []ToolDef{{Name: "exec"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := resp.Message.ToolCalls[0]; c.ArgsError == "" || string(c.Arguments) != "{}" {
		t.Errorf("call = %+v", c)
	}
}

func TestOpenAIThinkTagsInContent(t *testing.T) {
	p, _, _ := newFakeOpenAI(t, sseReply{done: true, events: []string{
		delta(`{"content":"<thi"}`), delta(`{"content":"nk>hmm</think>"}`), delta(`{"content":"Answer."}`), finish("stop"),
	}})
	resp, err := p.Chat(context.Background(), Request{Model: "m", Messages: userMsg("x")}, nil)
	if err != nil || resp.Message.Content != "Answer." || resp.Message.Reasoning != "hmm" {
		t.Fatalf("resp %+v err %v", resp.Message, err)
	}
}

func TestOpenAIErrors(t *testing.T) {
	tests := []struct {
		name     string
		replies  []sseReply
		kind     ErrorKind
		hint     string
		requests int
	}{
		{name: "bad key", replies: []sseReply{{status: 401, body: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`}},
			kind: KindAuth, hint: "providers.deepseek.apiKey", requests: 1},
		{name: "unknown model", replies: []sseReply{{status: 404, body: `{"error":{"message":"The model 'x' does not exist","type":"invalid_request_error","code":"model_not_found"}}`}},
			kind: KindModelNotFound, hint: "check the model name", requests: 1},
		{name: "context", replies: []sseReply{{status: 400, body: `{"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error","code":"context_length_exceeded"}}`}},
			kind: KindContextOverflow, hint: "start a new chat", requests: 1},
		{name: "rate limited retried", replies: []sseReply{{status: 429, body: `{"error":{"message":"Rate limit reached","type":"requests"}}`}, {status: 429, body: `{"error":{"message":"Rate limit reached","type":"requests"}}`}, {status: 429, body: `{"error":{"message":"Rate limit reached","type":"requests"}}`}},
			kind: KindRateLimited, hint: "wait", requests: 3},
		{name: "quota is not retried", replies: []sseReply{{status: 429, body: `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`}},
			kind: KindRateLimited, hint: "credits", requests: 1},
		{name: "plain-text 502 retried", replies: []sseReply{{status: 502, body: "Bad Gateway"}, {status: 502, body: "Bad Gateway"}, {status: 502, body: "Bad Gateway"}},
			kind: KindBadResponse, hint: "try again", requests: 3},
		{name: "error event mid-stream after text", replies: []sseReply{{events: []string{delta(`{"content":"par"}`), `{"error":{"message":"upstream overloaded","type":"server_error"}}`}}},
			kind: KindBadResponse, hint: "try again", requests: 1},
		{name: "truncated stream retried then empty", replies: []sseReply{{events: []string{}}, {events: []string{}}, {events: []string{}}},
			kind: KindBadResponse, hint: "try again", requests: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, f, _ := newFakeOpenAI(t, tt.replies...)
			_, err := p.Chat(context.Background(), Request{Model: "m", Messages: userMsg("x")}, nil)
			e, ok := AsError(err)
			if !ok || e.Kind != tt.kind || !strings.Contains(e.Hint, tt.hint) {
				t.Fatalf("err = %v (%+v); want kind %s, hint with %q", err, e, tt.kind, tt.hint)
			}
			if len(f.bodies) != tt.requests {
				t.Errorf("%d requests, want %d", len(f.bodies), tt.requests)
			}
		})
	}
}

func TestOpenAIModelWithoutToolsIsRetriedWithoutTools(t *testing.T) {
	p, f, sl := newFakeOpenAI(t, sseReply{status: 404, body: `{"error":{"message":"No endpoints found that support tool use.","code":404}}`},
		sseReply{done: true, events: []string{delta(`{"content":"plain answer"}`), finish("stop")}})
	resp, err := p.Chat(context.Background(), Request{Model: "m", Messages: userMsg("x"), Tools: []ToolDef{readFileTool}}, nil)
	if err != nil || !resp.ToolsDropped || resp.Message.Content != "plain answer" || sl.count() != 0 {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	if len(f.bodies) != 2 || f.bodies[0]["tools"] == nil || f.bodies[1]["tools"] != nil {
		t.Errorf("tools in requests: %v / %v", f.bodies[0]["tools"], f.bodies[1]["tools"])
	}
}

func TestOpenAIRecoversAfter5xx(t *testing.T) {
	p, _, sl := newFakeOpenAI(t, sseReply{status: 500, body: `{"error":{"message":"oops","type":"server_error"}}`},
		sseReply{done: true, events: []string{delta(`{"content":"fine"}`), finish("stop")}})
	resp, err := p.Chat(context.Background(), Request{Model: "m", Messages: userMsg("x")}, nil)
	if err != nil || resp.Message.Content != "fine" || sl.count() != 1 {
		t.Fatalf("resp %q err %v sleeps %d", resp.Message.Content, err, sl.count())
	}
}

func TestOpenAIUnreachableAndCancel(t *testing.T) {
	sl := &sleeps{}
	p, err := NewOpenAI(OpenAIConfig{Name: "local", BaseURL: "http://" + closedPort(t) + "/v1", Retry: RetryPolicy{MaxAttempts: 2, Sleep: sl.sleep}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Chat(context.Background(), Request{Model: "m", Messages: userMsg("x")}, nil)
	if e, ok := AsError(err); !ok || e.Kind != KindUnreachable || !strings.Contains(e.Hint, "providers.local.apiBase") || sl.count() != 1 {
		t.Fatalf("err %v sleeps %d", err, sl.count())
	}
	if _, err := p.Models(context.Background()); !IsKind(err, KindUnreachable) {
		t.Errorf("models: %v", err)
	}

	events := []string{}
	for i := 0; i < 20; i++ {
		events = append(events, delta(`{"content":"word "}`))
	}
	slow, _, _ := newFakeOpenAI(t, sseReply{events: events, delay: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	go func() {
		_, err := slow.Chat(ctx, Request{Model: "m", Messages: userMsg("x")}, func(Chunk) { once.Do(func() { close(first) }) })
		done <- err
	}()
	<-first
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || time.Since(start) > 500*time.Millisecond {
			t.Errorf("err %v after %v", err, time.Since(start))
		}
	case <-time.After(3 * time.Second):
		t.Fatal("cancel did not stop the stream")
	}
}

func TestOpenAIModelsAndConfig(t *testing.T) {
	p, _, _ := newFakeOpenAI(t)
	models, err := p.Models(context.Background())
	if err != nil || len(models) != 2 || models[0].Name != "deepseek-chat" {
		t.Fatalf("models %+v err %v", models, err)
	}
	if _, err := NewOpenAI(OpenAIConfig{BaseURL: "not a url"}); err == nil {
		t.Error("bad base URL accepted")
	}
	def, err := NewOpenAI(OpenAIConfig{})
	if err != nil || def.cfg.BaseURL != DefaultOpenAIBase || def.cfg.Name != "openai" {
		t.Errorf("defaults: %+v %v", def.cfg, err)
	}
}
