package app

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/backend/config"
	"hearth/backend/reach"
)

// The window's views of MCP servers: a connected server shows its tools and
// server name, a broken one its error; the config shown is the one saved
// (a ${VAR} reference stays as written); a test lists the tools.
func TestMCPServerViews(t *testing.T) {
	url := echoServer(t)
	svc, _ := chatService(t, `{"tools": {"mcpServers": {"e": {"url": "`+url+`", "toolTimeout": 5,
		"headers": {"Authorization": "Bearer ${HEARTH_TEST_MCP_TOKEN}"}},
		"broken": {"command": "/nonexistent/hearth-mcp-server"}}}}`)
	waitMCP(t, svc, "e")
	if err := svc.Reach.SaveMCPServer("ref", config.MCPServer{URL: "http://127.0.0.1:9/${HEARTH_TEST_MCP_PATH}"}); err != nil {
		t.Fatal(err)
	}
	var views []reach.MCPServerView
	deadline := time.Now().Add(10 * time.Second)
	for {
		if views = svc.Reach.MCPServerViews(); len(views) == 3 && views[0].LastError != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("views %+v", views)
		}
		time.Sleep(20 * time.Millisecond)
	}
	names := []string{views[0].Name, views[1].Name, views[2].Name}
	if !slices.Equal(names, []string{"broken", "e", "ref"}) {
		t.Fatalf("names %v, want sorted", names)
	}
	b, e, r := views[0], views[1], views[2]
	if b.Connected || !strings.Contains(b.LastError, "hearth-mcp-server") || b.Transport != "stdio" {
		t.Errorf("broken server: %+v", b)
	}
	if !e.Connected || e.Tools != 1 || !slices.Equal(e.ToolNames, []string{"mcp_e_echo"}) ||
		e.ServerName != "echo" || e.Config.ToolTimeout != 5 || e.Since == "" || e.LastError != "" {
		t.Errorf("connected server: %+v", e)
	}
	if got := e.Config.Headers["Authorization"]; got != "Bearer ${HEARTH_TEST_MCP_TOKEN}" {
		t.Errorf("a loaded entry shows %q, want the reference as the file has it", got)
	}
	if r.Config.URL != "http://127.0.0.1:9/${HEARTH_TEST_MCP_PATH}" {
		t.Errorf("saved config shown as %q, want the reference as written", r.Config.URL)
	}

	res, err := svc.Reach.TestMCPServerView(context.Background(), "e")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Tools, []string{"mcp_e_echo"}) || res.ServerName != "echo" || res.Transport != "streamableHttp" {
		t.Errorf("test result %+v", res)
	}
	if _, err := svc.Reach.TestMCPServerView(context.Background(), "broken"); err == nil ||
		!strings.Contains(err.Error(), "broken") {
		t.Errorf("testing a broken server: %v", err)
	}

	// A draft is tested without being saved; a bad one says what is wrong.
	res, err = svc.Reach.TestMCPDraft(context.Background(), "draft", config.MCPServer{URL: url})
	if err != nil || !slices.Equal(res.Tools, []string{"mcp_draft_echo"}) {
		t.Errorf("draft test: %+v, %v", res, err)
	}
	if _, err := svc.Reach.TestMCPDraft(context.Background(), "draft", config.MCPServer{URL: "ftp://x"}); err == nil ||
		!strings.Contains(err.Error(), "not http(s)") {
		t.Errorf("bad draft: %v", err)
	}
	if views := svc.Reach.MCPServerViews(); len(views) != 3 {
		t.Errorf("testing a draft changed the servers: %+v", views)
	}
}
