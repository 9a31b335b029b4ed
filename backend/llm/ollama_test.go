package llm

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/i18n"
	"hearth/backend/internal/fakeollama"
)

// sleeps records backoff waits without waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.d)
}

func newFakeOllama(t *testing.T, replies ...fakeollama.Reply) (*Ollama, *fakeollama.Server, *sleeps) {
	t.Helper()
	srv, url := fakeollama.Start(t, fakeollama.Script{
		Models:  []fakeollama.Model{fakeollama.DefaultModel(), fakeollama.EmbedModel(), {Name: "tiny:latest", Family: "llama", ContextLength: 2048, Capabilities: []string{"completion"}}},
		Replies: replies,
	})
	sl := &sleeps{}
	o, err := NewOllama(OllamaConfig{Host: url, ContextTokens: 8192, EmbedBatch: 2, Retry: RetryPolicy{MaxAttempts: 3, Sleep: sl.sleep}})
	if err != nil {
		t.Fatal(err)
	}
	return o, srv, sl
}

var readFileTool = ToolDef{Name: "read_file", Description: "Read a file",
	Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"file path"}},"required":["path"]}`)}

func collect(chunks *[]Chunk) func(Chunk) {
	var mu sync.Mutex
	return func(c Chunk) {
		mu.Lock()
		defer mu.Unlock()
		*chunks = append(*chunks, c)
	}
}

func textOf(chunks []Chunk, kind ChunkKind) string {
	var b strings.Builder
	for _, c := range chunks {
		if c.Kind == kind {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

func userMsg(s string) []Message { return []Message{{Role: RoleUser, Content: s}} }

func TestOllamaChatStreamsTextThinkingAndUsage(t *testing.T) {
	o, srv, _ := newFakeOllama(t, fakeollama.Reply{Thinking: "The user greets me.", Content: "Hello, how can I help?", PromptEvalCount: 42, EvalCount: 7})
	var chunks []Chunk
	think := true
	resp, err := o.Chat(context.Background(), Request{Model: "qwen3:4b", Messages: userMsg("hi"), Think: &think, ContextTokens: 100000}, collect(&chunks))
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(chunks, ChunkText); got != "Hello, how can I help?" {
		t.Errorf("streamed text = %q", got)
	}
	if got := textOf(chunks, ChunkReasoning); got != "The user greets me." {
		t.Errorf("streamed reasoning = %q", got)
	}
	if len(chunks) < 4 {
		t.Errorf("expected several chunks, got %d", len(chunks))
	}
	if resp.Message.Content != "Hello, how can I help?" || resp.Message.Reasoning != "The user greets me." || resp.Message.Role != RoleAssistant {
		t.Errorf("response message = %+v", resp.Message)
	}
	if resp.Usage != (Usage{PromptTokens: 42, CompletionTokens: 7}) || resp.FinishReason != FinishStop {
		t.Errorf("usage %+v finish %q", resp.Usage, resp.FinishReason)
	}
	// 100000 asked, the model's own maximum is 40960.
	if resp.ContextTokens != 40960 {
		t.Errorf("ContextTokens = %d, want 40960", resp.ContextTokens)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	var flags struct{ Truncate, Shift *bool }
	if err := json.Unmarshal(srv.Requests()[len(srv.Requests())-1].Body, &flags); err != nil || flags.Truncate == nil || *flags.Truncate || flags.Shift == nil || *flags.Shift {
		t.Errorf("truncate/shift not disabled: %+v %v", flags, err)
	}
	if reqs[0].Options["num_ctx"] != float64(40960) || string(reqs[0].Think) != "true" || reqs[0].Stream == nil || !*reqs[0].Stream {
		t.Errorf("sent options %v think %s stream %v", reqs[0].Options, reqs[0].Think, reqs[0].Stream)
	}
}

func TestOllamaNumCtxAlwaysSent(t *testing.T) {
	tests := []struct {
		name     string
		cfg, req int
		model    string
		want     int
	}{
		{"config default", 8192, 0, "qwen3:4b", 8192},
		{"request wins", 8192, 16384, "qwen3:4b", 16384},
		{"capped by model", 8192, 0, "tiny", 2048},
		{"built-in default", 0, 0, "qwen3:4b", DefaultContextTokens},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, srv, _ := newFakeOllama(t, fakeollama.Reply{Content: "ok"})
			o.cfg.ContextTokens = tt.cfg
			resp, err := o.Chat(context.Background(), Request{Model: tt.model, Messages: userMsg("x"), ContextTokens: tt.req}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := srv.ChatRequests()[0].Options["num_ctx"]; got != float64(tt.want) || resp.ContextTokens != tt.want {
				t.Errorf("num_ctx sent %v, response %d, want %d", got, resp.ContextTokens, tt.want)
			}
		})
	}
}

func TestOllamaToolCallRoundTrip(t *testing.T) {
	o, srv, _ := newFakeOllama(t,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.md"}`)}}},
		fakeollama.Reply{Content: "The file says hi."},
	)
	var chunks []Chunk
	req := Request{Model: "qwen3:4b", Messages: userMsg("read notes.md"), Tools: []ToolDef{readFileTool}}
	resp, err := o.Chat(context.Background(), req, collect(&chunks))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Message.ToolCalls) != 1 || resp.FinishReason != FinishToolCalls {
		t.Fatalf("tool calls %+v finish %q", resp.Message.ToolCalls, resp.FinishReason)
	}
	tc := resp.Message.ToolCalls[0]
	if tc.Name != "read_file" || string(tc.Arguments) != `{"path":"notes.md"}` || tc.ID == "" || tc.Unknown || tc.FromText || resp.TextToolCalls {
		t.Errorf("tool call = %+v (text: %v)", tc, resp.TextToolCalls)
	}
	var streamed int
	for _, c := range chunks {
		if c.Kind == ChunkToolCall && c.ToolCall.ID == tc.ID {
			streamed++
		}
	}
	if streamed != 1 {
		t.Errorf("tool call streamed %d times", streamed)
	}
	sent := srv.ChatRequests()[0]
	if len(sent.Tools) != 1 || !strings.Contains(string(sent.Tools[0]), `"name":"read_file"`) || !strings.Contains(string(sent.Tools[0]), `"required":["path"]`) {
		t.Errorf("tools sent: %s", sent.Tools)
	}

	req.Messages = append(req.Messages, resp.Message, Message{Role: RoleTool, ToolCallID: tc.ID, ToolName: "read_file", Content: "hi"})
	resp, err = o.Chat(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Content != "The file says hi." {
		t.Errorf("answer = %q", resp.Message.Content)
	}
	second := srv.ChatRequests()[1]
	if len(second.Messages) != 3 {
		t.Fatalf("history sent: %+v", second.Messages)
	}
	if a := second.Messages[1]; a.Role != "assistant" || !strings.Contains(string(a.ToolCalls), `"path":"notes.md"`) {
		t.Errorf("assistant message sent: %+v", a)
	}
	if tm := second.Messages[2]; tm.Role != "tool" || tm.ToolName != "read_file" || tm.ToolCallID != tc.ID || tm.Content != "hi" {
		t.Errorf("tool message sent: %+v", tm)
	}
}

