//go:build !headless

package main

import (
	"hearth/backend/config"
	"hearth/backend/reach"
	"hearth/backend/skills"
)

// The MCP servers and Skills views' bindings; each forwards to the reach service.

// ListMCPServers lists the configured MCP servers with their live state.
func (a *ReachAPI) ListMCPServers() []reach.MCPServerView { return a.h.Reach.MCPServerViews() }

// SaveMCPServer adds or replaces a server and (re)connects it in the background.
func (a *ReachAPI) SaveMCPServer(name string, c config.MCPServer) error {
	return a.h.Reach.SaveMCPServer(name, c)
}

// RemoveMCPServer deletes a server and withdraws its tools.
func (a *ReachAPI) RemoveMCPServer(name string) error { return a.h.Reach.RemoveMCPServer(name) }

// ImportClaudeDesktop adds the servers of a pasted Claude Desktop block; it returns their names.
func (a *ReachAPI) ImportClaudeDesktop(block string) ([]string, error) {
	return a.h.Reach.ImportClaudeDesktop(block)
}

// TestMCPServer connects to a configured server once and lists the tools it offers.
func (a *ReachAPI) TestMCPServer(name string) (reach.MCPTestView, error) {
	return a.h.Reach.TestMCPServerView(a.ctx, name)
}

// ListSkills lists the built-in and workspace skills with availability.
func (a *ReachAPI) ListSkills() []skills.Skill { return a.h.Reach.ListSkills() }

// CustomizeSkill returns the workspace file of skill name to open in the editor,
// copying a built-in there first ("Open in editor" on a built-in).
func (a *ReachAPI) CustomizeSkill(name string) (string, error) { return a.h.Reach.CustomizeSkill(name) }

// SetSkillEnabled turns a skill on or off.
func (a *ReachAPI) SetSkillEnabled(name string, enabled bool) error {
	return a.h.Reach.SetSkillEnabled(name, enabled)
}

// TestMCPDraft tests a server entry from the editor before it is saved.
func (a *ReachAPI) TestMCPDraft(name string, c config.MCPServer) (reach.MCPTestView, error) {
	return a.h.Reach.TestMCPDraft(a.ctx, name, c)
}
