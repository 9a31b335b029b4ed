package llm

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"
	"golang.org/x/crypto/ssh"

	"hearth/backend/internal/fakeollama"
)

// A tool call of the history whose arguments are not a JSON object is refused
// with a clear error before anything is sent.
func TestOllamaRefusesNonObjectHistoryArguments(t *testing.T) {
	o, _, _ := newFakeOllama(t)
	for _, args := range []string{`[1]`, `"x"`, `{"a":`} {
		msgs := []Message{{Role: RoleUser, Content: "hi"},
			{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "read_file", Arguments: json.RawMessage(args)}}},
			{Role: RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "x"}}
		_, err := o.Chat(context.Background(), Request{Model: "qwen3:4b", Messages: msgs}, nil)
		if e, ok := AsError(err); !ok || e.Kind != KindBadResponse || !strings.Contains(e.Error(), "read_file") {
			t.Errorf("arguments %s: err %v, want a bad_response error naming the tool", args, err)
		}
	}
}

func TestOllamaStreamedToolArguments(t *testing.T) {
	long := strings.Repeat("x", 100_000) // longer than the read buffer: assembled from pieces
	o, _, _ := newFakeOllama(t,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{
			{Name: "read_file", Arguments: json.RawMessage(`{"path":"` + long + `"}`)},
			{Name: "read_file", Arguments: json.RawMessage(`"{\"path\":\"as-string.md\"}"`)},
			{Name: "read_file", Arguments: json.RawMessage(`null`)},
			{Name: "read_file", Arguments: json.RawMessage(`[1,2]`)},
		}},
	)
	resp, err := o.Chat(context.Background(), Request{Model: "qwen3:4b", Messages: userMsg("x"), Tools: []ToolDef{readFileTool}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 4 {
		t.Fatalf("calls %d, want 4", len(calls))
	}
	var a struct{ Path string }
	if err := json.Unmarshal(calls[0].Arguments, &a); err != nil || a.Path != long || calls[0].ArgsError != "" {
		t.Errorf("long call: %d bytes of path, err %v, %q", len(a.Path), err, calls[0].ArgsError)
	}
	if string(calls[1].Arguments) != `{"path":"as-string.md"}` || calls[1].ArgsError != "" {
		t.Errorf("arguments as a string: %s %q", calls[1].Arguments, calls[1].ArgsError)
	}
	if string(calls[2].Arguments) != `{}` || calls[2].ArgsError != "" {
		t.Errorf("null arguments: %s %q", calls[2].Arguments, calls[2].ArgsError)
	}
	if string(calls[3].Arguments) != `{}` || !strings.Contains(calls[3].ArgsError, "not a JSON object") {
		t.Errorf("array arguments: %s %q", calls[3].Arguments, calls[3].ArgsError)
	}
}

func TestOllamaStreamErrors(t *testing.T) {
	cases := []struct {
		name    string
		handler http.HandlerFunc
		kind    ErrorKind
		message string
	}{
		{"unauthorized", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"unauthorized","signin_url":"https://ollama.com/connect"}`))
		}, KindAuth, "refused"},
		{"status without JSON", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte("prompt is too long for the context length\n"))
		}, KindContextOverflow, "no longer fits"},
		{"line that is not JSON", func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte("{\"message\":{\"content\":\"Hi\"},\"done\":false}\nthis is no JSON\n"))
		}, KindBadResponse, "this is no JSON"},
		{"endless line", func(w http.ResponseWriter, _ *http.Request) {
			chunk := []byte(strings.Repeat("a", 1<<20))
			_, _ = w.Write([]byte(`{"message":{"content":"`))
			for range 9 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}, KindBadResponse, "longer than 8 MB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/show" {
					_, _ = w.Write([]byte(`{"capabilities":["completion"]}`))
					return
				}
				c.handler(w, r)
			}))
			t.Cleanup(ts.Close)
			o, err := NewOllama(OllamaConfig{Host: ts.URL, Retry: RetryPolicy{MaxAttempts: 1}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = o.Chat(context.Background(), Request{Model: "m", Messages: userMsg("x")}, nil)
			e, ok := AsError(err)
			if !ok || e.Kind != c.kind || !strings.Contains(e.Error(), c.message) {
				t.Fatalf("err %v (kind %v), want kind %s saying %q", err, e, c.kind, c.message)
			}
			if c.kind == KindAuth {
				var ae api.AuthorizationError
				if !errors.As(err, &ae) || ae.SigninURL == "" {
					t.Errorf("the authorization error lost its sign-in URL: %v", err)
				}
			}
		})
	}
}

