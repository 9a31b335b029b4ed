package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"

	"hearth/backend/i18n"
)

// The memory inbox (docs/memory.md#the-memory-inbox): with "Review memory changes"
// on, what Dream, consolidation and the model's remember tool write to MEMORY.md,
// USER.md and SOUL.md waits as
// a proposal — the file's text then and the change as hunks — until the user
// approves (possibly edited) or rejects each hunk. A proposal older than the set
// time is applied or dropped, as the user chose.

// ReviewSettings are the inbox's settings (config.json's memory.review).
type ReviewSettings struct {
	Enabled bool `json:"enabled"`
	// ExpireHours is how long a proposal waits (0: forever).
	ExpireHours int `json:"expireHours"`
	// OnExpiry is "apply" or "discard" (the default).
	OnExpiry string `json:"onExpiry"`
}

// Hunk is one change of a proposal: Old lines replaced by New, at line OldStart
// (0-based) of the proposal's base text; Before is the line above, to place an
// insertion when the file moved on.
type Hunk struct {
	ID       int      `json:"id"`
	OldStart int      `json:"oldStart"`
	Old      []string `json:"old"`
	New      []string `json:"new"`
	Before   string   `json:"before,omitempty"`
	Status   string   `json:"status"` // pending, approved, rejected, failed
	Error    string   `json:"error,omitempty"`
	// Failure is Error for the window, in the UI language.
	Failure *i18n.Message `json:"failure,omitempty"`
}

// Proposal is one held change of one file.
type Proposal struct {
	ID      string    `json:"id"`
	File    string    `json:"file"`
	Author  string    `json:"author"`
	Reason  string    `json:"reason"`
	Created time.Time `json:"created"`
	Hunks   []Hunk    `json:"hunks"`
}

// Inbox holds the proposals of one workspace.
type Inbox struct {
	store *Store
	now   func() time.Time
	mu    sync.Mutex
	// get and set read and write the settings (the config); without them they
	// live in memory only.
	get func() ReviewSettings
	set func(ReviewSettings) error
	rs  ReviewSettings
}

func newInbox(st *Store, get func() ReviewSettings, set func(ReviewSettings) error) *Inbox {
	in := &Inbox{store: st, now: time.Now, get: get, set: set}
	st.setReview(in.hold)
	return in
}

// reviewed are the files whose changes can be held, and by whom: every memory write
// that is not the user's own — the model's remember tool, consolidation and Dream.
func reviewed(name string, o Origin) bool {
	return (o.Author == AuthorDream || o.Author == AuthorConsolidation || o.Author == AuthorAgent) &&
		(name == MemoryFile || name == "USER.md" || name == "SOUL.md")
}

// Settings returns the inbox's settings.
func (in *Inbox) Settings() ReviewSettings {
	rs := in.rs
	if in.get != nil {
		rs = in.get()
	}
	if rs.OnExpiry != "apply" {
		rs.OnExpiry = "discard"
	}
	return rs
}

// SetSettings saves the inbox's settings.
func (in *Inbox) SetSettings(rs ReviewSettings) error {
	if rs.OnExpiry != "apply" && rs.OnExpiry != "discard" && rs.OnExpiry != "" {
		return fmt.Errorf("review memory changes: on expiry %q is unknown (hint: apply or discard)", rs.OnExpiry)
	}
	if rs.ExpireHours < 0 {
		return errors.New("review memory changes: the expiry must not be negative (hint: 0 keeps proposals until decided)")
	}
	if rs.OnExpiry == "" {
		rs.OnExpiry = "discard"
	}
	if in.set != nil {
		return in.set(rs)
	}
	in.rs = rs
	return nil
}

