package applock

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// Kind is what kind of Hearth process holds the lock.
type Kind string

// The kinds of holder.
const (
	KindDesktop Kind = "desktop" // the desktop app (window and tray)
	KindServe   Kind = "serve"   // `hearth serve`, headless (a systemd user service)
	KindCLI     Kind = "cli"     // a command that runs background work itself
)

// Holder is who holds the lock, as it wrote itself into the lock file. A zero Holder is
// unknown: an older Hearth (which wrote its pid only) or a file being written.
type Holder struct {
	Kind  Kind      `json:"kind"`
	PID   int       `json:"pid"`
	Since time.Time `json:"since,omitzero"`
}

// String names the holder for messages: "serve (pid 4242, since 2026-12-07 21:03 UTC)".
func (h Holder) String() string {
	kind := string(h.Kind)
	if kind == "" {
		kind = "another Hearth"
	}
	switch {
	case h.PID <= 0:
		return kind
	case h.Since.IsZero():
		return fmt.Sprintf("%s (pid %d)", kind, h.PID)
	}
	return fmt.Sprintf("%s (pid %d, since %s)", kind, h.PID, h.Since.Local().Format("2006-01-02 15:04 MST"))
}

// maxHolderBytes bounds what is read from the lock file: the record is a short line, so
// anything longer is not one (a file someone filled) and is not read further.
const maxHolderBytes = 512

// writeHolder replaces the file's content with h. It writes before it truncates, so a
// reader sees the old record or the new one followed by the old one's tail, which the
// decoder ignores — never a half record of its own.
func writeHolder(f *os.File, h Holder) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if _, err := f.WriteAt(b, 0); err != nil {
		return err
	}
	return f.Truncate(int64(len(b)))
}

// errNoHolder is a lock file with nothing in it yet.
var errNoHolder = errors.New("the lock file names no holder")

// readHolder reads the record at the start of f, at most maxHolderBytes of it.
func readHolder(f *os.File) (Holder, error) {
	buf := make([]byte, maxHolderBytes)
	n, err := f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return Holder{}, err
	}
	return ParseHolder(buf[:n])
}

// ParseHolder reads a lock file's record: the JSON Holder, or the bare pid an older
// Hearth wrote. Anything else is an error and a zero Holder.
func ParseHolder(data []byte) (Holder, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return Holder{}, errNoHolder
	}
	if data[0] != '{' {
		pid, err := strconv.Atoi(string(data))
		if err != nil || pid <= 0 {
			return Holder{}, fmt.Errorf("the lock file holds no record Hearth wrote (%d bytes)", len(data))
		}
		return Holder{PID: pid}, nil
	}
	var h Holder
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&h); err != nil {
		return Holder{}, fmt.Errorf("the lock file's record is damaged: %w", err)
	}
	switch h.Kind {
	case KindDesktop, KindServe, KindCLI:
	default:
		h.Kind = "" // a kind this build does not know is not repeated in messages
	}
	if h.PID < 0 {
		h.PID = 0
	}
	return h, nil
}

// settleTries and settlePause give a holder that has just taken the lock the moment
// it needs to write its record.
const (
	settleTries = 10
	settlePause = 20 * time.Millisecond
)

// settledHolder reads the holder of a lock someone else holds, waiting a moment when
// the file is still empty.
func settledHolder(f *os.File) (Holder, error) {
	for try := 1; ; try++ {
		h, err := readHolder(f)
		if !errors.Is(err, errNoHolder) || try == settleTries {
			return h, err
		}
		time.Sleep(settlePause)
	}
}

// Step is what a second desktop start does when the lock is held.
type Step int

const (
	// StepFocus brings the running desktop window forward (Wails' single instance).
	StepFocus Step = iota
	// StepRefuse tells the person a headless Hearth holds the data folder and exits:
	// there is no window to bring forward, and a second agent must not start.
	StepRefuse
)

// SecondDesktop decides what a desktop start does when h holds the lock. Only a holder
// that says it is headless (serve, or a command) is refused; a desktop or an unknown
// holder (an older Hearth, a record being written) is a window to focus, as before.
func SecondDesktop(h Holder) Step {
	switch h.Kind {
	case KindServe, KindCLI:
		return StepRefuse
	}
	return StepFocus
}
