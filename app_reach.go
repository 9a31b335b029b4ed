//go:build !headless

package main

import (
	"hearth/backend/config"
	"hearth/backend/reach"
	"hearth/backend/skills"
)

// The MCP servers and Skills views' bindings (issue 8); each forwards to backend/core.

// ListMCPServers lists the configured MCP servers with their live state.
func (a *App) ListMCPServers() ([]reach.MCPServerView, error) { return a.svc.MCPServerViews() }

// SaveMCPServer adds or replaces a server and (re)connects it in the background.
func (a *App) SaveMCPServer(name string, c config.MCPServer) error {
	return a.svc.Reach().SaveMCPServer(name, c)
}

// RemoveMCPServer deletes a server and withdraws its tools.
func (a *App) RemoveMCPServer(name string) error { return a.svc.Reach().RemoveMCPServer(name) }

// ImportClaudeDesktop adds the servers of a pasted Claude Desktop block; it returns their names.
func (a *App) ImportClaudeDesktop(block string) ([]string, error) {
	return a.svc.Reach().ImportClaudeDesktop(block)
}

// TestMCPServer connects to a configured server once and lists the tools it offers.
func (a *App) TestMCPServer(name string) (reach.MCPTestView, error) {
	return a.svc.Reach().TestMCPServerView(a.ctx, name)
}

// ListSkills lists the built-in and workspace skills with availability.
func (a *App) ListSkills() []skills.Skill { return a.svc.Reach().ListSkills() }

// SetSkillEnabled turns a skill on or off.
func (a *App) SetSkillEnabled(name string, enabled bool) error {
	return a.svc.Reach().SetSkillEnabled(name, enabled)
}

// TestMCPDraft tests a server entry from the editor before it is saved.
func (a *App) TestMCPDraft(name string, c config.MCPServer) (reach.MCPTestView, error) {
	return a.svc.Reach().TestMCPDraft(a.ctx, name, c)
}