// A tool round must not cost a large buffer per request (api.Client allocated
// 8 MB for each): 20 requests allocate well under one such buffer in all.
func TestOllamaChatAllocatesLittle(t *testing.T) {
	replies := make([]fakeollama.Reply, 21)
	for i := range replies {
		replies[i] = fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"a.md"}`)}}}
	}
	o, _, _ := newFakeOllama(t, replies...)
	req := Request{Model: "qwen3:4b", Messages: userMsg("read a.md"), Tools: []ToolDef{readFileTool}}
	if _, err := o.Chat(context.Background(), req, nil); err != nil { // the model's details, the connection
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 20 {
		if _, err := o.Chat(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	// The fake server in this process allocates too; both together stay small.
	if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
		t.Errorf("20 chats allocated %d KB; want well under 4 MB", got>>10)
	}
}

// serveChat answers /api/show with caps and /api/chat with one final line, handing
// each chat request to got.
func serveChat(t *testing.T, caps string, got func(*http.Request, []byte)) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/show" {
			_, _ = w.Write([]byte(`{"capabilities":` + caps + `,"model_info":{"general.context_length":4096}}`))
			return
		}
		body, _ := io.ReadAll(r.Body)
		got(r, body)
		_, _ = w.Write([]byte(`{"message":{"content":"ok"},"done":true,"done_reason":"stop"}` + "\n"))
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// The request reads, as Ollama's own types, as what Hearth asked: the history's
// calls with their arguments, num_ctx capped at the model's window, no
// truncation or shift, and what the model cannot take left out.
func TestOllamaChatRequestAsTheServerReadsIt(t *testing.T) {
	var body []byte
	url := serveChat(t, `["completion","tools"]`, func(_ *http.Request, b []byte) { body = b })
	o, err := NewOllama(OllamaConfig{Host: url, ContextTokens: 9000, Retry: RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	think := true
	req := Request{Model: "m", Think: &think, Tools: []ToolDef{readFileTool, {Name: "list_dir", Description: "List"}},
		Messages: []Message{
			{Role: RoleUser, Content: "look <here> \"α\"", Images: [][]byte{{1, 2}}},
			{Role: RoleAssistant, Reasoning: "read it", ToolCalls: []ToolCall{
				{ID: "c1", Name: "read_file", Arguments: json.RawMessage(` {"path":"a.md","opts":{"lines":[1,2]}} `)},
				{ID: "c2", Name: "list_dir"}}},
			{Role: RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: "text"},
		}}
	resp, err := o.Chat(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ar api.ChatRequest
	if err := json.Unmarshal(body, &ar); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if ar.Model != "m" || ar.Stream == nil || !*ar.Stream || ar.Truncate == nil || *ar.Truncate || ar.Shift == nil || *ar.Shift ||
		ar.Think != nil || ar.Options["num_ctx"] != float64(4096) || len(ar.Tools) != 2 || ar.Tools[1].Function.Parameters.Type != "object" {
		t.Errorf("request %s", body)
	}
	if len(ar.Messages) != 3 || ar.Messages[0].Content != "look <here> \"α\"" || len(ar.Messages[0].Images) != 0 ||
		ar.Messages[1].Thinking != "read it" || ar.Messages[2].ToolCallID != "c1" || ar.Messages[2].ToolName != "read_file" {
		t.Errorf("messages %s", body)
	}
	calls := ar.Messages[1].ToolCalls
	if len(calls) != 2 || calls[0].ID != "c1" || calls[1].Function.Index != 1 || calls[0].Function.Arguments.String() != `{"opts":{"lines":[1,2]},"path":"a.md"}` &&
		calls[0].Function.Arguments.String() != `{"path":"a.md","opts":{"lines":[1,2]}}` || calls[1].Function.Arguments.Len() != 0 {
		t.Errorf("calls %s", body)
	}
	if !resp.ThinkDropped || !resp.ImagesDropped || resp.ContextTokens != 4096 {
		t.Errorf("response %+v", resp)
	}
}

// With OLLAMA_AUTH set, the one path signs the request with the user's Ollama key
// as Ollama's client does; without a key it fails instead of going out unsigned.
func TestOllamaChatSigned(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("OLLAMA_AUTH", "1")
	var auth, ts string
	url := serveChat(t, `["completion"]`, func(r *http.Request, _ []byte) {
		auth, ts = r.Header.Get("Authorization"), r.URL.Query().Get("ts")
	})
	o, err := NewOllama(OllamaConfig{Host: url, Retry: RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Model: "m", Messages: userMsg("hi")}
	if _, err := o.Chat(context.Background(), req, nil); err == nil || auth != "" {
		t.Fatalf("without a key: err %v, Authorization %q", err, auth)
	}
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(key, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".ollama"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ollama", "id_ed25519"), pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Chat(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(auth, "AAAA") || !strings.Contains(auth, ":") || ts == "" {
		t.Errorf("Authorization %q, ts %q", auth, ts)
	}
}
