package event

import "sync"

// Nav is a move the window is asked to make from outside its page: a clicked
// notification or the tray's recent chat opens a chat, the tray's New chat starts one.
type Nav struct {
	Kind      string `json:"kind"` // NavOpenChat or NavNewChat; "" is no move
	SessionID string `json:"sessionId,omitempty"`
}

// Kinds of Nav.
const (
	NavOpenChat = "openChat"
	NavNewChat  = "newChat"
)

// PendingNav hands the newest Nav to the page. The desktop also announces each move as an
// event, but a page that has not loaded yet (the app just started, the window is being
// made) does not listen and the event is gone; so the move is kept here and the page takes
// it when it loads, as the Quick ask box's state is asked for. A newer move replaces an
// older one (only the last click counts) and a move is taken once, so a later reload
// does not repeat it. The zero value holds nothing.
type PendingNav struct {
	mu  sync.Mutex
	nav Nav
}

// Set keeps n as the move to make, in place of any not yet taken.
func (p *PendingNav) Set(n Nav) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nav = n
}

// Take returns the move not yet taken and forgets it; ok is false when there is none.
func (p *PendingNav) Take() (n Nav, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n, p.nav = p.nav, Nav{}
	return n, n.Kind != ""
}
