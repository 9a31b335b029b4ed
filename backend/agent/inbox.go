package agent

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"hearth/backend/session"
)

// ErrNoPending is what an edit, a removal or a send of a pending message fails with
// when the message is no longer waiting (a run took it, or it was removed).
var ErrNoPending = errors.New("the message is no longer waiting (hint: a run already took it, or it was removed)")

// inbox holds, per chat, the messages sent while a run of it went on, in the order
// sent (docs/chat.md#while-it-works). Every change is written to the chat's pending
// file before it is told; a message a run takes stays in the file until the session
// holds it, so a crash at any point loses none (at worst it is offered again).
//
// Lock order: Runner.mu, then inbox.mu, then a run's emitter.
type inbox struct {
	mu    sync.Mutex
	store *session.Store
	now   func() time.Time
	lists map[string][]item // by session; a missing key is not read yet
}

type item struct {
	session.Pending
	taking bool // a run took it: in the file until the session holds it, no longer editable
}

func newInbox(store *session.Store, now func() time.Time) *inbox {
	return &inbox{store: store, now: now, lists: map[string][]item{}}
}

// listLocked is the session's list, read from its file the first time. What an
// earlier process saved is held: offered again, never run by itself.
func (b *inbox) listLocked(sid string) ([]item, error) {
	if l, ok := b.lists[sid]; ok {
		return l, nil
	}
	saved, err := b.store.LoadPending(sid)
	l := make([]item, 0, len(saved))
	for _, p := range saved {
		p.Held = true
		l = append(l, item{Pending: p})
	}
	b.lists[sid] = l // a bad file was moved aside: the list starts empty
	return l, err
}

// saveLocked writes the session's list, the taken ones included.
func (b *inbox) saveLocked(sid string, l []item) error {
	ps := make([]session.Pending, len(l))
	for i, it := range l {
		ps[i] = it.Pending
	}
	if err := b.store.SavePending(sid, ps); err != nil {
		return err
	}
	b.lists[sid] = l
	return nil
}

// addLocked appends a new message and saves; nothing changes when the save fails.
func (b *inbox) addLocked(sid, text, mode, channel string) (session.Pending, error) {
	l, err := b.listLocked(sid)
	if err != nil {
		return session.Pending{}, err
	}
	if len(l) >= session.MaxPending {
		return session.Pending{}, fmt.Errorf("%d messages already wait for this chat (hint: wait for the turn to end, or remove some)", len(l))
	}
	p := session.Pending{ID: newPendingID(), Mode: mode, Text: text, At: b.now().UTC().Format(time.RFC3339), Channel: channel}
	if err := session.CheckPending(p); err != nil {
		return session.Pending{}, fmt.Errorf("send: %w", err)
	}
	if err := b.saveLocked(sid, append(slices.Clip(l), item{Pending: p})); err != nil {
		return session.Pending{}, err
	}
	return p, nil
}

// changeLocked applies fn to the waiting message id and saves.
func (b *inbox) changeLocked(sid, id string, fn func(*session.Pending)) (session.Pending, error) {
	l, i, err := b.findLocked(sid, id)
	if err != nil {
		return session.Pending{}, err
	}
	l = slices.Clone(l)
	fn(&l[i].Pending)
	if err := session.CheckPending(l[i].Pending); err != nil {
		return session.Pending{}, err
	}
	if err := b.saveLocked(sid, l); err != nil {
		return session.Pending{}, err
	}
	return l[i].Pending, nil
}

// removeLocked drops the waiting message id and saves.
func (b *inbox) removeLocked(sid, id string) (session.Pending, error) {
	l, i, err := b.findLocked(sid, id)
	if err != nil {
		return session.Pending{}, err
	}
	p := l[i].Pending
	return p, b.saveLocked(sid, slices.Delete(slices.Clone(l), i, i+1))
}

// findLocked is sid's list and where in it the waiting message id is, not yet taken.
func (b *inbox) findLocked(sid, id string) ([]item, int, error) {
	l, err := b.listLocked(sid)
	if err != nil {
		return nil, 0, err
	}
	i := slices.IndexFunc(l, func(it item) bool { return it.ID == id && !it.taking })
	if i < 0 {
		return nil, 0, ErrNoPending
	}
	return l, i, nil
}

// takeLocked marks the waiting messages pick chooses as taken and returns them, in
// order. Marking changes nothing on disk.
func (b *inbox) takeLocked(sid string, pick func(session.Pending) bool) []session.Pending {
	l := b.lists[sid] // a list never read has nothing for a running turn
	var out []session.Pending
	for i := range l {
		if !l[i].taking && !l[i].Held && pick(l[i].Pending) {
			l[i].taking = true
			out = append(out, l[i].Pending)
		}
	}
	return out
}

// takeOneLocked marks the waiting message id taken, held or not.
func (b *inbox) takeOneLocked(sid, id string) (session.Pending, error) {
	l, i, err := b.findLocked(sid, id)
	if err != nil {
		return session.Pending{}, err
	}
	l[i].taking = true
	return l[i].Pending, nil
}

// done drops taken messages once the session holds them.
func (b *inbox) done(sid string, ids ...string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := slices.DeleteFunc(slices.Clone(b.lists[sid]), func(it item) bool { return it.taking && slices.Contains(ids, it.ID) })
	return b.saveLocked(sid, l)
}

// untake puts taken messages back, waiting (held when hold): the run that took them
// could not record them.
func (b *inbox) untake(sid string, hold bool, ids ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := b.lists[sid]
	for i := range l {
		if l[i].taking && slices.Contains(ids, l[i].ID) {
			l[i].taking, l[i].Held = false, l[i].Held || hold
		}
	}
	_ = b.saveLocked(sid, l) // the held flag only; the messages are in the file either way
}

// holdLocked marks every waiting message held (its run ended without taking it) and
// returns them.
func (b *inbox) holdLocked(sid string) []session.Pending {
	l := b.lists[sid]
	var out []session.Pending
	for i := range l {
		if !l[i].taking && !l[i].Held {
			l[i].Held = true
			out = append(out, l[i].Pending)
		}
	}
	if len(out) > 0 {
		_ = b.saveLocked(sid, l) // in memory already; a failed save only loses the flag
	}
	return out
}

// waiting is the session's list as the window shows it: all but the taken ones.
func (b *inbox) waiting(sid string) ([]session.Pending, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	l, err := b.listLocked(sid)
	out := make([]session.Pending, 0, len(l))
	for _, it := range l {
		if !it.taking {
			out = append(out, it.Pending)
		}
	}
	return out, err
}

// newPendingID is 8 random hex digits after a p.
func newPendingID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "p" + hex.EncodeToString(b[:])
}