func TestOllamaUnofferedToolIsMarkedUnknown(t *testing.T) {
	o, _, _ := newFakeOllama(t, fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "delete_everything"}}})
	resp, err := o.Chat(context.Background(), Request{Model: "qwen3:4b", Messages: userMsg("x"), Tools: []ToolDef{readFileTool}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Message.ToolCalls) != 1 || !resp.Message.ToolCalls[0].Unknown || resp.Message.ToolCalls[0].Name != "delete_everything" {
		t.Fatalf("calls = %+v", resp.Message.ToolCalls)
	}
}

func TestOllamaTextToolCallFallback(t *testing.T) {
	o, _, _ := newFakeOllama(t, fakeollama.Reply{Chunks: []string{"<think>need the file</think>", "<tool", "_call>\n{\"name\": \"read_file\", ", "\"arguments\": {\"path\": \"a\",}}\n</tool_call>"}})
	var chunks []Chunk
	resp, err := o.Chat(context.Background(), Request{Model: "qwen3:4b", Messages: userMsg("x"), Tools: []ToolDef{readFileTool}}, collect(&chunks))
	if err != nil {
		t.Fatal(err)
	}
	if textOf(chunks, ChunkText) != "" || resp.Message.Content != "" {
		t.Errorf("call text leaked: %q / %q", textOf(chunks, ChunkText), resp.Message.Content)
	}
	if resp.Message.Reasoning != "need the file" {
		t.Errorf("reasoning = %q", resp.Message.Reasoning)
	}
	if len(resp.Message.ToolCalls) != 1 {
		t.Fatalf("calls = %+v", resp.Message.ToolCalls)
	}
	if c := resp.Message.ToolCalls[0]; c.Name != "read_file" || string(c.Arguments) != `{"path":"a"}` || !c.FromText || !c.Repaired || !resp.TextToolCalls {
		t.Errorf("call = %+v (text: %v)", c, resp.TextToolCalls)
	}
}

