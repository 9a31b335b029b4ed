package reach

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/mcp"
	"hearth/backend/tools"
)

var varRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expandServer resolves ${VAR} in a server entry saved from the UI (a loaded
// config is already expanded; a saved one keeps the reference as written).
func expandServer(c config.MCPServer, getenv func(string) string) config.MCPServer {
	ex := func(v string) string {
		return varRef.ReplaceAllStringFunc(v, func(m string) string { return getenv(m[2 : len(m)-1]) })
	}
	out := c
	out.Command, out.URL = ex(c.Command), ex(c.URL)
	out.Args = make([]string, len(c.Args))
	for i, a := range c.Args {
		out.Args[i] = ex(a)
	}
	expandMap := func(m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		r := make(map[string]string, len(m))
		for k, v := range m {
			r[k] = ex(v)
		}
		return r
	}
	out.Env, out.Headers = expandMap(c.Env), expandMap(c.Headers)
	return out
}

// manager is the running MCP manager, or one that only tests connections when the
// servers were not started (the CLI's `hearth mcp test`).
func (r *Service) manager() (m *mcp.Manager, started bool) {
	r.mu.Lock()
	m = r.mcp
	r.mu.Unlock()
	if m != nil {
		return m, true
	}
	return mcp.New(r.mcpOptions(nil, nil)), false
}

// mcpOptions are the MCP manager's settings: servers sandboxed as configured, HTTP
// through the egress guard (local-only mode, the egress log).
func (r *Service) mcpOptions(servers map[string]config.MCPServer, regs []*tools.Registry) mcp.Options {
	o := r.opts.MCP
	o.Servers, o.Registries, o.Getenv = servers, regs, r.settings.Getenv
	o.Dir, o.Version, o.Policy = r.settings.Paths().Workspace, r.settings.Version(), r.settings.SandboxPolicy()
	o.News = r.news
	return o
}

// ListMCPServers reports every configured MCP server: transport, whether it is
// connected, how many tools it offers and its last error (Settings). Before Start
// none is connected.
func (r *Service) ListMCPServers() []mcp.Status {
	var out []mcp.Status
	if m, started := r.manager(); started {
		out = m.Statuses()
	} else {
		cfg := r.settings.Config()
		out = make([]mcp.Status, 0, len(cfg.Tools.MCPServers))
		for _, name := range slices.Sorted(maps.Keys(cfg.Tools.MCPServers)) {
			c := cfg.Tools.MCPServers[name]
			out = append(out, mcp.Status{Name: name, Config: c, Transport: mcp.TransportOf(c)})
		}
	}
	// Printed (`hearth mcp list --json`) and logged: every header value and the
	// secrets among the env values are masked (the Settings view edits the
	// entries as written instead, see MCPServerViews).
	mask := r.opts.Mask
	for i := range out {
		c := &out[i].Config
		c.Env, c.Headers = maskValues(c.Env, mask, false), maskValues(c.Headers, mask, true)
		c.Args = slices.Clone(c.Args)
		for j, a := range c.Args {
			c.Args[j] = mask(a)
		}
		out[i].LastError = mask(out[i].LastError)
	}
	return out
}

// maskValues copies m with its values masked; all replaces every value.
func maskValues(m map[string]string, mask func(string) string, all bool) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if all && v != "" {
			v = "[redacted]"
		}
		out[k] = mask(v)
	}
	return out
}

// SaveMCPServer adds or replaces a server in tools.mcpServers, saves the config and
// (re)connects it in the background.
func (r *Service) SaveMCPServer(name string, c config.MCPServer) error {
	return r.saveMCPServers(map[string]config.MCPServer{name: c})
}

func (r *Service) saveMCPServers(servers map[string]config.MCPServer) error {
	for name, c := range servers {
		if err := mcp.CheckServer(name, c); err != nil {
			return fmt.Errorf("save MCP server: %w", err)
		}
	}
	err := r.settings.Update(func(c *config.Config) error {
		maps.Copy(c.Tools.MCPServers, servers)
		return nil
	})
	if err != nil {
		return fmt.Errorf("save MCP server: %w", err)
	}
	if m, started := r.manager(); started {
		for name, c := range servers {
			m.Set(name, expandServer(c, r.settings.Getenv))
		}
	}
	return nil
}

// RemoveMCPServer deletes a server from the config and withdraws its tools.
func (r *Service) RemoveMCPServer(name string) error {
	if _, ok := r.settings.Config().Tools.MCPServers[name]; !ok {
		return fmt.Errorf("remove MCP server: no server named %q", name)
	}
	if err := r.settings.Update(func(c *config.Config) error { delete(c.Tools.MCPServers, name); return nil }); err != nil {
		return fmt.Errorf("remove MCP server: %w", err)
	}
	if m, started := r.manager(); started {
		m.Remove(name)
	}
	return nil
}

// ImportClaudeDesktop adds the servers of a pasted Claude Desktop "mcpServers" block
// (existing ones of the same name are replaced) and returns their names.
func (r *Service) ImportClaudeDesktop(jsonBlock string) ([]string, error) {
	servers, err := mcp.ParseClaudeDesktop(jsonBlock)
	if err != nil {
		return nil, err
	}
	if err := r.saveMCPServers(servers); err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(servers)), nil
}

// TestMCPServer connects to a configured server once, apart from the live
// connection, and lists the tools it would offer.
func (r *Service) TestMCPServer(ctx context.Context, name string) (mcp.TestResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	c, ok := r.settings.Config().Tools.MCPServers[name]
	if !ok {
		return mcp.TestResult{}, errors.New("test MCP server: no server named " + fmt.Sprintf("%q", name))
	}
	m, _ := r.manager()
	return m.Test(ctx, name, expandServer(c, r.settings.Getenv))
}

// WaitReady is the runs' wait for tools: before a run's first model request it
// waits, at most mcp.ReadyWait, for the servers still connecting, and says so in the
// chat when that takes a moment; it tells which were left behind or failed.
func (r *Service) WaitReady(ctx context.Context, notice func(level string, m i18n.Message)) {
	r.mu.Lock()
	m := r.mcp
	r.mu.Unlock()
	if m == nil {
		return
	}
	bound := seconds(mcp.ReadyWait)
	rep := m.WaitReady(ctx, func(names []string) {
		code := "notice.mcp.waiting"
		if len(names) > 1 {
			code = "notice.mcp.waitingMany"
		}
		notice(event.LevelInfo, i18n.M(code, "names", strings.Join(names, ", "), "seconds", bound))
	})
	for _, name := range rep.Late {
		notice(event.LevelWarning, i18n.M("notice.mcp.late", "name", name, "seconds", bound))
	}
	for _, name := range rep.Waited {
		if why, failed := rep.Failed[name]; failed {
			notice(event.LevelWarning, i18n.M("notice.mcp.failed", "name", name, "error", why))
		}
	}
}

// seconds writes d as people read it in a notice: "5", "1.5" (the catalog adds the unit).
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}
