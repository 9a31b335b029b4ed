// Package recall finds what Hearth remembers (docs/memory.md#recall-index): a SQLite
// FTS5 and vector index over the memory files, the workspace's notes and the chats,
// kept as a cache of those files, which stay the truth; the search over it; the
// "Possibly relevant history" block a turn's request carries; and the memory_search
// tool (docs/design/memory.md#memory-tools). It reads the files itself and imports
// neither the notebook (backend/memory, which builds on it) nor the run.
package recall
