package core

import (
	"fmt"
	"log/slog"

	"hearth/backend/config"
	"hearth/backend/mcp"
	"hearth/backend/skills"
	"hearth/backend/subagent"
	"hearth/backend/tools"
	"hearth/backend/web"
)

// reachParts are the parts of issue 8 that the agent owns: skills, and
// (in their own files) MCP servers and subagents.
type reachParts struct {
	skills      *skills.Loader
	subagents   *subagent.Manager
	subRegistry *tools.Registry // the subagents' tools (MCP tools are added here too)
	mcp         *mcp.Manager
}

// startReach runs once the main runner exists: subagents (spawn), then the
// MCP connections, which register into both registries.
func (s *Service) startReach(p *agentParts, cfg *config.Config) error {
	if err := s.startSubagents(p, cfg); err != nil {
		return err
	}
	s.startMCP(p, cfg)
	return nil
}

// webTools builds web_search and web_fetch from tools.web.
func webTools(cfg *config.Config) ([]tools.Tool, error) {
	w := cfg.Tools.Web
	ts, err := web.New(web.Options{
		Offline:    w.Offline,
		Provider:   w.Search.Provider,
		APIKey:     w.Search.APIKey,
		SearXNGURL: w.Search.URL,
		SSRFAllow:  w.SSRFAllow,
	})
	if err != nil {
		return nil, fmt.Errorf("web tools: %w", err)
	}
	return ts, nil
}

// registerReach builds the skills loader and adds the tools that exist
// before the runner: web_search and web_fetch.
func (s *Service) registerReach(p *agentParts, cfg *config.Config) error {
	p.reach = &reachParts{
		skills: skills.New(skills.Options{Workspace: s.settings.Paths().Workspace, Getenv: s.settings.Getenv,
			OnWarning: func(w string) { slog.Warn("skills", "problem", w) }}),
	}
	ws, err := webTools(cfg)
	if err != nil {
		return err
	}
	return p.registry.Register(ws...)
}

// ListSkills lists every skill (built-in and workspace) with its source,
// availability, what it misses, whether it is enabled and its file — for the
// Skills view. Malformed ones are listed with their problem.
func (s *Service) ListSkills() ([]skills.Skill, error) {
	p, err := s.agent()
	if err != nil {
		return nil, err
	}
	list, _ := p.reach.skills.List()
	return list, nil
}

// SetSkillEnabled turns a skill on or off for the prompt (kept in the
// workspace's .hearth/skills.json).
func (s *Service) SetSkillEnabled(name string, enabled bool) error {
	p, err := s.agent()
	if err != nil {
		return err
	}
	return p.reach.skills.SetEnabled(name, enabled)
}
