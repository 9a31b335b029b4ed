package fakeollama

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func lines(t *testing.T, resp *http.Response) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestChatWireFormat(t *testing.T) {
	srv, url := Start(t, Script{Models: []Model{DefaultModel()}, Replies: []Reply{
		{Thinking: "hm", Content: "Hi there", ToolCalls: []ToolCall{{Name: "exec", Arguments: json.RawMessage(`{"command":"ls"}`)}}, PromptEvalCount: 11, EvalCount: 3},
		{Content: "partial", Error: "runner crashed"},
		{Status: 500, Error: "boom"},
	}})
	resp := post(t, url+"/api/chat", `{"model":"qwen3:4b","messages":[{"role":"user","content":"hello"}]}`)
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("content type %q", ct)
	}
	ls := lines(t, resp)
	if len(ls) != 5 {
		t.Fatalf("%d lines: %v", len(ls), ls)
	}
	if m := ls[0]["message"].(map[string]any); m["thinking"] != "hm" || ls[0]["done"] != false {
		t.Errorf("thinking line %v", ls[0])
	}
	if m := ls[1]["message"].(map[string]any); m["content"] != "Hi" {
		t.Errorf("first content line %v", ls[1])
	}
	calls := ls[3]["message"].(map[string]any)["tool_calls"].([]any)
	fn := calls[0].(map[string]any)["function"].(map[string]any)
	if fn["name"] != "exec" || fn["arguments"].(map[string]any)["command"] != "ls" || ls[3]["done"] != false {
		t.Errorf("tool call line %v", ls[3])
	}
	last := ls[4]
	if last["done"] != true || last["done_reason"] != "stop" || last["prompt_eval_count"] != float64(11) || last["eval_count"] != float64(3) {
		t.Errorf("final line %v", last)
	}

	ls = lines(t, post(t, url+"/api/chat", `{"model":"qwen3:4b","messages":[]}`))
	if ls[len(ls)-1]["error"] != "runner crashed" {
		t.Errorf("error line missing: %v", ls)
	}
	resp = post(t, url+"/api/chat", `{"model":"qwen3:4b","messages":[]}`)
	if resp.StatusCode != 500 || lines(t, resp)[0]["error"] != "boom" {
		t.Errorf("status %d", resp.StatusCode)
	}
	resp = post(t, url+"/api/chat", `{"model":"absent","messages":[]}`)
	if resp.StatusCode != 404 || lines(t, resp)[0]["error"] != "model 'absent' not found" {
		t.Errorf("unknown model status %d", resp.StatusCode)
	}
	// Queue used up: the default reply echoes.
	ls = lines(t, post(t, url+"/api/chat", `{"model":"qwen3:4b","messages":[{"role":"user","content":"ping"}]}`))
	var text strings.Builder
	for _, l := range ls {
		text.WriteString(l["message"].(map[string]any)["content"].(string))
	}
	if text.String() != "Hello from fake Ollama! You said: ping" {
		t.Errorf("echo = %q", text.String())
	}
	if reqs := srv.ChatRequests(); len(reqs) != 5 || reqs[0].Messages[0].Content != "hello" {
		t.Errorf("recorded %d chat requests", len(reqs))
	}
}

func TestHangEndsOnClose(t *testing.T) {
	srv, url := Start(t, Script{Models: []Model{DefaultModel()}, Replies: []Reply{{Content: "x", Hang: true}}})
	// A reply that finished on its own would end with a done line; one that
	// hangs has none when Close cuts it.
	streaming, done := make(chan struct{}), make(chan string, 1)
	go func() {
		resp, err := http.Post(url+"/api/chat", "application/json", strings.NewReader(`{"model":"qwen3:4b"}`))
		if err != nil {
			close(streaming)
			done <- err.Error()
			return
		}
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		first, _ := r.ReadString('\n') // the content's line
		close(streaming)
		rest, _ := io.ReadAll(r)
		done <- first + string(rest)
	}()
	<-streaming
	srv.Close()
	select {
	case got := <-done:
		if !strings.Contains(got, `"x"`) || strings.Contains(got, `"done":true`) {
			t.Errorf("hanging reply sent %q", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end the hanging stream")
	}
}

func TestModelManagement(t *testing.T) {
	srv, url := Start(t, DefaultScript())
	ls := lines(t, post(t, url+"/api/pull", `{"model":"llama3.2"}`))
	if ls[0]["status"] != "pulling manifest" || ls[len(ls)-1]["status"] != "success" {
		t.Errorf("pull lines %v", ls)
	}
	if _, ok := srv.find("llama3.2"); !ok {
		t.Error("pulled model not installed")
	}
	req, _ := http.NewRequest(http.MethodDelete, url+"/api/delete", strings.NewReader(`{"model":"llama3.2"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("delete: %v %v", resp, err)
	}
	resp.Body.Close()
	if _, ok := srv.find("llama3.2"); ok {
		t.Error("deleted model still installed")
	}
	resp = post(t, url+"/api/embed", `{"model":"qwen3:4b","input":"x"}`)
	if resp.StatusCode != 400 {
		t.Errorf("embedding with a chat model: %d", resp.StatusCode)
	}
	var show map[string]any
	if err := json.NewDecoder(post(t, url+"/api/show", `{"model":"qwen3:4b"}`).Body).Decode(&show); err != nil {
		t.Fatal(err)
	}
	if show["model_info"].(map[string]any)["qwen3.context_length"] != float64(40960) {
		t.Errorf("show %v", show)
	}
}

func TestLoadScript(t *testing.T) {
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(`{"models":[{"name":"m:1","family":"llama","capabilities":["completion"]}],"replies":[{"content":"a","delayMs":5}],"default":{"content":"d"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := LoadScript(path)
	if err != nil || len(s.Models) != 1 || s.Replies[0].delay() != 5*time.Millisecond || s.Default.Content != "d" {
		t.Fatalf("script %+v err %v", s, err)
	}
	if _, err := LoadScript(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing script accepted")
	}
}
