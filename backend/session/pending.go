package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"unicode/utf8"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/nofollow"
)

// PendingExt ends the file beside a session's that holds the messages the person
// sent while a run of the chat went on and that no run has taken yet. The file is
// rewritten whole (atomically) on every change and removed when the list empties,
// so a crash leaves the list before or after a change, never half of one.
const PendingExt = ".pending.json"

// Pending bounds: a chat's list is what a person types during one run, so these
// are far above any real use and only stop a planted file from costing memory.
const (
	MaxPending      = 50
	MaxPendingText  = 64 << 10
	maxPendingBytes = 8 << 20
)

// The modes a pending message waits in.
const (
	ModeSteer = "steer" // handed to the model at the running turn's next safe point
	ModeQueue = "queue" // the next turn when this one ends
)

// Pending is one message waiting for a chat's run.
type Pending struct {
	ID   string `json:"id"`
	Mode string `json:"mode"`
	Text string `json:"text"`
	At   string `json:"at"`
	// Channel is where it was typed ("cli"; empty for the window): the turn it
	// starts runs on that channel.
	Channel string `json:"channel,omitempty"`
	// Held marks a message no run will take by itself: it was saved before a crash
	// or a quit, or its run was stopped. The person sends it again or removes it.
	Held bool `json:"held,omitempty"`
}

type pendingFile struct {
	V        int       `json:"v"`
	Messages []Pending `json:"messages"`
}

func (s *Store) pendingName(id string) (string, error) {
	stem, err := FileStem(id)
	if err != nil {
		return "", err
	}
	return stem + PendingExt, nil
}

// LoadPending reads the messages waiting for session id, in the order sent; none
// is no error. A file that cannot be read as such a list (damaged, a symlink, a
// pipe, too large) is moved aside, never overwritten, and the error names where.
func (s *Store) LoadPending(id string) ([]Pending, error) {
	name, err := s.pendingName(id)
	if err != nil {
		return nil, fmt.Errorf("read pending messages: %w", err)
	}
	b, err := nofollow.ReadFile(s.dir, name, maxPendingBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var list []Pending
	if err == nil {
		list, err = ParsePending(b)
	}
	if err == nil {
		return list, nil
	}
	p := filepath.Join(s.dir, name)
	aside := p + ".bad-" + strconv.FormatInt(s.now().UnixNano(), 10)
	if rerr := os.Rename(p, aside); rerr != nil {
		return nil, fmt.Errorf("read pending messages of session %s: %w (hint: move %s away; it could not be moved aside: %v)", id, err, p, rerr)
	}
	return nil, fmt.Errorf("read pending messages of session %s: %w (hint: the file was kept as %s; copy what you need from it)", id, err, aside)
}

// ParsePending reads a pending file's bytes, checking every message.
func ParsePending(b []byte) ([]Pending, error) {
	var f pendingFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("not a list of pending messages: %w", err)
	}
	if f.V != 1 {
		return nil, fmt.Errorf("pending messages of version %d: this Hearth reads version 1", f.V)
	}
	if len(f.Messages) > MaxPending {
		return nil, fmt.Errorf("%d pending messages, at most %d are kept", len(f.Messages), MaxPending)
	}
	seen := make(map[string]bool, len(f.Messages))
	for i, m := range f.Messages {
		if err := CheckPending(m); err != nil {
			return nil, fmt.Errorf("pending message %d: %w", i+1, err)
		}
		if seen[m.ID] {
			return nil, fmt.Errorf("pending message %d: id %q given twice", i+1, m.ID)
		}
		seen[m.ID] = true
	}
	return f.Messages, nil
}

// CheckPending says what is wrong with a pending message, or nil.
func CheckPending(m Pending) error {
	switch {
	case m.ID == "" || len(m.ID) > 64:
		return errors.New("an id of 1 to 64 bytes is needed")
	case m.Mode != ModeSteer && m.Mode != ModeQueue:
		return fmt.Errorf("mode %q: use %q or %q", m.Mode, ModeSteer, ModeQueue)
	case len(m.Text) > MaxPendingText:
		return fmt.Errorf("the message is %d KB (hint: send at most %d KB while a turn runs, or wait for it to end)", len(m.Text)>>10, MaxPendingText>>10)
	case !utf8.ValidString(m.Text) || !utf8.ValidString(m.Channel) || len(m.Channel) > 64:
		return errors.New("the text is not valid UTF-8")
	}
	return nil
}

// SavePending replaces the messages waiting for session id with list (none
// removes the file). The session itself must exist.
func (s *Store) SavePending(id string, list []Pending) error {
	name, err := s.pendingName(id)
	if err != nil {
		return fmt.Errorf("save pending messages: %w", err)
	}
	p := filepath.Join(s.dir, name)
	if len(list) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("save pending messages of session %s: %w (check that %s is writable)", id, err, s.dir)
		}
		atomicfile.SyncDir(s.dir)
		return nil
	}
	if _, err := os.Lstat(filepath.Join(s.dir, name[:len(name)-len(PendingExt)]+Ext)); err != nil {
		return fmt.Errorf("save pending messages of session %s: %w", id, ErrNotFound)
	}
	data, err := json.Marshal(pendingFile{V: 1, Messages: list})
	if err == nil && s.mask != nil {
		data = []byte(s.mask(string(data)))
	}
	if err == nil && len(data) >= maxPendingBytes {
		err = fmt.Errorf("%d MB of pending messages, at most %d are kept (hint: wait for the turn to end, or remove some)", len(data)>>20, maxPendingBytes>>20)
	}
	if err == nil {
		// The rename replaces whatever is at p, a planted symlink included,
		// and never writes through it.
		err = atomicfile.Write(p, append(data, '\n'), fileMode)
	}
	if err != nil {
		return fmt.Errorf("save pending messages of session %s: %w (check free disk space)", id, err)
	}
	return nil
}

// removePending drops a deleted session's pending messages.
func (s *Store) removePending(id string) {
	if name, err := s.pendingName(id); err == nil {
		_ = os.Remove(filepath.Join(s.dir, name))
	}
}
