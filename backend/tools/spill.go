package tools

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"hearth/backend/internal/clip"
	"hearth/backend/internal/confined"
)

// spillLineWidth wraps very long lines in a spilled file so read_file, which
// pages by lines, can page through it.
const spillLineWidth = 1000

// Spill keeps an oversized tool result out of the context (docs/design/prompt-size.md#compaction): when
// content is longer than maxChars (default 16000) it is written to
// <workspace>/.hearth/results/<sessionID>/<callID>.txt and replaced by its head,
// the file's path and how to page on with read_file. It returns the text for
// the context and the file's absolute path ("" when nothing was spilled).
func Spill(workspace, sessionID, callID, content string, maxChars int) (string, string, error) {
	if maxChars <= 0 {
		maxChars = DefaultMaxResultChars
	}
	if len(content) <= maxChars {
		return content, "", nil
	}
	rel := filepath.Join(".hearth", "results", safeName(sessionID), safeName(callID)+".txt")
	abs := filepath.Join(workspace, rel)
	body := wrapLongLines(content, spillLineWidth)
	// Confined to the workspace: if .hearth or results were swapped for a
	// symlink (a command can do that), the write is refused, not redirected.
	r, err := confined.Open(workspace, confined.Options{})
	if err == nil {
		defer r.Close()
		_, err = r.WriteFile(rel, []byte(body), 0o600, confined.WriteOptions{DirMode: 0o700})
	}
	if err != nil {
		return "", "", fmt.Errorf("spill tool result %s: %w; check that the workspace is writable and .hearth/results is a folder inside it", callID, err)
	}
	totalLines := countLines(body)
	note := fmt.Sprintf("\n[Result too long (%d chars, %d lines); the full text is in %s. ", len(content), totalLines, filepath.ToSlash(rel))
	headBudget := maxChars - len(note) - 120
	head := cutAtLine(body, max(headBudget, 0))
	shown := countLines(head)
	note += fmt.Sprintf("Shown: lines 1-%d. Read on with read_file(path=%q, offset=%d, limit=200).]", shown, filepath.ToSlash(rel), shown+1)
	return head + note, abs, nil
}

// SpillResult applies Spill to a Result, recording the file in Meta.
func SpillResult(workspace, sessionID, callID string, r Result, maxChars int) (Result, error) {
	text, path, err := Spill(workspace, sessionID, callID, r.Content, maxChars)
	if err != nil || path == "" {
		return r, err
	}
	meta := make(map[string]string, len(r.Meta)+1)
	maps.Copy(meta, r.Meta)
	meta[MetaSpilledPath] = path
	r.Content, r.Meta = text, meta
	return r, nil
}

// safeName keeps an id usable as one path element.
func safeName(id string) string {
	id = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ':' {
			return '_'
		}
		return r
	}, id)
	id = strings.Trim(id, ". ")
	if id == "" {
		return "_"
	}
	return id
}

func wrapLongLines(s string, width int) string {
	if !strings.Contains(s, "\n") && len(s) <= width {
		return s
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		for len(line) > width+1 {
			cut := len(clip.Prefix(line, width))
			if cut == 0 {
				cut = width
			}
			b.WriteString(line[:cut])
			b.WriteString("\n")
			line = line[cut:]
		}
		b.WriteString(line)
	}
	return b.String()
}
