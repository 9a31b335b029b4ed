// Package audit keeps Hearth's audit log (docs/design/safety-defaults.md#audit-log): one JSON line per tool
// call — when, which session and run, which tool with which arguments
// (secrets masked), the approval decision, whether it worked, how long it
// took and how big the result was — in one file per day under
// $XDG_STATE_HOME/hearth/audit/YYYY-MM-DD.jsonl, kept for 30 days.
//
// The log is fed by the agent's event stream (Log.Observe is an event.Sink:
// tool_call, approval and tool_result events of every run), so it records
// exactly what the UI and the CLI saw.
package audit

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"hearth/backend/event"
	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/clip"
	"hearth/backend/internal/flock"
)

// DefaultKeepDays is how many days of audit files are kept.
const DefaultKeepDays = 30

// maxArgChars caps one string argument in a line (a write_file's content),
// so one call cannot make the log huge.
const maxArgChars = 2000

// Approval values of an Entry: Auto when the call needed no approval, else
// the grant that allowed it or the reason it was denied.
const (
	Auto       = "auto"       // no approval needed (mode, tools.approval.always)
	Once       = "once"       // the user allowed this call
	Chat       = "chat"       // allowed for the chat
	Always     = "always"     // allowed by tools.approval.always (or "Always allow" just now)
	Job        = "job"        // in an unattended run's allow-list
	Denied     = "denied"     // the user denied it
	Never      = "never"      // tools.approval.never
	Unattended = "unattended" // needed approval in an unattended run
	Cancelled  = "cancelled"  // the run stopped while it waited
	// Invalid: the arguments were refused before the gate was asked (a key
	// given twice or in two spellings of case, a missing or unknown field);
	// Args then hold what the model sent, Error why it was refused.
	Invalid = event.ScopeInvalid
	// Rule: the tool's own safety rules refused the call before anyone was asked.
	Rule = event.ScopeRule
)

// Entry is one line of the audit log.
type Entry struct {
	Time      time.Time `json:"time"`
	SessionID string    `json:"session"`
	RunID     string    `json:"run"`
	CallID    string    `json:"callId"`
	Tool      string    `json:"tool"`
	// Args are the call's arguments with secrets masked and long strings cut.
	Args     json.RawMessage `json:"args"`
	Approval string          `json:"approval"`
	// Asked is set when the user was asked about the call.
	Asked      bool  `json:"asked,omitempty"`
	OK         bool  `json:"ok"`
	DurationMs int64 `json:"durationMs"`
	// ResultSize is the length of the result the model read, in bytes.
	ResultSize int `json:"resultSize"`
	// Error is the first line of a failed result.
	Error string `json:"error,omitempty"`
}

// Options configure a Log.
type Options struct {
	// Dir holds the daily files (config.Paths.AuditDir).
	Dir string
	// Mask hides secret values in arguments and errors; nil masks only
	// arguments named like secrets (apiKey, token, password, …).
	Mask func(string) string
	// KeepDays is how many days of files are kept (default 30).
	KeepDays int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// OnError hears write failures (the event stream cannot report them).
	OnError func(error)
}

// Log writes and reads the audit log. It is safe for concurrent use; writers
// in other processes are serialised by an advisory lock on the day's file.
type Log struct {
	opts Options

	mu       sync.Mutex
	calls    map[string]*Entry // open calls by run id + call id
	pruned   string            // the day the last prune ran
	unsynced map[string]bool   // day files written since the last Sync
}