// hold is the store's review gate: with review on, a reviewed change becomes a
// proposal instead of a write. It runs under the store's lock with the file's
// current text.
func (in *Inbox) hold(name string, cur File, next string, o Origin) (bool, error) {
	if !reviewed(name, o) || !in.Settings().Enabled || next == cur.Content {
		return false, nil
	}
	p := Proposal{ID: in.now().UTC().Format("20060102T150405.000000000"), File: name, Author: o.Author, Reason: o.Reason,
		Created: in.now(), Hunks: hunks(cur.Content, next)}
	if len(p.Hunks) == 0 {
		return true, nil
	}
	// Not under in.mu: this runs under the store's lock, and Decide holds in.mu
	// while it writes through the store — the other order would deadlock. A new
	// proposal is a new file, written whole, so nothing else needs guarding.
	err := in.save(p)
	if err == nil {
		in.store.notify(name) // the sidebar shows the new proposal
	}
	return true, err
}

// maxProposal bounds a proposal file: a memory file's text and its change.
const maxProposal = 16 << 20

// dir is the inbox folder, in the workspace's state folder ("" without one).
func (in *Inbox) dir() string {
	if d := in.store.StateDir(); d != "" {
		return filepath.Join(d, "inbox")
	}
	return ""
}

func (in *Inbox) save(p Proposal) error {
	if in.dir() == "" {
		return errors.New("memory inbox: no state folder to keep the proposal in")
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err == nil && len(b) >= maxProposal {
		err = fmt.Errorf("the proposal is %d bytes, more than the inbox reads (%d) (hint: turn off Review memory changes for this change, or shorten the file)", len(b), maxProposal)
	}
	if err == nil {
		err = writeState(in.store.StateDir(), "inbox/"+p.ID+".json", append(b, '\n'))
	}
	if err != nil {
		return fmt.Errorf("memory inbox: %w", err)
	}
	return nil
}

// List returns the waiting proposals, oldest first, after applying or dropping the
// expired ones.
func (in *Inbox) List() ([]Proposal, error) {
	if err := in.Expire(); err != nil {
		return nil, err
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.list()
}

func (in *Inbox) list() ([]Proposal, error) {
	dir := in.dir()
	if dir == "" {
		return []Proposal{}, nil
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return []Proposal{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("memory inbox: %w", err)
	}
	out := []Proposal{}
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") || e.Name() == "settings.json" {
			continue
		}
		b, err := readState(dir, e.Name(), maxProposal)
		if err != nil {
			continue
		}
		var p Proposal
		if json.Unmarshal(b, &p) != nil || p.ID == "" || !reviewed(p.File, Origin{Author: AuthorDream}) {
			continue // a damaged proposal is left in the folder, never applied
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Decide approves or rejects one hunk ("approve", "reject"); text, when not nil,
// replaces the hunk's new lines (the user edited it). An approved hunk is written
// to the file at once, as the proposal's author, noting the approval.
func (in *Inbox) Decide(id string, hunk int, action string, text *string) (Proposal, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	ps, err := in.list()
	if err != nil {
		return Proposal{}, err
	}
	var p *Proposal
	for i := range ps {
		if ps[i].ID == id {
			p = &ps[i]
		}
	}
	if p == nil {
		return Proposal{}, &Error{Msg: i18n.M("memory.inbox.noProposal", "id", id)}
	}
	if hunk < 0 || hunk >= len(p.Hunks) || p.Hunks[hunk].Status != "pending" {
		return *p, &Error{Msg: i18n.M("memory.inbox.notWaiting", "hunk", strconv.Itoa(hunk+1))}
	}
	h := &p.Hunks[hunk]
	switch action {
	case "reject":
		h.Status = "rejected"
	case "approve":
		if text != nil {
			t := *text
			if t != "" && !strings.HasSuffix(t, "\n") {
				t += "\n"
			}
			h.New = slices.Collect(strings.Lines(t))
		}
		if err := in.apply(*p, *h, "approved"); err != nil {
			h.Status, h.Error, h.Failure = "failed", err.Error(), failureOf(err)
		} else {
			h.Status = "approved"
		}
	default:
		return *p, &Error{Msg: i18n.M("memory.inbox.badAction", "action", action)}
	}
	return *p, in.finish(*p)
}

// finish removes a proposal with nothing left waiting, or saves its new state.
func (in *Inbox) finish(p Proposal) error {
	for _, h := range p.Hunks {
		if h.Status == "pending" {
			return in.save(p)
		}
	}
	dir := in.dir()
	if dir == "" {
		return nil
	}
	if err := os.Remove(filepath.Join(dir, p.ID+".json")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("memory inbox: %w", err)
	}
	return nil
}

// apply writes one hunk into the file as it is now.
func (in *Inbox) apply(p Proposal, h Hunk, how string) error {
	o := Origin{Author: p.Author, Reason: strings.TrimSpace(p.Reason) + " (" + how + " in the memory inbox)", Approved: true}
	var applyErr error
	_, err := in.store.update(p.File, o, func(cur File) (string, *Conflict) {
		next, err := applyHunk(cur.Content, h)
		if err != nil {
			applyErr = &Error{Msg: i18n.M("memory.inbox.linesGone", "file", p.File), Err: err}
			return cur.Content, nil
		}
		return next, nil
	})
	return errors.Join(err, applyErr)
}

// failureOf is the message of err for the window, nil when it has none.
func failureOf(err error) *i18n.Message {
	var e *Error
	if errors.As(err, &e) {
		m := e.Msg
		return &m
	}
	return nil
}

// Expire applies or drops (ReviewSettings.OnExpiry) the pending hunks of proposals
// older than the set time.
func (in *Inbox) Expire() error {
	rs := in.Settings()
	if rs.ExpireHours <= 0 {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	ps, err := in.list()
	if err != nil {
		return err
	}
	cutoff := in.now().Add(-time.Duration(rs.ExpireHours) * time.Hour)
	var errs []error
	for _, p := range ps {
		if !p.Created.Before(cutoff) {
			continue
		}
		for i := range p.Hunks {
			h := &p.Hunks[i]
			if h.Status != "pending" {
				continue
			}
			h.Status = "rejected"
			if rs.OnExpiry == "apply" {
				if err := in.apply(p, *h, "applied on expiry"); err != nil {
					h.Status, h.Error, h.Failure = "failed", err.Error(), failureOf(err)
					continue
				}
				h.Status = "approved"
			}
		}
		errs = append(errs, in.finish(p))
	}
	return errors.Join(errs...)
}

// hunks splits the change from base to next into hunks of consecutive changed lines.
func hunks(base, next string) []Hunk {
	var out []Hunk
	line := 0
	var cur *Hunk
	prev := ""
	flush := func() {
		if cur != nil {
			cur.ID = len(out)
			out = append(out, *cur)
			cur = nil
		}
	}
	for _, d := range diff.Do(base, next) {
		lines := slices.Collect(strings.Lines(d.Text))
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			flush()
			line += len(lines)
			if len(lines) > 0 {
				prev = lines[len(lines)-1]
			}
		case diffmatchpatch.DiffDelete:
			if cur == nil {
				cur = &Hunk{OldStart: line, Before: prev, Status: "pending"}
			}
			cur.Old = append(cur.Old, lines...)
			line += len(lines)
		case diffmatchpatch.DiffInsert:
			if cur == nil {
				cur = &Hunk{OldStart: line, Before: prev, Status: "pending"}
			}
			cur.New = append(cur.New, lines...)
		}
	}
	flush()
	return out
}

// applyHunk replaces the hunk's old lines in text — found nearest to where they
// were — or inserts its new lines after the line that preceded them.
func applyHunk(text string, h Hunk) (string, error) {
	lines := slices.Collect(strings.Lines(text))
	at := -1
	if len(h.Old) > 0 {
		best := -1
		for i := 0; i+len(h.Old) <= len(lines); i++ {
			if slices.Equal(lines[i:i+len(h.Old)], h.Old) && (best < 0 || abs(i-h.OldStart) < abs(best-h.OldStart)) {
				best = i
			}
		}
		if best < 0 {
			return text, errors.New("the lines this change replaces are no longer in the file")
		}
		at = best
	} else {
		at = max(0, min(h.OldStart, len(lines))) // a damaged proposal's place is clamped
		if h.Before != "" {
			for i, l := range lines {
				if l == h.Before {
					at = i + 1
					break
				}
			}
		}
	}
	out := append(append(append([]string{}, lines[:at]...), h.New...), lines[at+len(h.Old):]...)
	return strings.Join(out, ""), nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
