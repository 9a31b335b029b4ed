package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hearth/backend/agent"
	"hearth/backend/internal/fakeollama"
)

// A resource template reaches the model as a tool with the template's
// variables; a call asks for approval in risky mode like any MCP tool, then
// reads the expanded URI.
func TestMCPResourceTemplateThroughService(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "logs", Version: "1"}, nil)
	srv.AddResourceTemplate(&sdk.ResourceTemplate{Name: "day", URITemplate: "file:///logs/{date}.log", Description: "The log of one day."},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, Text: "log of " + req.Params.URI}}}, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })

	args, _ := json.Marshal(map[string]string{"date": "2026-11-23"})
	svc, fake := chatService(t, `{"tools": {"mcpServers": {"l": {"url": "`+ts.URL+`/mcp"}}}}`,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "mcp_l_day", Arguments: args}}}, fakeollama.Reply{Content: "done"})
	if st := waitMCP(t, svc, "l"); !slices.Equal(st.ToolNames, []string{"mcp_l_day"}) {
		t.Fatalf("status %+v", st)
	}
	if got := sendApprovingOnce(t, svc, agent.Request{SessionID: "t", Text: "today's log"}); !slices.Equal(got, []string{"log of file:///logs/2026-11-23.log"}) {
		t.Errorf("tool results %q", got)
	}
	req := fake.ChatRequests()[0]
	var last struct {
		Function struct {
			Name, Description string
			Parameters        json.RawMessage
		} `json:"function"`
	}
	_ = json.Unmarshal(req.Tools[len(req.Tools)-1], &last)
	var params struct {
		Type       string
		Required   []string
		Properties map[string]struct{ Type string }
	}
	_ = json.Unmarshal(last.Function.Parameters, &params)
	if last.Function.Name != "mcp_l_day" || last.Function.Description != "Read resource file:///logs/{date}.log. The log of one day." ||
		params.Type != "object" || !slices.Equal(params.Required, []string{"date"}) || len(params.Properties) != 1 || params.Properties["date"].Type != "string" {
		t.Errorf("offered %s — %s — %s", last.Function.Name, last.Function.Description, last.Function.Parameters)
	}
}
