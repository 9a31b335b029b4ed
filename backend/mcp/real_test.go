//go:build unix

package mcp

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hearth/backend/agent"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/llm"
	"hearth/backend/session"
)

// TestRealOllamaCallsMCPTool is the end-to-end path: the real Ollama server
// runs a tiny model that calls mcp_e_echo; the agent runs the call on the
// stdio MCP server through the Manager's registry and the model answers.
// (The whole Hearth prompt does not fit the tiny model's 4096-token window,
// whose vocabulary is mostly single bytes, so the runner gets a plain one.)
func TestRealOllamaCallsMCPTool(t *testing.T) {
	host := realollama.Start(t)
	u, _ := url.Parse(host)
	gguf, err := testmodel.ToolCallModel("mcp_e_echo", `{"text": "hi"}`)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := testmodel.Create(ctx, api.NewClient(u, http.DefaultClient), "hearth-mcp:latest", gguf, testmodel.Template); err != nil {
		t.Fatal(err)
	}
	f := newManager(t, map[string]config.MCPServer{"e": stdioServer(nil)})
	f.m.Start()
	f.connected(t, "e")

	prov, err := llm.NewOllama(llm.OllamaConfig{Host: host, Retry: llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	runner, err := agent.New(agent.Options{Tools: f.reg, DefaultModel: "ollama/hearth-mcp:latest",
		Store:   session.NewStore(filepath.Join(t.TempDir(), "sessions"), session.Options{}),
		Resolve: func(name string) (llm.Provider, string, error) { return prov, strings.TrimPrefix(name, "ollama/"), nil }})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var calls []event.ToolCallData
	var results []event.ToolResultData
	res, err := runner.Send(ctx, agent.Request{Text: "Echo hi"}, func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch d := e.Data.(type) {
		case event.ToolCallData:
			calls = append(calls, d)
		case event.ToolResultData:
			results = append(results, d)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != event.StatusOK || res.Final != testmodel.ChatReply {
		t.Fatalf("run %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 1 || calls[0].Name != "mcp_e_echo" || len(results) != 1 || !results[0].OK || results[0].Content != "echo: hi" {
		t.Fatalf("calls %+v results %+v", calls, results)
	}
}
