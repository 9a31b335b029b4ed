package core

import (
	"os"

	"context"
	"errors"
	"fmt"
	"hearth/backend/sandbox"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"hearth/backend/agent"
	"hearth/backend/config"
	"hearth/backend/mcp"
	"hearth/backend/tools"
)

// startMCP builds the MCP manager over the main and the subagents'
// registries and starts connecting in the background. It runs when the agent
// is built: at start in the desktop app (ConnectMCP), on first use in the
// CLI. It never waits for a server; runs do, bounded (waitMCP).
func (s *Service) startMCP(p *agentParts, cfg *config.Config) {
	servers := map[string]config.MCPServer{}
	for name, c := range cfg.Tools.MCPServers {
		servers[name] = expandServer(c, s.getenv)
	}
	regs := []*tools.Registry{p.registry}
	if p.reach.subRegistry != nil {
		regs = append(regs, p.reach.subRegistry)
	}
	p.reach.mcp = mcp.New(mcp.Options{Servers: servers, Registries: regs, Getenv: s.getenv,
		Dir: s.paths.Workspace, Version: s.version, Sandbox: s.sandbox, Policy: sandbox.Policy{
			Writable: append([]string{s.paths.Workspace, os.TempDir()}, cfg.Tools.AllowedPaths...),
			Hidden:   hearthDirs(s.paths), Network: cfg.Tools.Exec.Network,
		}})
	p.reach.mcp.Start()
}

// ConnectMCP starts connecting the configured MCP servers in the background
// (it builds the agent if that is not built yet) and returns without waiting
// for them. The desktop calls it as it opens, so that the servers are ready
// by the first message instead of starting with it.
func (s *Service) ConnectMCP() error {
	_, err := s.agent()
	return err
}

// waitMCP is the runner's WaitTools: before a run's first model request it
// waits, at most mcp.ReadyWait, for the servers still connecting, and says
// so in the chat when that takes a moment.
func (r *reachParts) waitMCP(ctx context.Context, notice func(level, msg string)) {
	if r == nil || r.mcp == nil {
		return
	}
	bound := seconds(mcp.ReadyWait)
	rep := r.mcp.WaitReady(ctx, func(names []string) {
		notice(agent.LevelInfo, fmt.Sprintf("Waiting for %s to connect (up to %s)…", serversNamed(names), bound))
	})
	for _, name := range rep.Late {
		notice(agent.LevelWarning, fmt.Sprintf("MCP server %s did not connect within %s; this reply goes on without its tools, "+
			"which are offered as soon as it connects.", name, bound))
	}
	for _, name := range rep.Waited {
		if why, failed := rep.Failed[name]; failed {
			notice(agent.LevelWarning, fmt.Sprintf("MCP server %s could not connect: %s. This reply goes on without its tools; "+
				"Hearth retries in the background.", name, why))
		}
	}
}

func serversNamed(names []string) string {
	if len(names) == 1 {
		return "MCP server " + names[0]
	}
	return "MCP servers " + strings.Join(names, ", ")
}

// seconds writes d as people read it in a notice: "5 s", "1.5 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
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
	s.mu.Lock()
	old := map[string]config.MCPServer{}
	for name := range servers {
		if c, ok := s.cfg.Tools.MCPServers[name]; ok {
			old[name] = c
		}
		s.cfg.Tools.MCPServers[name] = servers[name]
	}
	err = s.cfg.Save(s.paths.ConfigFile)
	if err != nil { // nothing is lost: the config in memory goes back to what is on disk
		for name := range servers {
			if c, ok := old[name]; ok {
				s.cfg.Tools.MCPServers[name] = c
			} else {
				delete(s.cfg.Tools.MCPServers, name)
			}
		}
	}
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("save MCP server: %w", err)
	}
	for name, c := range servers {
		p.reach.mcp.Set(name, expandServer(c, s.getenv))
	}
	return nil
}

// RemoveMCPServer deletes a server from the config and withdraws its tools.
func (s *Service) RemoveMCPServer(name string) error {
	p, err := s.agent()
	if err != nil {
		return err
	}
	s.mu.Lock()
	c, ok := s.cfg.Tools.MCPServers[name]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("remove MCP server: no server named %q", name)
	}
	delete(s.cfg.Tools.MCPServers, name)
	err = s.cfg.Save(s.paths.ConfigFile)
	if err != nil {
		s.cfg.Tools.MCPServers[name] = c
	}
	s.mu.Unlock()
	if err != nil {
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
	s.mu.Lock()
	c, ok := s.cfg.Tools.MCPServers[name]
	s.mu.Unlock()
	if !ok {
		return mcp.TestResult{}, errors.New("test MCP server: no server named " + fmt.Sprintf("%q", name))
	}
	return p.reach.mcp.Test(ctx, name, expandServer(c, s.getenv))
}
