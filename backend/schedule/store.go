package schedule

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/clip"
	"hearth/backend/internal/flock"
	"hearth/backend/internal/safefile"
)

// FileName is the jobs file inside the cron directory
// (docs/design/files-and-config.md#where-files-live).
const FileName = "jobs.json"

// HistoryLen is how many past runs a job keeps.
const HistoryLen = 20

// Job statuses (Job.LastStatus and RunRecord.Status).
const (
	StatusOK      = "ok"
	StatusError   = "error"
	StatusSkipped = "skipped" // a missed run skipped (by the missed-run choice, or the person's Skip)
	StatusStopped = "stopped" // the person stopped the run (the tray's Stop)
)

// JobSpec is what a caller gives to add a job.
type JobSpec struct {
	Name     string   `json:"name"`
	Message  string   `json:"message"`
	Schedule Schedule `json:"schedule"`
	// SessionID is the chat the job runs in; empty means its own "cron:<id>".
	SessionID string `json:"sessionId,omitempty"`
	// AllowTools are tools that need approval (exec, MCP) the user allowed
	// for this job's unattended runs (docs/design/safety-defaults.md#approval).
	AllowTools []string `json:"allowTools,omitempty"`
	// MissedRuns is what happens when its time passed while Hearth was closed:
	// MissedAsk, MissedCatchup or MissedSkip; empty follows schedule.missedRuns.
	MissedRuns string `json:"missedRuns,omitempty"`
	// NotifyIn is where the reminder notifies: NotifyDesktop, NotifyTelegram or
	// NotifyBoth; empty follows the channels' default (channels.notifyIn).
	NotifyIn string `json:"notifyIn,omitempty"`
	// NotifyChat is the channel chat the reminder was made in ("telegram:<chat>"):
	// it notifies there.
	NotifyChat string `json:"notifyChat,omitempty"`
}

// Where a reminder notifies (JobSpec.NotifyIn).
const (
	NotifyDesktop  = "desktop"
	NotifyTelegram = "telegram"
	NotifyBoth     = "both"
)

// Validate reports what is wrong with the spec, with a hint.
func (s JobSpec) Validate() error {
	if strings.TrimSpace(s.Message) == "" {
		return errors.New("a reminder needs a message (hint: what the agent should do or say when it is due)")
	}
	switch s.MissedRuns {
	case "", MissedAsk, MissedCatchup, MissedSkip:
	default:
		return fmt.Errorf("missed-run choice %q is unknown (hint: ask, catchup, skip, or empty for the setting)", s.MissedRuns)
	}
	switch s.NotifyIn {
	case "", NotifyDesktop, NotifyTelegram, NotifyBoth:
	default:
		return fmt.Errorf("notify-in choice %q is unknown (hint: desktop, telegram, both, or empty for the setting)", s.NotifyIn)
	}
	return s.Schedule.Validate()
}

// RunRecord is one past run of a job.
type RunRecord struct {
	At         time.Time `json:"at"`
	Status     string    `json:"status"`
	Error      string    `json:"error,omitempty"`
	RunID      string    `json:"runId,omitempty"`
	DurationMs int64     `json:"durationMs,omitempty"`
	// Due is, for a missed run that was skipped, when it was due (the window words it:
	// a skip is no error).
	Due time.Time `json:"due,omitzero"`
}

// Job is a stored reminder with its state.
type Job struct {
	ID string `json:"id"`
	JobSpec
	Paused  bool      `json:"paused,omitempty"`
	Created time.Time `json:"created"`
	// Done marks a one-shot that ran: it is kept (with its run, status and chat) for
	// the Reminders view's Done list and never runs again unless edited.
	Done bool `json:"done,omitempty"`
	// NextRun is zero when the job will not run again (a failed one-shot,
	// or a paused job).
	NextRun    time.Time   `json:"nextRun,omitzero"`
	LastRun    time.Time   `json:"lastRun,omitzero"`
	LastStatus string      `json:"lastStatus,omitempty"`
	LastError  string      `json:"lastError,omitempty"`
	History    []RunRecord `json:"history,omitempty"`
	// Description is the schedule in words (computed, not read back).
	Description string `json:"description,omitempty"`
}

// Session is the chat the job runs in.
func (j Job) Session() string {
	if j.SessionID != "" {
		return j.SessionID
	}
	return "cron:" + j.ID
}

// Title is the job's name, or the start of its message.
func (j Job) Title() string {
	if j.Name != "" {
		return j.Name
	}
	return clip.Runes(strings.TrimSpace(j.Message), 41)
}

func (j *Job) record(r RunRecord) {
	r.Error = clipError(r.Error)
	j.LastRun, j.LastStatus, j.LastError = r.At, r.Status, r.Error
	j.History = append(j.History, r)
	if len(j.History) > HistoryLen {
		j.History = append([]RunRecord(nil), j.History[len(j.History)-HistoryLen:]...)
	}
}

