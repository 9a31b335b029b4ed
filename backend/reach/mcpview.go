package reach

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"time"

	"hearth/backend/config"
	"hearth/backend/mcp"
)

// The window's shapes for MCP servers. mcp.Status and mcp.TestResult hold SDK
// types (and a package named like the SDK's) that the binding generator
// cannot name cleanly, so the window gets these plain copies instead.

// MCPServerView is one configured MCP server as the MCP view lists it.
type MCPServerView struct {
	Name string `json:"name"`
	// Config is the entry as config.json holds it (what the editor edits).
	Config    config.MCPServer `json:"config"`
	Transport string           `json:"transport"`
	Connected bool             `json:"connected"`
	// Tools counts the offered tools, resources and prompts.
	Tools     int      `json:"tools"`
	ToolNames []string `json:"toolNames"`
	LastError string   `json:"lastError"`
	// Since is when the server connected or last changed state (RFC 3339, or "").
	Since         string `json:"since"`
	ServerName    string `json:"serverName"`
	ServerVersion string `json:"serverVersion"`
}

// MCPTestView is what a connection test found.
type MCPTestView struct {
	Transport     string   `json:"transport"`
	ServerName    string   `json:"serverName"`
	ServerVersion string   `json:"serverVersion"`
	Tools         []string `json:"tools"`
	DurationMs    int64    `json:"durationMs"`
}

// MCPServerViews lists every configured MCP server with its live state.
func (r *Service) MCPServerViews() []MCPServerView {
	list := r.ListMCPServers()
	saved := maps.Clone(r.settings.Config().Tools.MCPServers)
	file := r.settings.Paths().ConfigFile
	// A loaded config holds ${VAR} references expanded; the window edits the entry
	// as the file has it, so a secret kept in the environment is not shown.
	for name, raw := range asWritten(file) {
		if c, ok := saved[name]; ok && reflect.DeepEqual(expandServer(raw, r.settings.Getenv), expandServer(c, r.settings.Getenv)) {
			saved[name] = raw
		}
	}
	out := make([]MCPServerView, 0, len(list))
	for _, st := range list {
		v := MCPServerView{Name: st.Name, Config: st.Config, Transport: st.Transport, Connected: st.Connected,
			Tools: st.Tools, ToolNames: st.ToolNames, LastError: st.LastError}
		if c, ok := saved[st.Name]; ok {
			v.Config = c
		}
		if v.ToolNames == nil {
			v.ToolNames = []string{}
		}
		if !st.Since.IsZero() {
			v.Since = st.Since.UTC().Format(time.RFC3339)
		}
		if st.Server != nil {
			v.ServerName, v.ServerVersion = st.Server.Name, st.Server.Version
		}
		out = append(out, v)
	}
	return out
}

// asWritten reads tools.mcpServers from the config file without expanding
// anything; an unreadable file gives nothing (the loaded entries are shown).
func asWritten(path string) map[string]config.MCPServer {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var f struct {
		Tools struct {
			MCPServers map[string]config.MCPServer `json:"mcpServers"`
		} `json:"tools"`
	}
	if json.Unmarshal(data, &f) != nil {
		return nil
	}
	return f.Tools.MCPServers
}

// TestMCPServerView tests a configured server's connection (TestMCPServer)
// and reports what it offers.
func (r *Service) TestMCPServerView(ctx context.Context, name string) (MCPTestView, error) {
	res, err := r.TestMCPServer(ctx, name)
	if err != nil {
		return MCPTestView{}, err
	}
	return testView(res), nil
}

// TestMCPDraft tests a server entry that is not saved yet (the editor's
// Test button): the same check and connection as a saved one, nothing written.
func (r *Service) TestMCPDraft(ctx context.Context, name string, c config.MCPServer) (MCPTestView, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := mcp.CheckServer(name, c); err != nil {
		return MCPTestView{}, fmt.Errorf("test MCP server: %w", err)
	}
	m, _ := r.manager()
	res, err := m.Test(ctx, name, expandServer(c, r.settings.Getenv))
	if err != nil {
		return MCPTestView{}, err
	}
	return testView(res), nil
}

func testView(r mcp.TestResult) MCPTestView {
	v := MCPTestView{Transport: r.Transport, Tools: r.Tools, DurationMs: r.Duration.Milliseconds()}
	if v.Tools == nil {
		v.Tools = []string{}
	}
	if r.Server != nil {
		v.ServerName, v.ServerVersion = r.Server.Name, r.Server.Version
	}
	return v
}
