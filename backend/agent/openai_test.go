package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// sseServer is a minimal OpenAI-compatible endpoint: each chat request gets
// the next scripted list of stream events. It records the request bodies.
type sseServer struct {
	mu      sync.Mutex
	replies [][]string
	bodies  []map[string]any
}

func (s *sseServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	var events []string
	if len(s.replies) > 0 {
		events, s.replies = s.replies[0], s.replies[1:]
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range events {
		fmt.Fprintf(w, "data: %s\n\n", e)
	}
	io.WriteString(w, "data: [DONE]\n\n")
}

func chunk(delta string, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}`
}

// TestUnreadableArgumentsThroughOpenAI drives the loop through the
// OpenAI-compatible client: arguments that are JSON but not an object arrive
// with ArgsError and are answered as a tool result the model corrects from;
// reasoning is streamed but never sent back to such a provider.
func TestUnreadableArgumentsThroughOpenAI(t *testing.T) {
	srv := &sseServer{replies: [][]string{
		{chunk(`{"role":"assistant","reasoning_content":"Let me read."}`, ""),
			chunk(`{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"read_file","arguments":"[1,2]"}}]}`, ""),
			chunk(`{}`, "tool_calls")},
		{chunk(`{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.txt\"}"}}]}`, ""),
			chunk(`{}`, "tool_calls")},
		{chunk(`{"content":"It says alpha."}`, "stop")},
	}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	prov, err := llm.NewOpenAI(llm.OpenAIConfig{Name: "custom.test", BaseURL: ts.URL + "/v1", APIKey: "k", Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, fakeollama.Script{}, func(o *Options) {
		o.Resolve = func(string) (llm.Provider, string, error) { return prov, "gpt-test", nil }
	})
	writeFile(t, h.ws+"/a.txt", "alpha\n")
	res, evs := h.send("", "read a.txt")
	if res.Status != event.StatusOK || res.Final != "It says alpha." {
		t.Fatalf("result %+v %s", res, describe(evs))
	}
	r := ofType[event.ToolResultData](evs)
	if len(r) != 2 || r[0].OK || !strings.Contains(r[0].Content, "could not read the arguments of read_file") || !strings.Contains(r[0].Content, "Valid tools:") || !r[1].OK {
		t.Errorf("results %+v", r)
	}
	if len(filterType(evs, event.ReasoningDelta)) == 0 {
		t.Error("reasoning_content was not streamed as reasoning_delta")
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	raw, _ := json.Marshal(srv.bodies[1]["messages"])
	if strings.Contains(string(raw), "Let me read") {
		t.Errorf("reasoning was sent back to an OpenAI-compatible provider: %s", raw)
	}
}
