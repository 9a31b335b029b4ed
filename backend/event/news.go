package event

// MemoryChanged says a memory or persona file changed: written by the agent, a
// consolidation, the window's editor or another program. File is relative to the
// workspace ("memory/MEMORY.md").
type MemoryChanged struct {
	File string `json:"file"`
}

// SettingsChanged says a saved change of the config touched these parts
// (settings.Part*: "providers", "workspace", "tools", …); the new values are read
// from the settings service.
type SettingsChanged struct {
	Parts []string `json:"parts"`
}

// Has reports whether part changed.
func (c SettingsChanged) Has(part string) bool {
	for _, p := range c.Parts {
		if p == part {
			return true
		}
	}
	return false
}

// MCPChanged says an MCP server connected, failed, changed its tools or went away.
type MCPChanged struct {
	Server string `json:"server"`
}
