package event

// MemoryChanged says a memory or persona file changed: written by the agent, a
// consolidation, the window's editor or another program. File is relative to the
// workspace ("memory/MEMORY.md").
type MemoryChanged struct {
	File string `json:"file"`
}
