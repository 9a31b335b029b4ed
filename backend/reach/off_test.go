package reach

import (
	"testing"

	"hearth/backend/config"
)

// A tool a setting left out is named with that setting; one on this machine, or a name
// no setting explains, is not "off".
func TestToolOffNamesTheSetting(t *testing.T) {
	s := openSettings(t)
	r := newReach(s)
	if _, off := r.ToolOff("web_fetch"); off {
		t.Error("web_fetch off with every setting at its default")
	}
	if err := s.Update(func(c *config.Config) error {
		c.LocalOnly = true
		c.Tools.MCPServers["remote docs"] = config.MCPServer{URL: "https://docs.example.com/mcp"}
		c.Tools.MCPServers["near"] = config.MCPServer{URL: "http://127.0.0.1:8931/mcp"}
		c.Tools.MCPServers["files"] = config.MCPServer{Command: "mcp-files"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"web_fetch":              "tool.off.localOnly",
		"web_search":             "tool.off.localOnly",
		"mcp_remote_docs_search": "tool.off.localOnlyMcp",
		"mcp_near_lookup":        "",
		"mcp_files_read":         "",
		"web_browse":             "",
	} {
		why, off := r.ToolOff(name)
		if off != (want != "") || why.Code != want {
			t.Errorf("%q: off %v, code %q; want %q", name, off, why.Code, want)
		}
	}
	if why, _ := r.ToolOff("mcp_remote_docs_search"); why.Args["server"] != "remote docs" ||
		why.String() != "mcp_remote_docs_search is off in local-only mode: it comes from the MCP server remote docs, which is not on this machine. Turn local-only mode off in Settings › Tools & approvals to use it." {
		t.Errorf("message %q %v", why.String(), why.Args)
	}
	if err := s.Update(func(c *config.Config) error { c.LocalOnly = false; c.Tools.Web.Offline = true; return nil }); err != nil {
		t.Fatal(err)
	}
	if why, off := r.ToolOff("web_search"); !off || why.Code != "tool.off.webOffline" {
		t.Errorf("web off: %v %q", off, why.Code)
	}
	if _, off := r.ToolOff("mcp_remote_docs_search"); off {
		t.Error("an MCP tool off outside local-only mode")
	}
}
