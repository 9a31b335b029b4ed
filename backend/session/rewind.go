package session

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"hearth/backend/llm"
)

// kindRewind marks where the chat went back to: regenerating a reply or editing a
// question. The messages after it are not deleted (the file is append-only): they
// become an earlier version the window can still show.
//
//	{"type":"rewind","at":"2026-11-22T04:01:00Z","to":3}
//
// "to" counts the messages kept: the conversation goes on from the first three, and
// what followed them is Session.Branches' newest entry. A Hearth that does not know
// the line skips it with a warning and shows every version one after the other.
const kindRewind = "rewind"

type rewindLine struct {
	Type string    `json:"type"`
	At   time.Time `json:"at"`
	To   int       `json:"to"`
}

// Branch is an earlier version of a chat from message At on: what was answered (and,
// after an edit, asked) before the chat was rewound to At.
type Branch struct {
	// At is the index in Session.Entries where the version departs.
	At      int     `json:"at"`
	Entries []Entry `json:"messages"`
	// Runs are the run lines of the runs the version holds.
	Runs []Run `json:"runs"`
}

// Rewind makes the first to messages of session id its whole conversation from now
// on; the messages after them are kept as an earlier version (Session.Branches). A
// run then appends the new reply. to must not exceed the session's message count.
func (s *Store) Rewind(id string, to int) error {
	if to < 0 {
		return fmt.Errorf("rewind session %s: %d messages: want zero or more", id, to)
	}
	buf, err := encodeLine([]byte{'\n'}, rewindLine{Type: kindRewind, At: stamp(s.now()), To: to})
	if err == nil {
		err = s.appendLines(id, buf)
	}
	if err != nil {
		return fmt.Errorf("rewind session %s: %w", id, err)
	}
	return nil
}

// UserIndex is the index in Entries of the n-th user message (1-based), or -1.
func (s *Session) UserIndex(n int) int {
	for i, e := range s.Entries {
		if e.Role == llm.RoleUser {
			if n--; n == 0 {
				return i
			}
		}
	}
	return -1
}

func (p *parser) rewind(line []byte) error {
	var r rewindLine
	if err := json.Unmarshal(line, &r); err != nil {
		return err
	}
	s := p.s
	if r.To < 0 || r.To > len(s.Entries) {
		return fmt.Errorf("rewind to message %d of %d", r.To, len(s.Entries))
	}
	p.touch(r.At)
	b := Branch{At: r.To, Entries: slices.Clone(s.Entries[r.To:])}
	// The runs of the dropped messages go with them, and so does the run of a kept
	// question whose answer is regenerated (a failed run may have written no message).
	gone := map[string]bool{}
	for _, e := range b.Entries {
		if e.RunID != "" {
			gone[e.RunID] = true
		}
	}
	if r.To > 0 && s.Entries[r.To-1].Role == llm.RoleUser && s.Entries[r.To-1].RunID != "" {
		gone[s.Entries[r.To-1].RunID] = true
	}
	s.Runs = slices.DeleteFunc(s.Runs, func(run Run) bool {
		if gone[run.ID] {
			b.Runs = append(b.Runs, run)
			return true
		}
		return false
	})
	if len(b.Entries) == 0 && len(b.Runs) == 0 {
		return nil // nothing followed: no version to keep
	}
	// A turn that was left interrupted is superseded, not continuable.
	for id, first := range p.open {
		if gone[id] || first >= r.To {
			delete(p.open, id)
		}
	}
	// Versions of messages that are gone now belong to the version that replaced them.
	s.Branches = slices.DeleteFunc(s.Branches, func(o Branch) bool { return o.At > r.To })
	s.Branches = append(s.Branches, b)
	s.Entries = s.Entries[:r.To:r.To]
	s.Meta.LastConsolidated = min(s.Meta.LastConsolidated, r.To-1)
	if s.UserIndex(1) < 0 {
		p.autoTitle = "" // the first question was edited: the next one names the chat
	}
	return nil
}
