package core

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"

	"hearth/backend/config"
	"hearth/backend/mcp"
	"hearth/backend/tools"
)

// startMCP builds the MCP manager over the main and the subagents'
// registries and starts connecting in the background: this runs when the
// agent is first used, never at startup, and never waits for a server.
func (s *Service) startMCP(p *agentParts, cfg *config.Config) {
	servers := map[string]config.MCPServer{}
	for name, c := range cfg.Tools.MCPServers {
		servers[name] = expandServer(c, s.settings.Getenv)
	}
	regs := []*tools.Registry{p.registry}
	if p.reach.subRegistry != nil {
		regs = append(regs, p.reach.subRegistry)
	}
	p.reach.mcp = mcp.New(mcp.Options{Servers: servers, Registries: regs, Getenv: s.settings.Getenv,
		Dir: s.settings.Paths().Workspace, Version: s.settings.Version()})
	p.reach.mcp.Start()
}

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

// ListMCPServers reports every configured MCP server: transport, whether it
// is connected, how many tools it offers and its last error (Settings).
func (s *Service) ListMCPServers() ([]mcp.Status, error) {
	p, err := s.agent()
	if err != nil {
		return nil, err
	}
	return p.reach.mcp.Statuses(), nil
}

// SaveMCPServer adds or replaces a server in tools.mcpServers, saves the
// config and (re)connects it in the background.
func (s *Service) SaveMCPServer(name string, c config.MCPServer) error {
	return s.saveMCPServers(map[string]config.MCPServer{name: c})
}

func (s *Service) saveMCPServers(servers map[string]config.MCPServer) error {
	for name, c := range servers {
		if err := mcp.CheckServer(name, c); err != nil {
			return fmt.Errorf("save MCP server: %w", err)
		}
	}
	p, err := s.agent()
	if err != nil {
		return err
	}
	err = s.settings.Update(func(c *config.Config) error {
		for name, sc := range servers {
			c.Tools.MCPServers[name] = sc
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save MCP server: %w", err)
	}
	for name, c := range servers {
		p.reach.mcp.Set(name, expandServer(c, s.settings.Getenv))
	}
	return nil
}

// RemoveMCPServer deletes a server from the config and withdraws its tools.
func (s *Service) RemoveMCPServer(name string) error {
	p, err := s.agent()
	if err != nil {
		return err
	}
	if _, ok := s.Config().Tools.MCPServers[name]; !ok {
		return fmt.Errorf("remove MCP server: no server named %q", name)
	}
	if err := s.settings.Update(func(c *config.Config) error { delete(c.Tools.MCPServers, name); return nil }); err != nil {
		return fmt.Errorf("remove MCP server: %w", err)
	}
	p.reach.mcp.Remove(name)
	return nil
}

// ImportClaudeDesktop adds the servers of a pasted Claude Desktop
// "mcpServers" block (existing ones of the same name are replaced) and
// returns their names.
func (s *Service) ImportClaudeDesktop(jsonBlock string) ([]string, error) {
	servers, err := mcp.ParseClaudeDesktop(jsonBlock)
	if err != nil {
		return nil, err
	}
	if err := s.saveMCPServers(servers); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

// TestMCPServer connects to a configured server once, apart from the live
// connection, and lists the tools it would offer.
func (s *Service) TestMCPServer(ctx context.Context, name string) (mcp.TestResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	p, err := s.agent()
	if err != nil {
		return mcp.TestResult{}, err
	}
	c, ok := s.Config().Tools.MCPServers[name]
	if !ok {
		return mcp.TestResult{}, errors.New("test MCP server: no server named " + fmt.Sprintf("%q", name))
	}
	return p.reach.mcp.Test(ctx, name, expandServer(c, s.settings.Getenv))
}
