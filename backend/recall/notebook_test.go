package recall

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// entryTime is the stamp of HISTORY.md entries, as the notebook (backend/memory)
// writes them.
const entryTime = "2006-01-02 15:04"

// notebook stands in for backend/memory's store in the index's tests: it appends
// HISTORY.md entries as the store does (stamped, one blank line between, the file
// replaced by a rename), so a test sees what the index sees after a consolidation.
type notebook struct{ ws string }

func newNotebook(ws string) *notebook { return &notebook{ws: ws} }

func (n *notebook) AppendHistory(entry string, at time.Time) error {
	p := filepath.Join(n.ws, HistoryFile)
	cur, err := os.ReadFile(p)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	entry = "[" + at.Format(entryTime) + "] " + strings.TrimSpace(entry)
	text := strings.TrimRight(string(cur), "\n")
	if text == "" {
		text = entry + "\n"
	} else {
		text += "\n\n" + entry + "\n"
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}
