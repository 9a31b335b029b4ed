package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"hearth/backend/internal/flock"
	"hearth/backend/internal/safefile"
	"hearth/backend/llm"
)

// The recall index reads a chat that only grew from where it grew: a turn appends a
// few lines to a chat of hundreds of turns, and parsing it whole at every turn cost a
// long chat's turn more than its own work. ReadFile gives the bytes Load would parse,
// Parse parses them, and ScanMessages reads lines appended after a known point,
// telling when they do more than add messages (then the chat is parsed whole).

// ReadFile reads session id's file as Load does (no FIFO or device, at most
// MaxFileBytes, under the file's shared lock), without parsing it.
func (s *Store) ReadFile(id string) ([]byte, time.Time, error) {
	p, err := s.Path(id)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read session: %w", err)
	}
	f, _, err := safefile.Open(p, MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, fmt.Errorf("read session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read session %s: %w", id, err)
	}
	defer f.Close()
	if err := flock.Lock(f, false); err != nil {
		return nil, time.Time{}, err
	}
	defer func() { _ = flock.Unlock(f) }()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	data, err := readWhole(f, fi.Size())
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read session %s: %w", id, err)
	}
	return data, fi.ModTime(), nil
}

// Parse parses the bytes of session id's file (from ReadFile) as Load would.
func Parse(id string, data []byte, modTime time.Time) *Session { return parse(id, data, modTime) }

// MessageLines returns the offset in data (a whole session file) of each line of the
// message type, in order. They are the lines of the Session's Entries when Parse made
// the same number of entries with no warning and no branch.
func MessageLines(data []byte) []int {
	var offs []int
	for at := 0; at < len(data); {
		line, _, _ := bytes.Cut(data[at:], []byte{'\n'})
		if lineKind(line) == kindMessage {
			offs = append(offs, at)
		}
		at += len(line) + 1
	}
	return offs
}

// ScanMessages reads data, whole lines of a session file from the start of a line past
// its first, and returns the messages they add with the offset in data of each one's
// line. ok is false when the lines do more than add messages and end runs — a rewind,
// a new title (in the lines from offset seen on: the caller read those before), a
// metadata line, a damaged or cut-off line, a type it does not know — or when the
// last line has no newline yet: what the chat holds then takes a whole Parse.
func ScanMessages(data []byte, seen int) (msgs []llm.Message, offs []int, ok bool) {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return nil, nil, false
	}
	for at := 0; at < len(data); {
		line, _, _ := bytes.Cut(data[at:], []byte{'\n'})
		start := at
		at += len(line) + 1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		switch lineKind(line) {
		case kindMessage:
			var m messageLine
			if decodeLine(line, &m) != nil || m.Role == "" {
				return nil, nil, false
			}
			msgs, offs = append(msgs, m.Message), append(offs, start)
		case kindRun:
			var r runLine
			if decodeLine(line, &r) != nil || r.RunID == "" {
				return nil, nil, false
			}
		case kindUpdate:
			var u updateLine
			if json.Unmarshal(line, &u) != nil || u.Title != nil && start >= seen {
				return nil, nil, false
			}
		default:
			return nil, nil, false
		}
	}
	return msgs, offs, true
}

// MaxReadFileBytes bounds what ReadFile holds at once: a chat past it (one with
// many pictures, or a line planted to be huge) is read by Load instead, a piece at
// a time, its long lines skipped without being held.
const MaxReadFileBytes = 64 << 20

// ErrTooLarge is ReadFile's answer for a file past MaxReadFileBytes.
var ErrTooLarge = errors.New("session file too large to read whole")

// readWhole reads f, whose size was size a moment ago, in one allocation, and
// refuses it (ErrTooLarge) past MaxReadFileBytes, grown since the stat or not.
func readWhole(f io.Reader, size int64) ([]byte, error) {
	if size > MaxReadFileBytes {
		return nil, fmt.Errorf("%w (%d bytes, at most %d)", ErrTooLarge, size, MaxReadFileBytes)
	}
	var b bytes.Buffer
	b.Grow(int(size) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(f, MaxReadFileBytes+1)); err != nil {
		return nil, err
	}
	if b.Len() > MaxReadFileBytes {
		return nil, fmt.Errorf("%w (more than %d bytes)", ErrTooLarge, MaxReadFileBytes)
	}
	return b.Bytes(), nil
}
