package session

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Ext is the extension of a session file.
const Ext = ".jsonl"

// maxStemLen keeps a session file name (stem + ".jsonl" + a trash suffix)
// well under the 255-byte limit of common file systems.
const maxStemLen = 200

// NewID returns a fresh session id: the UTC creation time to the second and 8
// random hex digits, e.g. "20261122T041006-3f9a1c2e". Ids sort by creation time
// and are safe as file names as they are.
func NewID(now time.Time) string {
	var b [4]byte
	// crypto/rand.Read never fails on supported platforms (Go 1.24+).
	_, _ = rand.Read(b[:])
	return now.UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// safeByte reports whether c may appear in a file name stem unescaped.
func safeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '_' || c == '.'
}

// FileStem maps a session id to a file-name-safe stem. Safe ids (letters,
// digits, '-', '_', '.', not starting with '.') map to themselves; every other
// byte is percent-escaped, so special ids stay readable and the mapping is
// reversible: "cron:daily" → "cron%3Adaily", "heartbeat" → "heartbeat".
func FileStem(id string) (string, error) {
	if id == "" {
		return "", errors.New("session id is empty: pass a non-empty id or let Create pick one")
	}
	var sb strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if safeByte(c) && !(i == 0 && c == '.') {
			sb.WriteByte(c)
			continue
		}
		fmt.Fprintf(&sb, "%%%02X", c)
	}
	if sb.Len() > maxStemLen {
		return "", fmt.Errorf("session id %.40q… is too long (%d bytes escaped, max %d): use a shorter id", id, sb.Len(), maxStemLen)
	}
	return sb.String(), nil
}

// IDFromFileName reverses FileStem for a file name ending in Ext. It reports
// false for names that are not session files.
func IDFromFileName(name string) (string, bool) {
	stem, ok := strings.CutSuffix(name, Ext)
	if !ok || stem == "" || strings.HasPrefix(stem, ".") {
		return "", false
	}
	var sb strings.Builder
	for i := 0; i < len(stem); i++ {
		c := stem[i]
		if c == '%' {
			if i+2 >= len(stem) {
				return "", false
			}
			v, err := hex.DecodeString(stem[i+1 : i+3])
			if err != nil {
				return "", false
			}
			sb.WriteByte(v[0])
			i += 2
			continue
		}
		if !safeByte(c) {
			return "", false
		}
		sb.WriteByte(c)
	}
	// Only the canonical spelling maps back to the same file ("%3a" or "%41"
	// in a hand-made name would not).
	id := sb.String()
	if canon, err := FileStem(id); err != nil || canon != stem {
		return "", false
	}
	return id, true
}

// ResultsDir is the directory that holds the spilled tool results of session
// id in workspace: <workspace>/.hearth/results/<file stem of id>. Tools that
// spill results must use it so Delete can remove them with the session.
func ResultsDir(workspace, id string) (string, error) {
	stem, err := FileStem(id)
	if err != nil {
		return "", err
	}
	return filepath.Join(workspace, ".hearth", "results", stem), nil
}
