// Package memory is Hearth's notebook (SPEC §6): the Markdown memory files
// the user owns (MEMORY.md, HISTORY.md, daily notes — F-MEMFILES) with atomic,
// compare-and-swap saves (F-MEMEDIT); consolidation of old chat turns into
// them through a save_memory tool call (F-CONSOLIDATE); and recall over them
// (F-RECALL): a chromem-go vector index plus BM25 keyword search, kept as a
// cache of the files, which stay the truth. The memory_search and remember
// tools and the "Possibly relevant history" block (F-MEMTOOLS) live here too.
package memory
