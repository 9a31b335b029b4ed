package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/flock"
	"hearth/backend/internal/safefile"
)

// Errors callers can test for with errors.Is.
var (
	ErrNotFound = errors.New("session not found")
	ErrExists   = errors.New("session already exists")
)

// File modes: sessions may hold anything the user typed.
const (
	dirMode  fs.FileMode = 0o700
	fileMode fs.FileMode = 0o600
)

// TrashDir is the subdirectory of the sessions directory that holds deleted
// sessions until they are restored.
const TrashDir = ".trash"

// Options tune a Store; the zero value uses the real clock and NewID.
type Options struct {
	// Now is the clock written into lines.
	Now func() time.Time
	// NewID makes the id of a session created without one.
	NewID func(now time.Time) string
	// Mask hides secrets (API keys) in every line before it is written: a key the
	// model typed into tool arguments or a provider's error quoting one never
	// reaches the file. Nil writes lines as they are.
	Mask func(string) string
}

// Store is the sessions directory. It is safe for concurrent use; other
// processes may use the same directory at the same time.
type Store struct {
	dir   string
	now   func() time.Time
	newID func(time.Time) string
	mask  func(string) string

	mu    sync.Mutex
	cache map[string]*summaryState // List's per-file scan state, by path

	tmu    sync.Mutex
	tails  map[string]*tail // Load's parsed state of recent files, by path (tail.go)
	tick   uint64
	parsed int64 // bytes Load parsed, in all
}

// NewStore returns the store of sessions in dir. Nothing is touched on disk
// until the first write, which creates dir (0700).
func NewStore(dir string, opts Options) *Store {
	s := &Store{dir: dir, now: opts.Now, newID: opts.NewID, mask: opts.Mask, cache: map[string]*summaryState{}, tails: map[string]*tail{}}
	if s.now == nil {
		s.now = time.Now
	}
	if s.newID == nil {
		s.newID = NewID
	}
	return s
}

// Dir is the sessions directory.
func (s *Store) Dir() string { return s.dir }

// Path is the file of session id.
func (s *Store) Path(id string) (string, error) {
	stem, err := FileStem(id)
	if err != nil {
		return "", err
	}
	return filepath.Join(s.dir, stem+Ext), nil
}

// CreateOptions describe a new session. Every field is optional.
type CreateOptions struct {
	// ID is the session id; empty makes a fresh one. Special sessions use fixed
	// ids such as "heartbeat" or "cron:<job-id>".
	ID    string
	Title string
	Model string
}

// Create writes a new session file holding only its metadata line. It fails
// with ErrExists when the id is taken.
func (s *Store) Create(opts CreateOptions) (Meta, error) {
	now := stamp(s.now())
	m := Meta{ID: opts.ID, Title: singleLine(opts.Title), Created: now, Updated: now,
		Model: opts.Model, LastConsolidated: NoneConsolidated}
	if m.ID == "" {
		m.ID = s.newID(now)
	}
	p, err := s.Path(m.ID)
	if err != nil {
		return Meta{}, fmt.Errorf("create session: %w", err)
	}
	line, err := encodeMeta(nil, m)
	if err != nil {
		return Meta{}, fmt.Errorf("create session %s: encode metadata: %w", m.ID, err)
	}
	if err := os.MkdirAll(s.dir, dirMode); err != nil {
		return Meta{}, fmt.Errorf("create session %s: %w (check that the data directory is writable)", m.ID, err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if errors.Is(err, fs.ErrExist) {
		return Meta{}, fmt.Errorf("create session %s: %w (open it instead, or pick another id)", m.ID, ErrExists)
	}
	if err != nil {
		return Meta{}, fmt.Errorf("create session %s: %w (check that %s is writable)", m.ID, err, s.dir)
	}
	// Writers of an existing file wait for this lock, so nobody appends a
	// record before the metadata line.
	if err = flock.Lock(f, true); err == nil {
		_, err = f.Write(line)
	}
	if cerr := atomicfile.SyncClose(f); err == nil {
		err = cerr
	}
	if err != nil {
		return Meta{}, fmt.Errorf("create session %s: write metadata: %w (check free disk space)", m.ID, err)
	}
	atomicfile.SyncDir(s.dir)
	return m, nil
}

// Ensure creates session opts.ID unless it exists, and reports whether it
// did. It is how special sessions (heartbeat, cron jobs) come into being.
func (s *Store) Ensure(opts CreateOptions) (created bool, err error) {
	if opts.ID == "" {
		return false, errors.New("ensure session: empty id: pass the fixed id of the session")
	}
	_, err = s.Create(opts)
	if errors.Is(err, ErrExists) {
		return false, nil
	}
	return err == nil, err
}

// Append writes recs at the end of session id in one write under the file's
// lock. Callers append the user message before calling the model, each tool
// batch (assistant message with its calls, then the results) when it
// completes, and the last assistant message with the run's RunRecord. Append
// does not fsync: call Sync at turn boundaries.
func (s *Store) Append(id string, recs ...Record) error {
	if len(recs) == 0 {
		return nil
	}
	now := s.now()
	// buf[0] is a spare newline, written only when the file ends in a torn line.
	buf := make([]byte, 1, 256*len(recs))
	buf[0] = '\n'
	for i, r := range recs {
		var err error
		if buf, err = encodeRecord(buf, r, now); err != nil {
			return fmt.Errorf("append to session %s: record %d: %w", id, i, err)
		}
	}
	if s.mask != nil {
		// A key is letters, digits and -_. , none of which JSON escapes, so masking
		// the encoded lines finds it wherever a string holds it; [redacted] keeps
		// the line valid JSON.
		buf = []byte(s.mask(string(buf)))
	}
	if err := checkLines(buf[1:], MaxLineBytes); err != nil {
		return fmt.Errorf("append to session %s: %w", id, err)
	}
	if err := s.appendLines(id, buf); err != nil {
		return fmt.Errorf("append to session %s: %w", id, err)
	}
	return nil
}

// appendLines writes buf[1:] at the end of the session file, or all of buf
// (starting with its newline) when the file does not end in a newline, so a
// record never glues onto the bytes of a torn write.
func (s *Store) appendLines(id string, buf []byte) error {
	p, err := s.Path(id)
	if err != nil {
		return err
	}
	// A session moved to the trash between our open and our lock must not be
	// written: retry on the path, which then fails with ErrNotFound.
	for range 3 {
		// O_NONBLOCK changes nothing for a regular file, but spares the four
		// fcntl calls Go makes to try a blocking file with the poller (an
		// append a tool round), and a FIFO in its place cannot hang the open.
		f, err := os.OpenFile(p, os.O_RDWR|os.O_APPEND|syscall.O_NONBLOCK, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w (create it first; it may have been deleted)", ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("open: %w (check the permissions of the sessions directory)", err)
		}
		moved, err := s.writeLocked(f, p, buf)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if moved {
			continue
		}
		if err != nil {
			return fmt.Errorf("%w (check free disk space; the next append starts on a fresh line)", err)
		}
		return nil
	}
	return fmt.Errorf("%w (the file kept moving while appending)", ErrNotFound)
}

func (s *Store) writeLocked(f *os.File, path string, buf []byte) (moved bool, err error) {
	if err := flock.Lock(f, true); err != nil {
		return false, fmt.Errorf("lock: %w", err)
	}
	defer func() { _ = flock.Unlock(f) }()
	fi, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("stat: %w", err)
	}
	if pi, err := os.Stat(path); err != nil || !os.SameFile(fi, pi) {
		return true, nil
	}
	data := buf[1:]
	if size := fi.Size(); size > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], size-1); err != nil {
			return false, fmt.Errorf("read last byte: %w", err)
		}
		if last[0] != '\n' {
			data = buf
		}
	}
	if _, err := f.Write(data); err != nil {
		s.forget(path)
		return false, fmt.Errorf("write: %w", err)
	}
	if after, err := f.Stat(); err == nil {
		s.appended(path, fi, after, data)
	} else {
		s.forget(path)
	}
	return false, nil
}