// NewJobID returns a short random id (8 hex digits), easy to type in
// `hearth cron remove ID`.
func NewJobID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// CorruptError says jobs.json cannot be read as a whole. The file is kept
// as it is and no write replaces it until the user fixes or moves it.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("reminders file %s is damaged: %v (hint: fix the JSON or move the file away; Hearth keeps it untouched and will not add reminders until then)", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// JobProblem is one entry of jobs.json that could not be used; the entry is
// kept in the file as it was.
type JobProblem struct {
	Index int    `json:"index"`
	ID    string `json:"id,omitempty"`
	Error string `json:"error"`
}

// fileData is jobs.json: the version, the usable jobs, and the raw text of
// entries that are not usable, so a save never drops what the user wrote.
type fileData struct {
	Jobs     []Job
	bad      []json.RawMessage
	Problems []JobProblem
}

type fileJSON struct {
	Version int               `json:"version"`
	Jobs    []json.RawMessage `json:"jobs"`
}

// Stat identifies a version of jobs.json cheaply (size, mtime, inode) so the
// scheduler notices when another process replaced it.
type Stat struct {
	Size  int64
	Mod   time.Time
	Inode uint64
}

// Store reads and writes jobs.json. Every change is a locked
// read-modify-write (flock on jobs.json.lock), so the desktop app and a CLI
// command never lose each other's edits.
type Store struct {
	dir string
}

// NewStore returns a store for dir (the cron directory).
func NewStore(dir string) *Store { return &Store{dir: dir} }

// Path is the jobs file.
func (s *Store) Path() string { return filepath.Join(s.dir, FileName) }

// Stat returns the file's identity; a missing file gives the zero Stat.
func (s *Store) Stat() Stat {
	fi, err := os.Stat(s.Path())
	if err != nil {
		return Stat{}
	}
	st := Stat{Size: fi.Size(), Mod: fi.ModTime()}
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.Inode = sys.Ino
	}
	return st
}

// Load reads the jobs. A missing file is no jobs. A file that is not JSON
// gives a *CorruptError; entries that are not valid jobs are left out and
// reported as problems, the rest load.
func (s *Store) Load() (jobs []Job, problems []JobProblem, err error) {
	d, err := s.read()
	if err != nil {
		return nil, nil, err
	}
	return d.Jobs, d.Problems, nil
}

func (s *Store) read() (*fileData, error) {
	data, err := safefile.ReadFile(s.Path(), maxJobsBytes)
	if errors.Is(err, os.ErrNotExist) {
		return &fileData{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read reminders %s: %w", s.Path(), err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return &fileData{}, nil
	}
	var f fileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, &CorruptError{Path: s.Path(), Err: err}
	}
	d := &fileData{}
	seen := map[string]bool{}
	for i, raw := range f.Jobs {
		var j Job
		err := json.Unmarshal(raw, &j)
		if err == nil {
			switch {
			case j.ID == "":
				err = errors.New("no id")
			case seen[j.ID]:
				err = fmt.Errorf("id %s is used twice", j.ID)
			default:
				err = j.Validate()
			}
		}
		if err != nil {
			d.bad = append(d.bad, raw)
			d.Problems = append(d.Problems, JobProblem{Index: i, ID: j.ID, Error: err.Error()})
			continue
		}
		seen[j.ID] = true
		j.Description = j.Schedule.Describe()
		d.Jobs = append(d.Jobs, j)
	}
	return d, nil
}

// Update runs fn on the jobs under the file lock and writes the result
// atomically when fn returns nil. A damaged file is never overwritten.
func (s *Store) Update(fn func(jobs []Job) ([]Job, error)) error {
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	d, err := s.read()
	if err != nil {
		return err
	}
	jobs, err := fn(d.Jobs)
	if err != nil {
		return err
	}
	return s.write(jobs, d.bad)
}

func (s *Store) lock() (func(), error) {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, fmt.Errorf("reminders: create %s: %w", s.dir, err)
	}
	release, err := flock.File(filepath.Join(s.dir, FileName+".lock"))
	if err != nil {
		return nil, fmt.Errorf("reminders: %w", err)
	}
	return release, nil
}

// write replaces jobs.json atomically (temp file, fsync, rename), keeping
// the file's mode and the entries that did not load.
func (s *Store) write(jobs []Job, bad []json.RawMessage) error {
	f := fileJSON{Version: 1, Jobs: make([]json.RawMessage, 0, len(jobs)+len(bad))}
	for _, j := range jobs {
		j.Description = ""
		raw, err := json.Marshal(j)
		if err != nil {
			return fmt.Errorf("reminders: encode job %s: %w", j.ID, err)
		}
		f.Jobs = append(f.Jobs, raw)
	}
	f.Jobs = append(f.Jobs, bad...)
	// Compact: it is read back against maxJobsBytes, and indenting made a large
	// file larger still (and re-indented the entries kept as they were).
	data, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("reminders: encode %s: %w", s.Path(), err)
	}
	data = append(data, '\n')
	if err := checkFile(len(data)); err != nil {
		return err
	}
	// A new file is 0600; an existing one keeps its mode.
	if err := atomicfile.Write(s.Path(), data, 0o600); err != nil {
		return fmt.Errorf("reminders: write %s: %w", s.Path(), err)
	}
	return nil
}
