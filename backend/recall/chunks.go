package recall

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	textclip "hearth/backend/internal/clip"
	"hearth/backend/llm"
	"hearth/backend/session"
)

// Chunk is one searchable piece of a source file. Its ID is stable: the
// source and a hash of the text (plus an ordinal for repeated text), so an
// entry keeps its ID (and its vector) when others are added around it.
type Chunk struct {
	ID     string
	Source string // "memory/HISTORY.md", "notes/x.md", "sessions/<id>"
	Title  string
	Date   string // "2026-11-23" or "2026-11-23 14:05" when known
	Text   string
	// Pos is, for a chat's chunk, the index of its first message in the
	// chat: what is still in the chat's window is not recalled into it.
	Pos int
	Vec []float32
}

// Chunk sizes: long paragraphs are cut, short ones merged up to maxChunk.
const (
	maxChunk = 1200
	minChunk = 200
)

var commentRe = regexp.MustCompile(`(?s)<!--.*?-->`)

// clean drops HTML comments (the templates' instructions) and returns ""
// for text that is only headings: neither is worth recalling.
func clean(t string) string {
	t = strings.TrimSpace(t)
	if strings.Contains(t, "<!--") {
		t = strings.TrimSpace(commentRe.ReplaceAllString(t, ""))
	}
	if t != "" && t[0] != '#' {
		return t // the usual case: no heading first, so not headings only
	}
	for _, line := range strings.Split(t, "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
			return t
		}
	}
	return ""
}

func chunkID(source, text string, seen map[string]int) string {
	sum := sha256.Sum256([]byte(text))
	id := source + "#" + hex.EncodeToString(sum[:8])
	if n := seen[id]; n > 0 {
		seen[id] = n + 1
		return fmt.Sprintf("%s~%d", id, n)
	}
	seen[id] = 1
	return id
}

// historyChunks makes one chunk per "[YYYY-MM-DD HH:MM]" entry; text before
// the first entry (a heading) is a chunk of its own if it has substance.
func historyChunks(source, content string) []Chunk {
	return historyChunksFrom(source, content, map[string]int{})
}

// historyChunksFrom chunks with the duplicate counts of chunks already made
// (appending to HISTORY.md chunks only the new tail).
func historyChunksFrom(source, content string, seen map[string]int) []Chunk {
	var out []Chunk
	var cur strings.Builder
	date := ""
	flush := func() {
		t := clean(cur.String())
		cur.Reset()
		if t == "" {
			return
		}
		for _, part := range splitLong(t) {
			out = append(out, Chunk{ID: chunkID(source, part, seen), Source: source, Title: "HISTORY.md", Date: date, Text: part})
		}
	}
	for _, line := range strings.Split(content, "\n") {
		if d, ok := entryStamp(line); ok {
			flush()
			date = d
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	flush()
	return out
}

// IsEntry reports whether line starts a HISTORY.md entry ("[YYYY-MM-DD HH:MM]").
func IsEntry(line string) bool {
	_, ok := entryStamp(line)
	return ok
}

// entryStamp returns the "YYYY-MM-DD HH:MM" a HISTORY entry line starts
// with (without a regexp per line: 10k-entry files are common).
func entryStamp(line string) (string, bool) {
	if len(line) < 18 || line[0] != '[' || line[17] != ']' {
		return "", false
	}
	for i := 1; i < 17; i++ {
		c := line[i]
		switch i {
		case 5, 8:
			if c != '-' {
				return "", false
			}
		case 11:
			if c != ' ' {
				return "", false
			}
		case 14:
			if c != ':' {
				return "", false
			}
		default:
			if c < '0' || c > '9' {
				return "", false
			}
		}
	}
	return line[1:17], true
}

// textChunks splits Markdown into paragraphs merged up to maxChunk; a new
// heading starts a new chunk.
func textChunks(source, title, date, content string) []Chunk {
	var out []Chunk
	seen := map[string]int{}
	var cur strings.Builder
	flush := func() {
		t := clean(cur.String())
		cur.Reset()
		for _, part := range splitLong(t) {
			out = append(out, Chunk{ID: chunkID(source, part, seen), Source: source, Title: title, Date: date, Text: part})
		}
	}
	for _, para := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n\n") {
		p := strings.TrimSpace(para)
		if p == "" {
			continue
		}
		heading := strings.HasPrefix(p, "#")
		if cur.Len() > 0 && (cur.Len()+len(p) > maxChunk || (heading && cur.Len() >= minChunk)) {
			flush()
		}
		if cur.Len() > 0 {
			cur.WriteString("\n\n")
		}
		cur.WriteString(p)
	}
	flush()
	return out
}

// splitLong cuts text longer than maxChunk at line or word boundaries.
func splitLong(t string) []string {
	if t == "" {
		return nil
	}
	var out []string
	for len(t) > maxChunk {
		cut := strings.LastIndex(t[:maxChunk], "\n")
		if cut < maxChunk/2 {
			cut = strings.LastIndex(t[:maxChunk], " ")
		}
		if cut < maxChunk/2 {
			cut = len(textclip.Prefix(t, maxChunk))
		}
		out = append(out, strings.TrimSpace(t[:cut]))
		t = strings.TrimSpace(t[cut:])
	}
	if t != "" {
		out = append(out, t)
	}
	return out
}

// fileChunks chunks a workspace file by its kind.
func fileChunks(rel, content string) []Chunk {
	switch {
	case rel == HistoryFile:
		return historyChunks(rel, content)
	case dailyRe.MatchString(rel):
		d := strings.TrimSuffix(path.Base(rel), ".md")
		return textChunks(rel, "daily note", d, content)
	}
	return textChunks(rel, path.Base(rel), "", content)
}

// sessionLabel is the title and date a chat's chunks carry.
func sessionLabel(m session.Meta) (title, date string) {
	title = m.Title
	if title == "" {
		title = m.ID
	}
	if !m.Created.IsZero() {
		date = m.Created.Local().Format(time.DateOnly)
	}
	return title, date
}

// sessionChunksFrom chunks msgs, the chat's messages from index pos0 on, where no
// exchange is pending (the chat's start, or the first message of its last chunk),
// with the duplicate counts of the chunks before. open is the index of the message
// the last chunk starts at: the next messages may still join it.
func sessionChunksFrom(source, title, date string, msgs []llm.Message, pos0 int, seen map[string]int) (out []Chunk, open int) {
	var cur strings.Builder
	pos := pos0
	flush := func() {
		t := strings.TrimSpace(cur.String())
		cur.Reset()
		for _, part := range splitLong(t) {
			out = append(out, Chunk{ID: chunkID(source, part, seen), Source: source, Title: title, Date: date, Text: part, Pos: pos})
		}
	}
	for j, m := range msgs {
		i := pos0 + j
		switch m.Role {
		case llm.RoleUser:
			if cur.Len() > minChunk {
				flush()
			}
			if cur.Len() == 0 {
				pos = i
			}
			cur.WriteString("User: " + strings.TrimSpace(m.Content) + "\n")
		case llm.RoleAssistant:
			if c := strings.TrimSpace(m.Content); c != "" {
				cur.WriteString("Assistant: " + c + "\n")
			}
		}
	}
	flush()
	return out, pos
}
