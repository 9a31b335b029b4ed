package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"hearth/backend/internal/safefile"
	"hearth/backend/llm"
)

// Warning is a problem Load worked around: a skipped line or rebuilt
// metadata. Line is 1-based; 0 means the whole file.
type Warning struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

func (w Warning) String() string {
	if w.Line == 0 {
		return w.Message
	}
	return fmt.Sprintf("line %d: %s", w.Line, w.Message)
}

// Interrupted is a run that wrote messages but never its final line: the
// process stopped mid-turn. The UI offers to continue it.
type Interrupted struct {
	RunID string `json:"runId"`
	// First is the index in Session.Entries of the run's first message.
	First int `json:"first"`
	// Entries is the partial turn: every message the run wrote.
	Entries []Entry `json:"entries"`
}

// Session is a loaded session file.
type Session struct {
	Meta        Meta          `json:"meta"`
	Entries     []Entry       `json:"messages"`
	Runs        []Run         `json:"runs"`
	Interrupted []Interrupted `json:"interrupted,omitempty"`
	Warnings    []Warning     `json:"warnings,omitempty"`
}

// Messages returns the conversation as the model sees it.
func (s *Session) Messages() []llm.Message {
	out := make([]llm.Message, len(s.Entries))
	for i, e := range s.Entries {
		out[i] = e.Message
	}
	return out
}