func TestOllamaModelWithoutToolsGetsNoTools(t *testing.T) {
	o, srv, _ := newFakeOllama(t, fakeollama.Reply{Content: "I can only talk."})
	think := true
	msgs := []Message{{Role: RoleUser, Content: "what is this?", Images: [][]byte{[]byte("\x89PNG fake")}}}
	resp, err := o.Chat(context.Background(), Request{Model: "tiny", Messages: msgs, Tools: []ToolDef{readFileTool}, Think: &think}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !resp.ToolsDropped || !resp.ThinkDropped || !resp.ImagesDropped || resp.Message.Content != "I can only talk." {
		t.Errorf("resp = %+v", resp)
	}
	sent := srv.ChatRequests()[0]
	if len(sent.Tools) != 0 || len(sent.Think) != 0 || len(sent.Messages[0].Images) != 0 {
		t.Errorf("sent tools %s think %s images %d to a model without the capability", sent.Tools, sent.Think, len(sent.Messages[0].Images))
	}
}

func TestOllamaSendsImagesToVisionModels(t *testing.T) {
	o, srv, _ := newFakeOllama(t, fakeollama.Reply{Content: "A cat."})
	srv.SetModels(fakeollama.Model{Name: "llava:7b", Family: "llama", ContextLength: 4096, Capabilities: []string{"completion", "vision"}})
	img := []byte("\x89PNG fake")
	resp, err := o.Chat(context.Background(), Request{Model: "llava:7b", Messages: []Message{{Role: RoleUser, Content: "what?", Images: [][]byte{img}}}}, nil)
	if err != nil || resp.ImagesDropped {
		t.Fatalf("resp %+v err %v", resp, err)
	}
	got := srv.ChatRequests()[0].Messages[0].Images
	if len(got) != 1 || got[0] != base64.StdEncoding.EncodeToString(img) {
		t.Errorf("images sent: %v", got)
	}
}

func TestOllamaErrors(t *testing.T) {
	tests := []struct {
		name     string
		model    string
		replies  []fakeollama.Reply
		kind     ErrorKind
		hint     string
		requests int // chat requests made
		sleeps   int
	}{
		{name: "model not installed", model: "llama9", kind: KindModelNotFound, hint: "hearth models pull llama9", requests: 0},
		{name: "404 on chat", model: "qwen3:4b", replies: []fakeollama.Reply{{Status: 404, Error: "model 'qwen3:4b' not found"}},
			kind: KindModelNotFound, hint: "hearth models pull qwen3:4b", requests: 1},
		{name: "context overflow status", model: "qwen3:4b", replies: []fakeollama.Reply{{Status: 400, Error: "input length exceeds the context length"}},
			kind: KindContextOverflow, hint: "start a new chat", requests: 1},
		{name: "context overflow line", model: "qwen3:4b", replies: []fakeollama.Reply{{Error: "prompt is too long for the context window"}},
			kind: KindContextOverflow, hint: "start a new chat", requests: 1},
		{name: "5xx retried then final", model: "qwen3:4b", replies: []fakeollama.Reply{{Status: 500, Error: "boom"}, {Status: 500, Error: "boom"}, {Status: 500, Error: "boom"}},
			kind: KindBadResponse, hint: "server log", requests: 3, sleeps: 2},
		{name: "429 retried then final", model: "qwen3:4b", replies: []fakeollama.Reply{{Status: 429, Error: "slow down"}, {Status: 429, Error: "slow down"}, {Status: 503, Error: "busy"}},
			kind: KindRateLimited, hint: "wait", requests: 3, sleeps: 2},
		{name: "out of memory", model: "qwen3:4b", replies: []fakeollama.Reply{{Status: 500, Error: "model requires more system memory (5.2 GiB) than is available (3.1 GiB)"}},
			kind: KindBadResponse, hint: "smaller model", requests: 1},
		{name: "unauthorized", model: "qwen3:4b", replies: []fakeollama.Reply{{Status: 403, Error: "forbidden"}}, kind: KindAuth, hint: "authorization", requests: 1},
		{name: "tool parse failure retried once", model: "qwen3:4b",
			replies: []fakeollama.Reply{{Error: "error parsing tool call: invalid character"}, {Error: "error parsing tool call: invalid character"}},
			kind:    KindBadResponse, hint: "try again", requests: 2},
		{name: "empty reply retried once", model: "qwen3:4b", replies: []fakeollama.Reply{{}, {}}, kind: KindBadResponse, hint: "try again", requests: 2},
		{name: "error line after content is not retried", model: "qwen3:4b", replies: []fakeollama.Reply{{Content: "partial", Error: "runner crashed"}},
			kind: KindBadResponse, hint: "try again", requests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, srv, sl := newFakeOllama(t, tt.replies...)
			_, err := o.Chat(context.Background(), Request{Model: tt.model, Messages: userMsg("x")}, nil)
			e, ok := AsError(err)
			if !ok {
				t.Fatalf("error %v (%T) is not an *llm.Error", err, err)
			}
			if e.Kind != tt.kind || !strings.Contains(e.Hint, tt.hint) {
				t.Errorf("kind %q hint %q; want %q containing %q (err %v)", e.Kind, e.Hint, tt.kind, tt.hint, err)
			}
			if got := len(srv.ChatRequests()); got != tt.requests {
				t.Errorf("%d chat requests, want %d", got, tt.requests)
			}
			if sl.count() != tt.sleeps {
				t.Errorf("%d backoff sleeps, want %d", sl.count(), tt.sleeps)
			}
		})
	}
}

