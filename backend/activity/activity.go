// Package activity is what Hearth is doing right now: the chats replying, the reminders
// and the heartbeat running their turns, a Dream pass. The tray lists it with a Stop for
// each (docs/reminders-and-tray.md#the-tray). The composition root feeds the Board from
// the runs' first and last events and Dream's start and end, and hears every change
// through Changed; nothing here polls.
package activity

import (
	"slices"
	"sync"
	"time"
)

// Kinds of work.
const (
	Chat      = "chat"      // a reply in a chat the person started
	Reminder  = "reminder"  // a reminder's unattended turn
	Heartbeat = "heartbeat" // the heartbeat's check of HEARTBEAT.md
	Dream     = "dream"     // a Dream pass over the memory files
)

// DreamID is the ID (and Run) of a Dream pass (one at a time).
const DreamID = "dream"

// Work is one thing running.
type Work struct {
	Kind string `json:"kind"`
	// ID is the chat the turn runs in (its session id), or DreamID: what Stop stops.
	ID string `json:"id"`
	// Run names this run on the board (the run's id): a slash command answered in a
	// chat whose reply runs is a run of its own there, and its end leaves the reply on.
	Run string `json:"run"`
	// Title is what the person knows it by: the chat's title, the reminder's name.
	Title   string    `json:"title"`
	Started time.Time `json:"started"`
	// Waiting counts the messages sent to the chat while it runs that wait for this
	// run (steers and queued turns, docs/chat.md#while-it-works): Stop holds them.
	Waiting int `json:"waiting,omitempty"`
}

// Board holds the running work. The zero value is not usable: make one with New.
type Board struct {
	changed func()

	mu      sync.Mutex
	items   []Work              // in the order they started
	waiting map[string][]string // by run: the ids of the messages waiting for it
}

// New returns an empty board; changed (may be nil) is called after every change,
// outside the board's lock.
func New(changed func()) *Board { return &Board{changed: changed} }

// Begin records w as running; work with the same Run is replaced.
func (b *Board) Begin(w Work) {
	b.mu.Lock()
	b.items = slices.DeleteFunc(b.items, func(x Work) bool { return x.Run == w.Run })
	b.items = append(b.items, w)
	b.mu.Unlock()
	b.tell()
}

// Wait records that message id waits for run (waiting true), or no longer does (a run
// took it, it was removed or held). An unknown run, or no change, changes nothing.
func (b *Board) Wait(run, id string, waiting bool) {
	b.mu.Lock()
	ids := b.waiting[run]
	has := slices.Contains(ids, id)
	known := slices.ContainsFunc(b.items, func(x Work) bool { return x.Run == run })
	changed := known && has != waiting
	if changed {
		if waiting {
			if b.waiting == nil {
				b.waiting = map[string][]string{}
			}
			b.waiting[run] = append(ids, id)
		} else if ids = slices.DeleteFunc(ids, func(x string) bool { return x == id }); len(ids) == 0 {
			delete(b.waiting, run)
		} else {
			b.waiting[run] = ids
		}
	}
	b.mu.Unlock()
	if changed {
		b.tell()
	}
}

// End records that the run has finished; an unknown run changes nothing.
func (b *Board) End(run string) {
	b.mu.Lock()
	n := len(b.items)
	b.items = slices.DeleteFunc(b.items, func(x Work) bool { return x.Run == run })
	gone := len(b.items) != n
	delete(b.waiting, run)
	b.mu.Unlock()
	if gone {
		b.tell()
	}
}

// List is the running work, oldest first.
func (b *Board) List() []Work {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := slices.Clone(b.items)
	for i := range out {
		out[i].Waiting = len(b.waiting[out[i].Run])
	}
	return out
}

func (b *Board) tell() {
	if b.changed != nil {
		b.changed()
	}
}
