package recall

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"

	textclip "hearth/backend/internal/clip"
)

// The workspace files the index treats apart from other notes, relative to the
// workspace. The notebook (backend/memory) owns these files; its tests check that
// both packages name them alike.
const (
	// MemoryFile is in every request's system prompt: recall leaves it out of the block.
	MemoryFile = "memory/MEMORY.md"
	// HistoryFile is chunked an entry at a time, and appends to it are read as a tail.
	HistoryFile = "memory/HISTORY.md"
	// userProfile is the persona file about the user: what it says is searched
	// like a note (the other persona files say how to behave).
	userProfile = "USER.md"
)

// personaFiles are the workspace files that say how the agent behaves: not notes.
func personaFiles() []string {
	return []string{"AGENTS.md", "SOUL.md", "USER.md", "TOOLS.md", "IDENTITY.md", "HEARTBEAT.md"}
}

// dailyRe matches a daily note's name (memory/YYYY-MM-DD.md).
var dailyRe = regexp.MustCompile(`^memory/\d{4}-\d{2}-\d{2}\.md$`)

// contentHash is a source's content hash, what the index compares after a stat.
func contentHash(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

func clip(s string, n int) string { return textclip.Bytes(strings.TrimSpace(s), n) }