func TestOllamaRetryRecovers(t *testing.T) {
	tests := []struct {
		name    string
		replies []fakeollama.Reply
	}{
		{"after 500", []fakeollama.Reply{{Status: 500, Error: "loading"}, {Content: "ok now"}}},
		{"after tool parse error", []fakeollama.Reply{{Error: "error parsing tool call"}, {Content: "ok now"}}},
		{"after empty reply", []fakeollama.Reply{{}, {Content: "ok now"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _, _ := newFakeOllama(t, tt.replies...)
			var chunks []Chunk
			resp, err := o.Chat(context.Background(), Request{Model: "qwen3:4b", Messages: userMsg("x")}, collect(&chunks))
			if err != nil || resp.Message.Content != "ok now" || textOf(chunks, ChunkText) != "ok now" {
				t.Fatalf("resp %q streamed %q err %v", resp.Message.Content, textOf(chunks, ChunkText), err)
			}
		})
	}
}

// closedPort returns a loopback address nobody listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestOllamaUnreachable(t *testing.T) {
	sl := &sleeps{}
	o, err := NewOllama(OllamaConfig{Host: closedPort(t), Retry: RetryPolicy{MaxAttempts: 4, BaseDelay: 100 * time.Millisecond, Sleep: sl.sleep}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Chat(context.Background(), Request{Model: "qwen3:4b", Messages: userMsg("x")}, nil)
	if !IsKind(err, KindUnreachable) {
		t.Fatalf("err = %v", err)
	}
	e, _ := AsError(err)
	if e.Hint != HintOllamaDown || !strings.Contains(e.Error(), "cannot reach Ollama") {
		t.Errorf("hint %q message %q", e.Hint, e.Error())
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}
	if len(sl.d) != len(want) {
		t.Fatalf("sleeps %v, want %v", sl.d, want)
	}
	for i := range want {
		if sl.d[i] != want[i] {
			t.Errorf("sleep %d = %v, want %v", i, sl.d[i], want[i])
		}
	}
	for _, op := range []func() error{
		func() error { _, err := o.Models(context.Background()); return err },
		func() error { _, err := o.Show(context.Background(), "m"); return err },
		func() error { return o.Delete(context.Background(), "m") },
		func() error { _, err := o.Embed(context.Background(), "m", []string{"a"}); return err },
		func() error { return o.Pull(context.Background(), "m", nil) },
		func() error { _, err := o.Version(context.Background()); return err },
	} {
		if err := op(); !IsKind(err, KindUnreachable) {
			t.Errorf("management call: err = %v, want unreachable", err)
		}
	}
}

func TestOllamaCancelStopsSlowStreamPromptly(t *testing.T) {
	o, _, _ := newFakeOllama(t, fakeollama.Reply{Content: "one two three four five six seven eight", DelayMS: 300})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	partialCh := make(chan string, 1)
	go func() {
		resp, err := o.Chat(ctx, Request{Model: "qwen3:4b", Messages: userMsg("x")}, func(Chunk) { once.Do(func() { close(first) }) })
		partialCh <- resp.Message.Content
		done <- err
	}()
	select {
	case <-first:
	case <-time.After(5 * time.Second):
		t.Fatal("no first chunk")
	}
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		if partial := <-partialCh; !strings.HasPrefix(partial, "one") || strings.Contains(partial, "eight") {
			t.Errorf("partial response %q", partial)
		}
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("cancel took %v", d)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("chat did not stop after cancel")
	}
}

func TestOllamaCancelDuringHangAndBackoff(t *testing.T) {
	o, _, _ := newFakeOllama(t, fakeollama.Reply{Content: "hi", Hang: true})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := o.Chat(ctx, Request{Model: "qwen3:4b", Messages: userMsg("x")}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hang: err = %v", err)
	}

	// Real timer backoff, cancelled while waiting.
	o2, err := NewOllama(OllamaConfig{Host: closedPort(t), Retry: RetryPolicy{MaxAttempts: 5, BaseDelay: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	start := time.Now()
	if _, err := o2.Chat(ctx2, Request{Model: "m", Messages: userMsg("x")}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("backoff: err = %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("backoff not cancellable")
	}
}

func TestOllamaConnectionDroppedHint(t *testing.T) {
	// A server that hangs up on every request: reachable port, broken peer.
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(ts.Close)
	sl := &sleeps{}
	o, err := NewOllama(OllamaConfig{Host: ts.URL, Retry: RetryPolicy{MaxAttempts: 2, Sleep: sl.sleep}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = o.Chat(context.Background(), Request{Model: "m", Messages: userMsg("x")}, nil)
	e, ok := AsError(err)
	if !ok || e.Kind != KindUnreachable || !strings.Contains(e.Hint, "OLLAMA_HOST") || sl.count() != 1 {
		t.Fatalf("err %v hint %q sleeps %d", err, e.Hint, sl.count())
	}
}

// HintOllamaDown and HintContextOverflow are those hints in English.
var (
	HintOllamaDown      = hintOllamaDown.String()
	HintContextOverflow = i18n.M("error.contextOverflow.hint").String()
)
