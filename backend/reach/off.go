package reach

import (
	"net/url"
	"strings"

	"hearth/backend/i18n"
	"hearth/backend/mcp"
)

// ToolOff says why a tool missing from the chat was turned off by a setting, for a model
// that calls it anyway (from habit, or an earlier turn that had it): local-only mode
// leaves out the web tools and the tools of MCP servers it cannot reach (over the
// network, not on this machine); tools.web.offline leaves out the web tools. The
// message names the setting that turns the tool back on. A name no setting explains is
// not off (the model gets "unknown tool").
func (r *Service) ToolOff(name string) (i18n.Message, bool) {
	cfg := r.settings.Config()
	if name == "web_search" || name == "web_fetch" {
		switch {
		case cfg.LocalOnly:
			return i18n.M("tool.off.localOnly", "tool", name), true
		case cfg.Tools.Web.Offline:
			return i18n.M("tool.off.webOffline", "tool", name), true
		}
		return i18n.Message{}, false
	}
	if !cfg.LocalOnly || !strings.HasPrefix(name, "mcp_") {
		return i18n.Message{}, false
	}
	guard := r.opts.Web.Egress
	for server, c := range cfg.Tools.MCPServers {
		if mcp.TransportOf(c) == mcp.TransportStdio || !strings.HasPrefix(name, mcp.ToolName(server, "")) {
			continue
		}
		if u, err := url.Parse(c.URL); err == nil && u.Host != "" && guard.Allows(u.Host) {
			continue // on this machine: local-only mode lets it through
		}
		return i18n.M("tool.off.localOnlyMcp", "tool", name, "server", server), true
	}
	return i18n.Message{}, false
}
