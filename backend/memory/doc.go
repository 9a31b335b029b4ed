// Package memory is Hearth's notebook (docs/design/memory.md): the Markdown memory files
// the user owns (MEMORY.md, HISTORY.md, daily notes —
// docs/design/memory.md#memory-files) with atomic,
// compare-and-swap saves (docs/design/memory.md#editing); their history of versions and
// the inbox of proposed changes; consolidation of old chat turns into them through a
// save_memory tool call (docs/design/memory.md#consolidation); and the remember tool.
// Recall over the files and chats is backend/recall's; the memory service builds it.
package memory
