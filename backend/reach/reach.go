// Package reach is the service of what the agent reaches beyond its built-in tools:
// MCP servers (connected in the background, managed from the MCP view and `hearth
// mcp`), skills (SKILL.md files offered in the system prompt) and the web tools.
package reach

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/mcp"
	"hearth/backend/settings"
	"hearth/backend/skills"
	"hearth/backend/tools"
	"hearth/backend/web"
)

// Service is the reach service. Building it starts nothing: MCP servers are
// connected by Start and ended by Close.
type Service struct {
	settings *settings.Service
	opts     Options
	news     *event.Broker[event.MCPChanged] // every manager's, across restarts

	mu     sync.Mutex
	skills *skills.Loader
	ws     string            // the workspace skills and MCP servers run in
	local  bool              // local-only mode as the MCP servers were started
	mcp    *mcp.Manager      // nil until Start
	regs   []*tools.Registry // where MCP tools are registered
}

// Options are what the settings do not say: the parts of the web tools' and the MCP
// servers' options the composition root builds once, filled in from the settings as
// the tools are made and the servers started.
type Options struct {
	// Web holds the egress guard the web tools' connections go through.
	Web web.Options
	// MCP holds the sandbox stdio servers run in and the transport HTTP servers
	// are reached through (the egress guard's).
	MCP mcp.Options
	// Mask hides the API keys in what the MCP list shows (backend/keymask); nil
	// hides nothing.
	Mask func(string) string
}

// New returns the service.
func New(s *settings.Service, opts Options) *Service {
	if opts.Mask == nil {
		opts.Mask = func(s string) string { return s }
	}
	r := &Service{settings: s, opts: opts, news: event.NewBroker[event.MCPChanged](0)}
	r.skills = r.newSkills()
	return r
}

func (r *Service) newSkills() *skills.Loader {
	r.ws = r.settings.Paths().Workspace
	return skills.New(skills.Options{Workspace: r.ws, Getenv: r.settings.Getenv,
		OnWarning: func(w string) { slog.Warn("skills", "problem", w) }})
}

// Start connects the configured MCP servers in the background, registering their
// tools into regs as each one answers; it never waits for a server. Starting again
// first ends the servers of the last start.
func (r *Service) Start(_ context.Context, regs ...*tools.Registry) {
	cfg := r.settings.Config()
	servers := map[string]config.MCPServer{}
	for name, c := range cfg.Tools.MCPServers {
		servers[name] = expandServer(c, r.settings.Getenv)
	}
	m := mcp.New(r.mcpOptions(servers, regs))
	r.mu.Lock()
	r.local = cfg.LocalOnly
	old := r.mcp
	r.mcp, r.regs = m, regs
	r.mu.Unlock()
	if old != nil {
		old.Close()
	}
	m.Start()
}

// News tells when an MCP server's state or tools changed: the MCP view reloads.
func (r *Service) News() *event.Broker[event.MCPChanged] { return r.news }

// Close ends every MCP server (its whole process group), withdraws its tools and
// closes News.
func (r *Service) Close(context.Context) error {
	r.mu.Lock()
	m := r.mcp
	r.mcp = nil
	r.mu.Unlock()
	if m != nil {
		m.Close()
	}
	r.news.Close()
	return nil
}

// Apply follows a settings change: a moved workspace has other skills, and MCP
// servers started there start again in the new folder.
func (r *Service) Apply() {
	r.mu.Lock()
	if r.ws == r.settings.Paths().Workspace && r.local == r.settings.Config().LocalOnly {
		r.mu.Unlock()
		return
	}
	r.skills = r.newSkills()
	started, regs := r.mcp != nil, r.regs
	r.mu.Unlock()
	if started {
		r.Start(context.Background(), regs...)
	}
}

// Tools are web_search and web_fetch, built from tools.web; none when the web is
// off (tools.web.offline): their schemas would only cost every request tokens for
// tools that refuse.
func (r *Service) Tools() ([]tools.Tool, error) {
	cfg := r.settings.Config()
	w := cfg.Tools.Web
	if w.Offline || cfg.LocalOnly {
		return nil, nil // local-only mode would refuse every call of theirs
	}
	o := r.opts.Web
	o.Offline, o.Provider, o.APIKey, o.SearXNGURL, o.SSRFAllow = w.Offline, w.Search.Provider, w.Search.APIKey, w.Search.URL, w.SSRFAllow
	ts, err := web.New(o)
	if err != nil {
		return nil, fmt.Errorf("web tools: %w", err)
	}
	return ts, nil
}

func (r *Service) loader() *skills.Loader {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.skills
}

// SkillsPrompt is what the system prompt says about skills: the bodies of the
// always-on ones and a summary of the others.
func (r *Service) SkillsPrompt() (always []string, summary []skills.Summary) {
	return r.loader().Prompt()
}

// ListSkills lists every skill (built-in and workspace) with its source,
// availability, what it misses, whether it is enabled and its file — for the Skills
// view. Malformed ones are listed with their problem.
func (r *Service) ListSkills() []skills.Skill {
	list, _ := r.loader().List()
	return list
}

// SetSkillEnabled turns a skill on or off for the prompt (kept in the workspace's
// .hearth/skills.json).
func (r *Service) SetSkillEnabled(name string, enabled bool) error {
	return r.loader().SetEnabled(name, enabled)
}

// CustomizeSkill gives skill name a file in the workspace to edit (a built-in is
// copied there first, and the copy overrides it) and returns its workspace-relative
// location.
func (r *Service) CustomizeSkill(name string) (string, error) {
	return r.loader().Customize(name)
}
