package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/backend/approval"
	"hearth/backend/event"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hearth/backend/agent"
	"hearth/backend/config"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/mcp"
)

// echoServer is a streamable-HTTP MCP server with one tool, echo; it
// returns the endpoint URL.
func echoServer(t *testing.T) string {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "echo", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	sdk.AddTool(srv, &sdk.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *sdk.CallToolRequest, a in) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + a.Text}}}, nil, nil
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	return ts.URL + "/mcp"
}

func waitMCP(t *testing.T, svc *App, name string) mcp.Status {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		list := svc.Reach.ListMCPServers()
		for _, st := range list {
			if st.Name == name && st.Connected {
				return st
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("MCP server %s did not connect: %+v", name, list)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An MCP server from config.json is connected in the background when the
// agent is first used, and the model can call its tool; the Settings API
// saves, imports, tests and removes servers.
func TestMCPThroughService(t *testing.T) {
	url := echoServer(t)
	args, _ := json.Marshal(map[string]string{"text": "hi"})
	svc, fake := chatService(t, `{"tools": {"mcpServers": {"e": {"url": "`+url+`"}}}}`,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "mcp_e_echo", Arguments: args}}}, fakeollama.Reply{Content: "done"})
	st := waitMCP(t, svc, "e")
	if st.Tools != 1 || st.Transport != mcp.TransportStreamable || st.LastError != "" {
		t.Errorf("status %+v", st)
	}
	// MCP tools ask first in the default (risky) approval mode.
	if got := sendApprovingOnce(t, svc, agent.Request{SessionID: "m", Text: "echo hi"}); !slices.Equal(got, []string{"echo: hi"}) {
		t.Errorf("tool results %q", got)
	}
	req := fake.ChatRequests()[0]
	var last struct {
		Function struct{ Name string } `json:"function"`
	}
	_ = json.Unmarshal(req.Tools[len(req.Tools)-1], &last)
	if last.Function.Name != "mcp_e_echo" {
		t.Errorf("MCP tool not offered last: %s", last.Function.Name)
	}

	// Settings: save a second server, import a Claude Desktop block, test, remove.
	if err := svc.Reach.SaveMCPServer("bad", config.MCPServer{}); err == nil || !strings.Contains(err.Error(), `give "command"`) {
		t.Errorf("bad server: %v", err)
	}
	if err := svc.Reach.SaveMCPServer("f", config.MCPServer{URL: url, ToolTimeout: 5}); err != nil {
		t.Fatal(err)
	}
	waitMCP(t, svc, "f")
	names, err := svc.Reach.ImportClaudeDesktop(`{"mcpServers": {"g": {"url": "` + url + `"}}, "globalShortcut": ""}`)
	if err != nil || !slices.Equal(names, []string{"g"}) {
		t.Fatalf("import %v %v", names, err)
	}
	res, err := svc.Reach.TestMCPServer(context.Background(), "g")
	if err != nil || !slices.Equal(res.Tools, []string{"mcp_g_echo"}) {
		t.Errorf("test %+v %v", res, err)
	}
	data, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
	for _, want := range []string{`"f"`, `"g"`, `"toolTimeout": 5`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("config file lacks %s:\n%s", want, data)
		}
	}
	if err := svc.Reach.RemoveMCPServer("g"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Reach.RemoveMCPServer("g"); err == nil {
		t.Error("removing twice worked")
	}
	list := svc.Reach.ListMCPServers()
	var have []string
	for _, s := range list {
		have = append(have, s.Name)
	}
	if !slices.Equal(have, []string{"e", "f"}) {
		t.Errorf("servers %v", have)
	}
	if _, err := svc.Reach.TestMCPServer(context.Background(), "nope"); err == nil {
		t.Error("test of an unknown server worked")
	}
}

// A server that cannot start leaves chat working; its status says why.
func TestMCPBrokenServerKeepsChat(t *testing.T) {
	svc, _ := chatService(t, `{"tools": {"mcpServers": {"x": {"command": "/nonexistent/mcp-server"}}}}`, fakeollama.Reply{Content: "hi"})
	var ev events
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "b", Text: "hello"}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("run %+v", res)
	}
	// A server that cannot start is known to have failed at once: the run must not
	// have sat out the ready bound for it (however slow the machine is).
	ev.mu.Lock()
	for _, e := range ev.evs {
		if n, ok := e.Data.(event.NoticeData); ok && strings.Contains(n.Message, "did not connect within") {
			t.Errorf("the run waited out the bound for a server that failed: %q", n.Message)
		}
	}
	ev.mu.Unlock()
	deadline := time.Now().Add(5 * time.Second)
	for {
		list := svc.Reach.ListMCPServers()
		if len(list) == 1 && strings.Contains(list[0].LastError, "no such file") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status %+v", list)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sendApprovingOnce sends req, allows its one tool call once from the approval event (as
// the window would; failing if none is asked for), waits for a "done" answer and returns
// the tool results.
func sendApprovingOnce(t *testing.T, svc *App, req agent.Request) []string {
	t.Helper()
	var ev events
	asked := make(chan [2]string, 1)
	sink := func(e event.Event) {
		ev.sink(e)
		if d, ok := e.Data.(event.ApprovalData); ok && d.State == "requested" {
			asked <- [2]string{e.RunID, d.CallID}
		}
	}
	run, err := svc.Chat.Start(context.Background(), req, sink)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-asked:
		if err := svc.Guard.Gate.Approve(a[0], a[1], approval.Once); err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the MCP tool call did not ask for approval in risky mode")
	}
	if res := run.Wait(); res.Status != event.StatusOK || res.Final != "done" {
		t.Fatalf("run %+v", res)
	}
	var got []string
	for _, e := range ev.evs {
		if d, ok := e.Data.(event.ToolResultData); ok {
			got = append(got, d.Content)
		}
	}
	return got
}
