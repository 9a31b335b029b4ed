package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hearth/backend/chat"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
)

// gatedEchoServer is echoServer behind a gate: every request is counted and
// then held until release is called (as a server still starting up).
func gatedEchoServer(t *testing.T, hits *atomic.Int32) (url string, release func()) {
	t.Helper()
	gate := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(gate) }) }
	srv := sdk.NewServer(&sdk.Implementation{Name: "echo", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *sdk.CallToolRequest, a in) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + a.Text}}}, nil, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { release(); ts.CloseClientConnections(); ts.Close() })
	return ts.URL + "/mcp", release
}

func toolNames(t *testing.T, req fakeollama.ChatRequest) []string {
	t.Helper()
	var out []string
	for _, raw := range req.Tools {
		var d struct {
			Function struct{ Name string } `json:"function"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d.Function.Name)
	}
	return out
}

// The desktop connects MCP servers as it starts, before any message; the
// first message sent right after start waits for a server still starting
// (saying so in the chat) and its first model request offers the server's
// tools.
func TestDesktopFirstMessageOffersMCPTools(t *testing.T) {
	var hits atomic.Int32
	url, release := gatedEchoServer(t, &hits)
	svc, fake := chatService(t, `{"tools": {"mcpServers": {"notes": {"url": "`+url+`"}}}}`, fakeollama.Reply{Content: "hi"})
	var out emitted
	d := newDesk(svc, out.emit)
	// Start (chatService starts the app, as the window does when it opens) alone
	// reaches the server: nothing else has been asked of Hearth.
	deadline := time.Now().Add(10 * time.Second)
	for hits.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("Start did not connect the MCP server")
		}
		time.Sleep(10 * time.Millisecond)
	}

	id, err := d.Send(chat.Input{Text: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	ch := event.RunChannel(id)
	d.Attach(ch)
	// The server answers once the run has said it waits for it.
	var notices []string
	for done := false; !done; {
		if time.Now().After(deadline.Add(10 * time.Second)) {
			t.Fatalf("no run_finished; events %v", out.on(ch))
		}
		notices = notices[:0]
		for _, e := range out.on(ch) {
			ev := e.(event.Event)
			if n, ok := ev.Data.(event.NoticeData); ok {
				notices = append(notices, n.Message)
				if strings.Contains(n.Message, "Waiting for MCP server notes") {
					release()
				}
			}
			done = done || ev.Type == event.RunFinished
		}
		time.Sleep(10 * time.Millisecond)
	}
	reqs := fake.ChatRequests()
	if len(reqs) == 0 || !slices.Contains(toolNames(t, reqs[0]), "mcp_notes_echo") {
		t.Fatalf("the first request lacks the MCP tool (notices %q)", notices)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "(up to 5 s)") {
		t.Errorf("notices %q", notices)
	}
}
