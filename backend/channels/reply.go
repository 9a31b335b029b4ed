package channels

import (
	"context"
	"strings"
	"time"
)

// Reply streams one answer into a chat as the platform expects: the text grows
// in ONE message, edited at most once per Every (Telegram allows about one edit
// a second), and when it passes the channel's Limit it is split at a paragraph
// boundary: the earlier part is frozen in its message and the rest goes on in a
// new one. The clock is injected, so tests read the Send/Edit calls, not timing.
type Reply struct {
	ch     Channel
	chatID string
	limit  int           // UTF-16 units one message may carry (how Telegram counts)
	every  time.Duration // least time between two edits of one message
	now    func() time.Time

	msgID    string // the message being grown, "" before its first Send
	cur      string // its whole text
	shown    string // what it shows now
	lastEdit time.Time
	sent     bool // anything was shown at all
	err      error
}

// NewReply starts an answer in chatID; nothing is sent before the first text.
func NewReply(ch Channel, chatID string, every time.Duration, now func() time.Time) *Reply {
	limit := ch.Limit()
	if limit <= 0 {
		limit = 4096
	}
	return &Reply{ch: ch, chatID: chatID, limit: limit, every: every, now: now}
}

// Write adds streamed text and shows it when an edit is due.
func (r *Reply) Write(ctx context.Context, text string) {
	if text == "" {
		return
	}
	r.cur += text
	r.split(ctx)
	r.flush(ctx, false)
}

// Line adds a line of its own (a tool call, an error): it starts a paragraph.
func (r *Reply) Line(ctx context.Context, line string) {
	if strings.TrimSpace(r.cur) != "" && !strings.HasSuffix(r.cur, "\n\n") {
		r.cur = strings.TrimRight(r.cur, "\n") + "\n\n"
	}
	r.Write(ctx, line+"\n\n")
}

// Break freezes what is shown and sends what follows in a new message (after an
// approval card, the answer goes on below it).
func (r *Reply) Break(ctx context.Context) {
	r.flush(ctx, true)
	r.msgID, r.cur, r.shown = "", "", ""
}

// Tick shows what waits once an edit is due (the clock's pace, between deltas).
func (r *Reply) Tick(ctx context.Context) { r.flush(ctx, false) }

// Close shows the whole answer, whatever the pace.
func (r *Reply) Close(ctx context.Context) { r.flush(ctx, true) }

// Sent says anything was shown.
func (r *Reply) Sent() bool { return r.sent }

// Err is the last error of the platform, if any (the answer goes on regardless:
// a later edit can succeed).
func (r *Reply) Err() error { return r.err }

// split freezes full messages: while the text is longer than the limit, the part
// up to the last paragraph break (else line break, else space) that fits is
// shown whole in its message and the rest starts a new one.
func (r *Reply) split(ctx context.Context) {
	for units(r.cur) > r.limit {
		head, tail := cut(r.cur, r.limit)
		r.cur = head
		r.flush(ctx, true)
		r.msgID, r.cur, r.shown = "", tail, ""
	}
}

// units is the length of text as Telegram counts it: UTF-16 code units (an emoji
// counts two).
func units(text string) int {
	n := 0
	for _, c := range text {
		n++
		if c >= 0x10000 {
			n++
		}
	}
	return n
}

// cut splits text whose first limit units fit one message.
func cut(text string, limit int) (head, tail string) {
	end := len(text)
	n := 0
	for i, c := range text {
		w := 1
		if c >= 0x10000 {
			w = 2 // a surrogate pair
		}
		if n+w > limit && i > 0 {
			end = i
			break
		}
		n += w
	}
	fits := text[:end]
	for _, sep := range []string{"\n\n", "\n", " "} {
		// Never where only blanks come before: the message shown would keep its text.
		if i := strings.LastIndex(fits, sep); i > 0 && strings.TrimSpace(text[:i]) != "" {
			return strings.TrimRight(text[:i], " \n"), strings.TrimLeft(text[i+len(sep):], "\n")
		}
	}
	return fits, text[end:]
}

// flush shows cur: a new message at once, an edit when due (or forced).
func (r *Reply) flush(ctx context.Context, force bool) {
	text := strings.TrimRight(r.cur, " \n")
	if strings.TrimSpace(text) == "" || text == r.shown {
		return
	}
	now := r.now()
	if r.msgID == "" {
		id, err := r.ch.Send(ctx, r.chatID, Outbound{Text: text})
		if err != nil {
			r.err = err
			return
		}
		r.msgID, r.shown, r.lastEdit, r.sent = id, text, now, true
		return
	}
	if !force && now.Sub(r.lastEdit) < r.every {
		return
	}
	if err := r.ch.Edit(ctx, r.chatID, r.msgID, Outbound{Text: text}); err != nil {
		r.err = err
		return
	}
	r.shown, r.lastEdit = text, now
}
