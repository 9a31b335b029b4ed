package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/flock"
	"hearth/backend/internal/nofollow"
	"hearth/backend/internal/safefile"
	"hearth/backend/memrepo"
)

// What Hearth writes on its own about a workspace — the history of versions of
// the memory files, the memory inbox, Dream's state, the memory lock — lives in
// a state folder in Hearth's data folder, one per workspace
// (<data>/workspaces/<id>), which the sandbox hides from commands: nothing a
// command does in the workspace can plant a link Hearth would then write
// through. Older versions kept these in <workspace>/.hearth; MoveState moves
// them once (docs/memory.md#where-hearth-keeps-its-state).

// StateDir is the state folder of workspace ws under root (config.Paths'
// WorkspacesDir): named by a short hash of the workspace's path, like its
// recall index folder.
func StateDir(root, ws string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(ws)))
	return filepath.Join(root, hex.EncodeToString(sum[:6]))
}

// Moved is what MoveState did, kept as moved.json in the state folder so that
// `hearth status` and the memory history can say so.
type Moved struct {
	From string    `json:"from"` // the old folder, <workspace>/.hearth
	When time.Time `json:"when"`
	// Items moved into the state folder (memory.git, inbox, dream.json); the
	// old ones were renamed with MovedSuffix.
	Items []string `json:"items,omitempty"`
	// Refused are items left where they were because a link or a special file
	// was found in or at them: nothing behind a link is read.
	Refused []string `json:"refused,omitempty"`
	// Skipped are links and special files inside a moved item, not copied.
	Skipped []string `json:"skipped,omitempty"`
}

// MovedSuffix ends the names of the old items after a move.
const MovedSuffix = ".moved"

// movedFile records a finished move in the state folder.
const movedFile = "moved.json"

// limits of a move: a memory history is megabytes; more is not Hearth's.
const (
	maxMoveFile  = 256 << 20
	maxMoveTotal = 1 << 30
)

// stateItems are what older versions kept in .hearth, with whether each is a folder.
var stateItems = []struct {
	name string
	dir  bool
}{{"memory.git", true}, {"inbox", true}, {"dream.json", false}}

// ReadMoved returns the record of the move into dir (nil: nothing was moved).
func ReadMoved(dir string) *Moved {
	b, err := safefile.ReadFile(filepath.Join(dir, movedFile), 1<<20)
	if err != nil {
		return nil
	}
	var m Moved
	if json.Unmarshal(b, &m) != nil || len(m.Items)+len(m.Refused) == 0 {
		return nil
	}
	return &m
}

// MoveState moves the state older versions kept in <ws>/.hearth into the
// state folder dir, once: no element of the old folder is followed if it is a
// link, only folders and regular files are copied, a history that holds a link
// or a special file is not moved at all (Hearth starts a new one; the old one
// stays for the user to look at), and nothing in the old folder is deleted —
// the moved items are renamed. It returns nil when there was nothing to move.
func MoveState(ws, dir string) (*Moved, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("move Hearth's state: %w", err)
	}
	release, err := flock.File(filepath.Join(dir, "move.lock"))
	if err != nil {
		return nil, fmt.Errorf("move Hearth's state: %w", err)
	}
	defer release()
	if m := ReadMoved(dir); m != nil {
		return nil, nil // another process moved it
	}
	old, err := nofollow.OpenDir(ws, ".hearth")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.Is(err, nofollow.ErrLink):
		m := &Moved{From: filepath.Join(ws, ".hearth"), When: time.Now(), Refused: []string{".hearth"}}
		return m, record(dir, m)
	case err != nil:
		return nil, fmt.Errorf("move Hearth's state: %w", err)
	}
	defer old.Close()
	m := &Moved{From: old.Name(), When: time.Now()}
	for _, it := range stateItems {
		mode, ok := nofollow.Exists(old, it.name)
		if !ok {
			continue
		}
		if _, there := os.Lstat(filepath.Join(dir, it.name)); there == nil {
			m.Refused = append(m.Refused, it.name) // the new one wins; the old stays
			continue
		}
		if (it.dir && !mode.IsDir()) || (!it.dir && !mode.IsRegular()) {
			m.Refused = append(m.Refused, it.name)
			continue
		}
		moved, err := moveItem(old, it.name, it.dir, dir, m)
		if err != nil {
			return nil, fmt.Errorf("move Hearth's state: %s: %w", it.name, err)
		}
		if !moved {
			m.Refused = append(m.Refused, it.name)
			continue
		}
		m.Items = append(m.Items, it.name)
		to := it.name + MovedSuffix
		if _, taken := nofollow.Exists(old, to); taken {
			to += "-" + m.When.Format("20060102T150405")
		}
		if err := nofollow.Rename(old, it.name, to); err != nil {
			return nil, fmt.Errorf("move Hearth's state: %w", err)
		}
	}
	// The old lock and sync fingerprint mean nothing now; only regular files go.
	for _, name := range []string{"memory.lock", "memory-synced"} {
		_ = nofollow.RemoveRegular(old, name)
	}
	if len(m.Items)+len(m.Refused) == 0 {
		return nil, nil
	}
	return m, record(dir, m)
}

// moveItem copies the item name of old into dir; false when it may not be moved.
func moveItem(old *os.File, name string, isDir bool, dir string, m *Moved) (bool, error) {
	if !isDir {
		f, _, err := nofollow.OpenFileIn(old, name, 1<<20)
		if err != nil {
			return false, nil // a pipe, a link or a huge file: not Dream's
		}
		defer f.Close()
		b, err := nofollow.ReadAllFrom(f, 1<<20)
		if err != nil {
			return false, nil
		}
		return true, atomicfile.Write(filepath.Join(dir, name), b, 0o600)
	}
	src, err := nofollow.OpenDir(old.Name(), name)
	if err != nil {
		return false, nil // became a link meanwhile
	}
	defer src.Close()
	tmp := filepath.Join(dir, "."+name+".moving")
	_ = os.RemoveAll(tmp) // a move killed midway: Hearth's own copy
	c, err := nofollow.CopyTree(src, tmp, maxMoveFile, maxMoveTotal)
	if err == nil && len(c.Skipped) > 0 && name == "memory.git" {
		// A history with a link inside is not whole and not to be trusted.
		for _, s := range c.Skipped {
			m.Skipped = append(m.Skipped, filepath.Join(name, s))
		}
		_ = os.RemoveAll(tmp)
		return false, nil
	}
	if err == nil && name == "memory.git" {
		if aerr := memrepo.Adopt(tmp); aerr != nil {
			_ = os.RemoveAll(tmp)
			return false, nil
		}
	}
	if err != nil {
		_ = os.RemoveAll(tmp)
		if errors.Is(err, nofollow.ErrTooBig) {
			return false, nil // not a memory history's size: left where it is
		}
		return false, err
	}
	for _, s := range c.Skipped {
		m.Skipped = append(m.Skipped, filepath.Join(name, s))
	}
	return true, os.Rename(tmp, filepath.Join(dir, name))
}

func record(dir string, m *Moved) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, movedFile), append(b, '\n'), 0o600)
}
