package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

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