// Load reads session id. Damage never makes it fail: torn or corrupt lines
// are skipped and a missing metadata line is rebuilt, each with a Warning.
func (s *Store) Load(id string) (*Session, error) {
	p, err := s.Path(id)
	if err != nil {
		return nil, fmt.Errorf("load session: %w", err)
	}
	data, modTime, err := readShared(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("load session %s: %w (it may have been deleted; see the trash)", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w (check the file's permissions)", id, err)
	}
	return parse(id, data, modTime), nil
}

// MaxFileBytes bounds a session file Hearth reads: a pipe, a device or a file
// past this size in the sessions folder is refused at once, never read forever.
const MaxFileBytes = 512 << 20

// readShared reads a whole file under a shared lock, so it never sees the
// half of a record another process is appending.
func readShared(path string) ([]byte, time.Time, error) {
	f, _, err := safefile.Open(path, MaxFileBytes)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	if err := flock(f, false); err != nil {
		return nil, time.Time{}, fmt.Errorf("lock: %w", err)
	}
	defer func() { _ = funlock(f) }()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	data := make([]byte, 0, fi.Size()+1)
	buf := bytes.NewBuffer(data)
	if _, err := io.Copy(buf, f); err != nil {
		return nil, time.Time{}, err
	}
	return buf.Bytes(), fi.ModTime(), nil
}

// parser folds the lines of a session file into a Session.
type parser struct {
	s         *Session
	title     string
	autoTitle string
	open      map[string]int // run id → index in s.Interrupted while open
	started   bool           // the first non-blank line was read
}

func parse(id string, data []byte, modTime time.Time) *Session {
	p := &parser{
		s:    &Session{Meta: Meta{ID: id, LastConsolidated: NoneConsolidated}},
		open: map[string]int{},
	}
	for n := 1; len(data) > 0; n++ {
		line, rest, complete := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		p.line(n, line, complete)
	}
	if !p.started {
		p.warn(0, "file is empty: metadata rebuilt from the file name")
	}
	p.finish(modTime)
	return p.s
}

func (p *parser) warn(line int, format string, args ...any) {
	p.s.Warnings = append(p.s.Warnings, Warning{Line: line, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) line(n int, line []byte, complete bool) {
	first := !p.started
	p.started = true
	kind := lineKind(line)
	var err error
	switch kind {
	case kindMeta:
		err = p.meta(n, line, first)
	case kindMessage:
		err = p.message(line)
	case kindRun:
		err = p.run(line)
	case kindUpdate:
		err = p.update(line)
	case "":
		err = errors.New("not a JSON object with a \"type\" field")
	default:
		if first {
			p.warn(n, "metadata line missing: metadata rebuilt from the file name")
		}
		p.warn(n, "unknown record type %q skipped (written by a newer Hearth?)", kind)
		return
	}
	if first && (kind != kindMeta || err != nil) {
		msg := "metadata line missing"
		if err != nil {
			msg = "metadata line unreadable"
		}
		p.warn(n, "%s: metadata rebuilt from the file name", msg)
		if err != nil {
			return
		}
	}
	switch {
	case err != nil && !complete:
		p.warn(n, "incomplete last line skipped (a write was cut off)")
	case err != nil:
		p.warn(n, "corrupt %s line skipped: %v", nonEmpty(kind, "unknown"), err)
	}
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (p *parser) meta(n int, line []byte, first bool) error {
	var m metaLine
	if err := json.Unmarshal(line, &m); err != nil {
		return err
	}
	if !first {
		p.warn(n, "extra metadata line ignored (only the first line holds full metadata)")
		return nil
	}
	meta := &p.s.Meta
	if m.ID != "" && m.ID != meta.ID {
		p.warn(n, "metadata names session %q but the file is %q: the file name wins", m.ID, meta.ID)
	}
	meta.Title, meta.Created, meta.Updated, meta.Model, meta.Archived = m.Title, m.Created, m.Updated, m.Model, m.Archived
	p.title = m.Title
	if m.LastConsolidated != nil {
		meta.LastConsolidated = *m.LastConsolidated
	}
	return nil
}

func (p *parser) touch(at time.Time) {
	if p.s.Meta.Created.IsZero() {
		p.s.Meta.Created = at
	}
	if at.After(p.s.Meta.Updated) {
		p.s.Meta.Updated = at
	}
}

func (p *parser) message(line []byte) error {
	var m messageLine
	if err := json.Unmarshal(line, &m); err != nil {
		return err
	}
	if m.Role == "" {
		return errors.New("message has no role")
	}
	s := p.s
	e := Entry{Message: m.Message, At: m.At, RunID: m.RunID}
	s.Entries = append(s.Entries, e)
	p.touch(m.At)
	if p.autoTitle == "" && m.Role == llm.RoleUser {
		p.autoTitle = AutoTitle(m.Content)
	}
	if m.RunID == "" {
		return nil
	}
	i, ok := p.open[m.RunID]
	if !ok {
		i = len(s.Interrupted)
		p.open[m.RunID] = i
		s.Interrupted = append(s.Interrupted, Interrupted{RunID: m.RunID, First: len(s.Entries) - 1})
	}
	s.Interrupted[i].Entries = append(s.Interrupted[i].Entries, e)
	return nil
}

func (p *parser) run(line []byte) error {
	var r runLine
	if err := json.Unmarshal(line, &r); err != nil {
		return err
	}
	if r.RunID == "" {
		return errors.New("run has no runId")
	}
	p.s.Runs = append(p.s.Runs, Run{ID: r.RunID, Status: r.Status, Final: r.Final, Error: r.Error,
		Usage: r.Usage, DurationMs: r.DurationMs, At: r.At})
	p.touch(r.At)
	if i, ok := p.open[r.RunID]; ok {
		p.s.Interrupted[i].RunID = "" // closed; dropped in finish
		delete(p.open, r.RunID)
	}
	return nil
}

func (p *parser) update(line []byte) error {
	var u updateLine
	if err := json.Unmarshal(line, &u); err != nil {
		return err
	}
	m := &p.s.Meta
	if u.Title != nil {
		p.title = *u.Title
	}
	if u.Model != nil {
		m.Model = *u.Model
	}
	if u.Archived != nil {
		m.Archived = *u.Archived
	}
	if u.LastConsolidated != nil {
		m.LastConsolidated = *u.LastConsolidated
	}
	return nil
}

func (p *parser) finish(modTime time.Time) {
	s := p.s
	s.Meta.Title = p.title
	if s.Meta.Title == "" {
		s.Meta.Title = p.autoTitle
	}
	if s.Meta.Created.IsZero() {
		s.Meta.Created = modTime
	}
	if s.Meta.Updated.IsZero() {
		s.Meta.Updated = s.Meta.Created
	}
	open := s.Interrupted[:0]
	for _, in := range s.Interrupted {
		if in.RunID != "" {
			open = append(open, in)
		}
	}
	s.Interrupted = open
	if len(open) == 0 {
		s.Interrupted = nil
	}
}
