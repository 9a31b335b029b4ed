package reach

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/adrg/xdg"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hearth/backend/config"
	"hearth/backend/egress"
	"hearth/backend/i18n"
	"hearth/backend/mcp"
	"hearth/backend/settings"
	"hearth/backend/tools"
	"hearth/backend/web"
)

func openSettings(t *testing.T) *settings.Service {
	t.Helper()
	root := t.TempDir()
	t.Cleanup(xdg.Reload) // before the variables are set: it runs after t.Setenv puts them back
	for k, v := range map[string]string{"HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data", "XDG_STATE_HOME": "state"} {
		t.Setenv(k, filepath.Join(root, v))
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	xdg.Reload()
	return settings.Open(settings.Options{Getenv: func(string) string { return "" }})
}

// newReach is the service as the composition root builds it: the web tools and MCP
// over HTTP through an egress guard that follows local-only mode.
func newReach(s *settings.Service) *Service {
	g := egress.New(egress.Options{LocalOnly: func() bool { return s.Config().LocalOnly }})
	return New(s, Options{Web: web.Options{Egress: g}, MCP: mcp.Options{HTTPTransport: g.Transport("MCP server")}})
}

// echoServer is a streamable-HTTP MCP server with one tool, echo; it returns the URL.
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

// Building the service connects nothing; Start connects in the background and
// registers the tools; Close withdraws them.
func TestStartConnectsAndCloseEnds(t *testing.T) {
	s := openSettings(t)
	url := echoServer(t)
	if err := s.Update(func(c *config.Config) error { c.Tools.MCPServers["e"] = config.MCPServer{URL: url}; return nil }); err != nil {
		t.Fatal(err)
	}
	r := newReach(s)
	if list := r.ListMCPServers(); len(list) != 1 || list[0].Connected || list[0].Transport == "" {
		t.Fatalf("before Start: %+v", list)
	}
	reg := tools.NewRegistry(tools.RegistryOptions{})
	r.Start(t.Context(), reg)
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, ok := reg.Get("mcp_e_echo"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("echo not registered: %v", reg.Names())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if views := r.MCPServerViews(); len(views) != 1 || !views[0].Connected || views[0].ServerName != "echo" {
		t.Errorf("views %+v", views)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := reg.Get("mcp_e_echo"); ok {
		t.Error("Close left the MCP tool registered")
	}
	if list := r.ListMCPServers(); len(list) != 1 || list[0].Connected {
		t.Errorf("after Close: %+v", list)
	}
}

// An import refused for a misspelled key saves nothing: the server it would have
// replaced keeps its entry and the block's other servers are not added.
func TestImportRefusedKeepsServers(t *testing.T) {
	s := openSettings(t)
	if err := s.Update(func(c *config.Config) error {
		c.Tools.MCPServers["fs"] = config.MCPServer{Command: "npx", Args: []string{"-y", "srv"}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	r := newReach(s)
	names, err := r.ImportClaudeDesktop(`{"mcpServers": {"fs": {"command": "npx", "Command": "rm"}, "git": {"command": "uvx"}}}`)
	if err == nil || !strings.Contains(err.Error(), `"Command" should be spelled "command"`) {
		t.Fatalf("import: %v %v", names, err)
	}
	got := s.Config().Tools.MCPServers
	if len(got) != 1 || got["fs"].Command != "npx" || len(got["fs"].Args) != 2 {
		t.Errorf("after the refused import: %+v", got)
	}
	if names, err := r.ImportClaudeDesktop(`{"mcpServers": {"git": {"command": "uvx"}}}`); err != nil || len(names) != 1 {
		t.Fatalf("good import: %v %v", names, err)
	}
	if got := s.Config().Tools.MCPServers; len(got) != 2 || got["fs"].Command != "npx" || got["git"].Command != "uvx" {
		t.Errorf("after the good import: %+v", got)
	}
}

// The editor's Save and Test and the import are refused with the catalog's codes, so the
// window says why in its language; the English keeps its context for the log.
func TestMCPRefusalsCarryCodes(t *testing.T) {
	r := newReach(openSettings(t))
	type coded interface{ UserMessage() i18n.Message }
	var c coded
	err := r.SaveMCPServer("fs", config.MCPServer{URL: "ftp://h"})
	if err == nil || err.Error() != `save MCP server: fs: url "ftp://h" is not http(s)` || !errors.As(err, &c) ||
		c.UserMessage().Code != "mcp.server.badURL" || c.UserMessage().Args["name"] != "fs" {
		t.Errorf("save: %v", err)
	}
	_, err = r.TestMCPDraft(context.Background(), "fs", config.MCPServer{})
	if err == nil || !strings.HasPrefix(err.Error(), "test MCP server: fs: give") || !errors.As(err, &c) || c.UserMessage().Code != "mcp.server.noTarget" {
		t.Errorf("test draft: %v", err)
	}
	_, err = r.ImportClaudeDesktop(`{"mcpServers": {"fs": {"command": "npx", "command": "rm"}}}`)
	if err == nil || !errors.As(err, &c) || c.UserMessage().Code != "mcp.key.twiceIn" {
		t.Errorf("import: %v", err)
	}
	if got := r.settings.Config().Tools.MCPServers; len(got) != 0 {
		t.Errorf("saved after refusals: %+v", got)
	}
}
