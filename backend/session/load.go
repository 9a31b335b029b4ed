package session

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

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
	// Branches are the earlier versions of the chat, oldest first (see Rewind).
	Branches []Branch  `json:"branches,omitempty"`
	Warnings []Warning `json:"warnings,omitempty"`
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
//
// The store keeps the parsed state of the sessions it read last (see
// tail.go): a file nobody changed since is not read again, one that only grew
// is parsed from where it grew, and anything else is read whole. The Session
// returned is the caller's; its messages' inner slices (tool calls, images)
// are shared with that state and must not be modified in place.
func (s *Store) Load(id string) (*Session, error) {
	p, err := s.Path(id)
	if err != nil {
		return nil, fmt.Errorf("load session: %w", err)
	}
	sess, err := s.load(id, p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("load session %s: %w (it may have been deleted; see the trash)", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w (check the file's permissions)", id, err)
	}
	return sess, nil
}

// MaxFileBytes bounds a session file Hearth reads: a pipe, a device or a file
// past this size in the sessions folder is refused at once, never read forever.
const MaxFileBytes = 512 << 20

// Meta reads the metadata of session id (title, model, consolidation mark,
// …) as Load would, without copying its messages.
func (s *Store) Meta(id string) (Meta, error) {
	p, err := s.Path(id)
	if err != nil {
		return Meta{}, fmt.Errorf("read session: %w", err)
	}
	var m Meta
	err = s.withState(id, p, func(p *parser, modTime time.Time) { m = p.metaAsOf(modTime) })
	if errors.Is(err, fs.ErrNotExist) {
		return Meta{}, fmt.Errorf("read session %s: %w (it may have been deleted; see the trash)", id, ErrNotFound)
	}
	if err != nil {
		return Meta{}, fmt.Errorf("read session %s: %w (check the file's permissions)", id, err)
	}
	return m, nil
}

// parser folds the lines of a session file into a Session. It can be fed a
// file in pieces (complete lines), so that a file that grew is parsed only
// from where it grew; snapshot gives the Session as of the lines fed.
type parser struct {
	s         *Session // Interrupted is left empty: snapshot fills it from open
	title     string
	autoTitle string
	open      map[string]int // run id → index in s.Entries of its first message, while open
	started   bool           // the first non-blank line was read
	lines     int            // lines fed so far, blank ones included
	maxLine   int            // longer lines are skipped with a warning (MaxLineBytes)
}

func newParser(id string) *parser {
	return &parser{
		s:       &Session{Meta: Meta{ID: id, LastConsolidated: NoneConsolidated}},
		open:    map[string]int{},
		maxLine: MaxLineBytes,
	}
}

// parse reads a whole file.
func parse(id string, data []byte, modTime time.Time) *Session {
	p := newParser(id)
	p.feed(data)
	return p.snapshot(modTime)
}

// feed folds data, which starts at the beginning of a line, into the state.
// A last line without its newline is taken as the file's torn end.
func (p *parser) feed(data []byte) {
	if p.s.Entries == nil {
		// Most lines are messages: one allocation instead of a dozen growths.
		p.s.Entries = make([]Entry, 0, bytes.Count(data, []byte{'\n'})+1)
	}
	for len(data) > 0 {
		line, rest, complete := bytes.Cut(data, []byte{'\n'})
		data = rest
		if len(line) > p.maxLine {
			p.tooLong(int64(len(line)))
			continue
		}
		p.lines++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		p.line(p.lines, line, complete)
	}
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
		err = p.message(n, line)
	case kindRun:
		err = p.run(line)
	case kindUpdate:
		err = p.update(line)
	case kindRewind:
		err = p.rewind(line)
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
		p.warn(n, "corrupt %s line skipped: %v", cmp.Or(kind, "unknown"), err)
	}
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

func (p *parser) message(n int, line []byte) error {
	var m messageLine
	if err := decodeLine(line, &m); err != nil {
		return err
	}
	p.objectArgs(n, m.ToolCalls)
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
	if _, ok := p.open[m.RunID]; !ok {
		p.open[m.RunID] = len(s.Entries) - 1
	}
	return nil
}

// objectArgs makes every tool call's arguments a JSON object, as a model provider
// needs them in the history: one stored as a JSON string holding the object is
// unwrapped, anything else read as {} — each with a warning. Left as they were, one
// such line made every later turn of the chat fail.
func (p *parser) objectArgs(n int, calls []llm.ToolCall) {
	for i, tc := range calls {
		args := bytes.TrimSpace(tc.Arguments)
		if len(args) == 0 || args[0] == '{' && json.Valid(args) {
			continue
		}
		var s string
		if json.Unmarshal(args, &s) == nil {
			if inner := bytes.TrimSpace([]byte(s)); len(inner) > 0 && inner[0] == '{' && json.Valid(inner) {
				calls[i].Arguments = json.RawMessage(inner)
				p.warn(n, "the arguments of a %s call were stored as a JSON string: read as the object it holds", tc.Name)
				continue
			}
		}
		calls[i].Arguments = json.RawMessage("{}")
		p.warn(n, "the arguments of a %s call are not a JSON object: read as {}", tc.Name)
	}
}

func (p *parser) run(line []byte) error {
	var r runLine
	if err := decodeLine(line, &r); err != nil {
		return err
	}
	if r.RunID == "" {
		return errors.New("run has no runId")
	}
	p.s.Runs = append(p.s.Runs, Run{ID: r.RunID, Status: r.Status, Final: r.Final, Error: r.Error, Model: r.Model,
		Usage: r.Usage, DurationMs: r.DurationMs, At: r.At, Failure: r.Failure, Channel: r.Channel, Limit: knownLimit(r.Limit),
		Notes: r.Notes})
	p.touch(r.At)
	delete(p.open, r.RunID) // closed: no longer interrupted
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

// metaAsOf is the metadata as of the lines fed so far.
func (p *parser) metaAsOf(modTime time.Time) Meta {
	m := p.s.Meta
	m.Title = p.title
	m.Title = cmp.Or(m.Title, p.autoTitle)
	if m.Created.IsZero() {
		m.Created = modTime
	}
	if m.Updated.IsZero() {
		m.Updated = m.Created
	}
	return m
}

// snapshot is the Session as of the lines fed so far. It copies what later
// feeds would change, so the parser can go on after it.
func (p *parser) snapshot(modTime time.Time) *Session {
	src := p.s
	s := &Session{Meta: p.metaAsOf(modTime), Entries: slices.Clone(src.Entries), Runs: slices.Clone(src.Runs),
		Warnings: slices.Clone(src.Warnings), Branches: slices.Clone(src.Branches)}
	if !p.started {
		s.Warnings = append(s.Warnings, Warning{Message: "file is empty: metadata rebuilt from the file name"})
	}
	s.Interrupted = p.interrupted()
	return s
}

// interrupted lists the open runs in the order they started, each with its
// messages (those of other runs written meanwhile left out).
func (p *parser) interrupted() []Interrupted {
	var out []Interrupted
	for id, first := range p.open {
		in := Interrupted{RunID: id, First: first}
		for _, e := range p.s.Entries[first:] {
			if e.RunID == id {
				in.Entries = append(in.Entries, e)
			}
		}
		out = append(out, in)
	}
	slices.SortFunc(out, func(a, b Interrupted) int { return a.First - b.First })
	return out
}

// Conversation is what a run reads of its session.
type Conversation struct {
	Meta Meta
	// Messages are the conversation as the model sees it, with room to
	// append the run's new message without a copy.
	Messages    []llm.Message
	Interrupted []Interrupted
	// Warnings are the damaged lines Load worked around (the chat goes on).
	Warnings []Warning
}

// LoadConversation reads session id as Load does, keeping of each entry only
// its message: one copy of a long chat where Load and Messages make two.
func (s *Store) LoadConversation(id string) (*Conversation, error) {
	p, err := s.Path(id)
	if err != nil {
		return nil, fmt.Errorf("load session: %w", err)
	}
	var c *Conversation
	err = s.withState(id, p, func(p *parser, modTime time.Time) {
		c = &Conversation{Meta: p.metaAsOf(modTime), Interrupted: p.interrupted(),
			Messages: make([]llm.Message, len(p.s.Entries), len(p.s.Entries)+1), Warnings: slices.Clone(p.s.Warnings)}
		for i, e := range p.s.Entries {
			c.Messages[i] = e.Message
		}
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("load session %s: %w (it may have been deleted; see the trash)", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w (check the file's permissions)", id, err)
	}
	return c, nil
}

// knownLimit keeps a run's limit only when it names a budget the window knows
// ("toolRounds", "time"): anything else in a file is no reason to offer Continue.
func knownLimit(s string) string {
	if s == "toolRounds" || s == "time" {
		return s
	}
	return ""
}