// Sync flushes session id to disk. Call it at turn boundaries (after the
// user message and after the run line), not per message.
func (s *Store) Sync(id string) error {
	p, err := s.Path(id)
	if err != nil {
		return fmt.Errorf("sync session: %w", err)
	}
	f, _, err := safefile.Open(p, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("sync session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("sync session %s: %w (check the file's permissions)", id, err)
	}
	if err := atomicfile.SyncClose(f); err != nil {
		return fmt.Errorf("sync session %s: %w (the disk may be full or failing)", id, err)
	}
	return nil
}

// Rename sets the title of session id; an empty title goes back to the
// automatic one (from the first user message).
func (s *Store) Rename(id, title string) error {
	t := singleLine(title)
	return s.update(id, "rename", updateLine{Title: &t})
}

// SetModel records the model the session uses from now on.
func (s *Store) SetModel(id, model string) error {
	return s.update(id, "set model of", updateLine{Model: &model})
}

// Archive flags session id as archived (or not). Archived sessions stay in
// the sessions directory; List reports the flag.
func (s *Store) Archive(id string, archived bool) error {
	return s.update(id, "archive", updateLine{Archived: &archived})
}

// MarkConsolidated records that messages up to and including index were
// consolidated into memory (NoneConsolidated resets it).
func (s *Store) MarkConsolidated(id string, index int) error {
	if index < NoneConsolidated {
		return fmt.Errorf("mark session %s consolidated: index %d is negative: pass a message index or NoneConsolidated", id, index)
	}
	return s.update(id, "mark consolidated", updateLine{LastConsolidated: &index})
}

func (s *Store) update(id, op string, u updateLine) error {
	u.Type, u.At = kindUpdate, stamp(s.now())
	buf, err := encodeLine([]byte{'\n'}, u)
	if err == nil {
		err = s.appendLines(id, buf)
	}
	if err != nil {
		return fmt.Errorf("%s session %s: %w", op, id, err)
	}
	return nil
}

// singleLine trims t and turns its line breaks and tabs into spaces.
func singleLine(t string) string {
	return strings.Join(strings.Fields(t), " ")
}

// CloseInterrupted gives up interrupted run runID of session id: it writes
// the run's final line with StatusInterrupted, so the session is no longer
// flagged. The runner calls it when the user moves on instead of continuing.
func (s *Store) CloseInterrupted(id, runID string) error {
	if err := s.Append(id, RunRecord(Run{ID: runID, Status: StatusInterrupted})); err != nil {
		return fmt.Errorf("close interrupted run %s: %w", runID, err)
	}
	return nil
}
