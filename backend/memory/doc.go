// Package memory is Hearth's notebook (docs/design/memory.md): the Markdown memory files
// the user owns (MEMORY.md, HISTORY.md, daily notes —
// docs/design/memory.md#memory-files) with atomic,
// compare-and-swap saves (docs/design/memory.md#editing); consolidation of old chat turns into
// them through a save_memory tool call (docs/design/memory.md#consolidation); and recall over them
// (docs/design/memory.md#recall): a chromem-go vector index plus BM25 keyword search, kept as a
// cache of the files, which stay the truth. The memory_search and remember
// tools and the "Possibly relevant history" block (docs/design/memory.md#memory-tools) live here too.
package memory