// New returns a Log over opts.Dir; nothing is written until the first call.
func New(opts Options) *Log {
	if opts.KeepDays <= 0 {
		opts.KeepDays = DefaultKeepDays
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Log{opts: opts, calls: map[string]*Entry{}, unsynced: map[string]bool{}}
}

// Dir is where the daily files are.
func (l *Log) Dir() string { return l.opts.Dir }

// Observe is an event.Sink: it turns tool_call, approval and tool_result
// events into entries.
func (l *Log) Observe(ev event.Event) {
	switch d := ev.Data.(type) {
	case event.ToolCallData:
		l.mu.Lock()
		l.calls[ev.RunID+"\x00"+d.CallID] = &Entry{Time: l.opts.Now(), SessionID: ev.SessionID, RunID: ev.RunID,
			CallID: d.CallID, Tool: d.Name, Args: l.maskArgs(d.Args), Approval: Auto}
		l.mu.Unlock()
	case event.ApprovalData:
		l.mu.Lock()
		if e := l.calls[ev.RunID+"\x00"+d.CallID]; e != nil {
			if d.State == "requested" {
				e.Asked = true
			} else {
				e.Approval = approvalValue(d)
			}
		}
		l.mu.Unlock()
	case event.ToolResultData:
		key := ev.RunID + "\x00" + d.CallID
		l.mu.Lock()
		e := l.calls[key]
		delete(l.calls, key)
		l.mu.Unlock()
		if e == nil {
			e = &Entry{Time: l.opts.Now(), SessionID: ev.SessionID, RunID: ev.RunID, CallID: d.CallID, Tool: d.Name,
				Args: json.RawMessage("{}"), Approval: Auto}
		}
		e.OK, e.DurationMs, e.ResultSize = d.OK, d.DurationMs, len(d.Content)
		if !d.OK {
			e.Error = l.mask(clip.Line(d.Content, 300))
		}
		if err := l.Write(*e); err != nil && l.opts.OnError != nil {
			l.opts.OnError(err)
		}
	case event.FinishedData:
		l.mu.Lock()
		for k := range l.calls {
			if strings.HasPrefix(k, ev.RunID+"\x00") {
				delete(l.calls, k)
			}
		}
		l.mu.Unlock()
		if err := l.Sync(); err != nil && l.opts.OnError != nil {
			l.opts.OnError(err)
		}
	}
}

func approvalValue(d event.ApprovalData) string {
	if d.State == "allowed" {
		if d.Scope == "" {
			return Once
		}
		return d.Scope
	}
	switch d.Scope {
	case Never, Unattended, Cancelled, Invalid, Rule:
		return d.Scope
	}
	return Denied
}

// Write appends one entry to its day's file (created 0600 in a 0700
// directory); on the first write of a day, files older than KeepDays are
// removed. The entry is on disk for every reader at once, and made durable
// by the next Sync: Observe syncs when a run finishes, as the session file
// is synced at the turn's end, instead of once per tool call (an fsync per
// call was a good part of a tool round's cost).
func (l *Log) Write(e Entry) error {
	if e.Time.IsZero() {
		e.Time = l.opts.Now()
	}
	if len(e.Args) == 0 {
		e.Args = json.RawMessage("{}")
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	line = append(line, '\n')
	day := e.Time.Local().Format(time.DateOnly)
	l.mu.Lock()
	defer l.mu.Unlock()
	if today := l.opts.Now().Local().Format(time.DateOnly); l.pruned != today {
		if err := os.MkdirAll(l.opts.Dir, 0o700); err != nil {
			return fmt.Errorf("audit: create %s: %w", l.opts.Dir, err)
		}
		l.pruned = today
		if err := l.prune(); err != nil {
			return err
		}
	}
	path := filepath.Join(l.opts.Dir, day+".jsonl")
	if err := os.MkdirAll(l.opts.Dir, 0o700); err != nil {
		return fmt.Errorf("audit: create %s: %w", l.opts.Dir, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	// Another process may append to the same day's file.
	if flock.Lock(f, true) == nil {
		defer func() { _ = flock.Unlock(f) }()
	}
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("audit: write %s: %w", path, err)
	}
	l.unsynced[path] = true
	return nil
}

// Sync makes the entries written so far durable.
func (l *Log) Sync() error {
	l.mu.Lock()
	paths := slices.Collect(maps.Keys(l.unsynced))
	clear(l.unsynced)
	l.mu.Unlock()
	var first error
	for _, p := range paths {
		f, err := os.Open(p)
		if err == nil {
			err = atomicfile.SyncClose(f)
		}
		if err != nil && !os.IsNotExist(err) && first == nil {
			first = fmt.Errorf("audit: sync %s: %w (the disk may be full or failing)", p, err)
		}
	}
	return first
}

func (l *Log) prune() error {
	days, err := l.days()
	if err != nil {
		return err
	}
	now := l.opts.Now().Local()
	cutoff := time.Date(now.Year(), now.Month(), now.Day()-l.opts.KeepDays+1, 0, 0, 0, 0, time.Local).Format(time.DateOnly)
	for _, d := range days {
		if d < cutoff {
			if err := os.Remove(filepath.Join(l.opts.Dir, d+".jsonl")); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("audit: remove old file: %w", err)
			}
		}
	}
	return nil
}

// days lists the dates that have a file, oldest first.
func (l *Log) days() ([]string, error) {
	ents, err := os.ReadDir(l.opts.Dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	var days []string
	for _, e := range ents {
		d, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() {
			continue
		}
		if _, err := time.Parse(time.DateOnly, d); err == nil {
			days = append(days, d)
		}
	}
	sort.Strings(days)
	return days, nil
}

// secretKey matches argument names whose values are secrets whatever they are.
var secretKey = regexp.MustCompile(`(?i)(api[_-]?key|secret|token|passw(or)?d|authorization|credential|^key$)`)

// maskArgs returns args as compact JSON with secret-named values redacted,
// long strings cut and known secrets masked.
func (l *Log) maskArgs(raw json.RawMessage) json.RawMessage {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		b, _ := json.Marshal(l.mask(clip.Bytes(string(raw), maxArgChars)))
		return b
	}
	v = scrub(v)
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("{}")
	}
	masked := l.mask(string(b))
	if !json.Valid([]byte(masked)) {
		b, _ = json.Marshal(masked)
		return b
	}
	return json.RawMessage(masked)
}

func scrub(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, ok := val.(string); ok && s != "" && secretKey.MatchString(k) {
				x[k] = "[redacted]"
				continue
			}
			x[k] = scrub(val)
		}
	case []any:
		for i := range x {
			x[i] = scrub(x[i])
		}
	case string:
		return clip.Bytes(x, maxArgChars)
	}
	return v
}

func (l *Log) mask(s string) string {
	if l.opts.Mask == nil {
		return s
	}
	return l.opts.Mask(s)
}
