package channels

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"

	"hearth/backend/approval"
	"hearth/backend/event"
)

// card is an approval asked on the phone: the message with the buttons and the
// call it answers. Buttons carry a short random token, never the run or call ids
// (Telegram bounds a button's data to 64 bytes, and a token cannot be guessed).
type card struct {
	token, chatID, msgID, runID, callID string
}

// approval shows a call waiting for approval with its buttons, and settles the
// card when it is answered (here, on the desktop, or by the run's end).
func (f *follower) approval(ctx context.Context, ev event.Event, d event.ApprovalData) {
	s := f.s
	if d.State != approval.StateRequested {
		if s.settle(ctx, ev.RunID, d) && f.asking > 0 {
			f.asking--
		}
		return
	}
	var p *approval.Pending
	for _, q := range s.opts.Gate.Pendings() {
		if q.RunID == ev.RunID && q.CallID == d.CallID {
			p = &q
			break
		}
	}
	if p == nil {
		return // answered already (the desktop was quicker)
	}
	ch := s.channel()
	if ch == nil {
		return
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	out := Outbound{Text: s.cardText(*p), Buttons: [][]Button{{
		{Label: s.say("channels.approval.once"), Data: "ap:" + token + ":" + string(approval.Once)},
		{Label: s.say("channels.approval.chat"), Data: "ap:" + token + ":" + string(approval.Chat)},
		{Label: s.say("channels.approval.deny"), Data: "ap:" + token + ":" + string(approval.Deny)},
	}}}
	f.reply.Break(ctx) // the answer goes on below the card
	id, err := ch.Send(ctx, f.chatID, out)
	if err != nil {
		s.log.Warn("approval card not sent", "chat", f.chatID, "err", s.mask(err.Error(), ""))
		return
	}
	s.mu.Lock()
	s.cards[token] = &card{token: token, chatID: f.chatID, msgID: id, runID: ev.RunID, callID: d.CallID}
	s.mu.Unlock()
	f.asking++
}

// cardText is what the desktop card says: the tool, why it asks, the arguments
// (keys masked), where it runs and what the sandbox lets it do.
func (s *Service) cardText(p approval.Pending) string {
	l := s.lang()
	lines := []string{"🔐 " + s.say("channels.approval.ask", "tool", p.Tool), p.Why.In(l)}
	args := clip(s.mask(string(p.Args), ""), 600)
	lines = append(lines, "```\n"+strings.ReplaceAll(args, "```", "'''")+"\n```")
	if p.Dir != "" {
		lines = append(lines, s.say("channels.approval.dir", "dir", p.Dir))
	}
	if p.SandboxNote != nil {
		lines = append(lines, p.SandboxNote.In(l))
	}
	if p.Destructive {
		lines = append(lines, "⚠️ "+s.say("channels.approval.destructive"))
	}
	return strings.Join(lines, "\n")
}

// settle edits a card to its outcome once the gate decided (whoever answered);
// it reports whether there was a card.
func (s *Service) settle(ctx context.Context, runID string, d event.ApprovalData) bool {
	s.mu.Lock()
	var c *card
	for t, k := range s.cards {
		if k.runID == runID && k.callID == d.CallID {
			c = k
			delete(s.cards, t)
			break
		}
	}
	s.mu.Unlock()
	if c == nil {
		return false
	}
	s.editCard(ctx, c, s.outcome(d))
	return true
}

func (s *Service) outcome(d event.ApprovalData) string {
	switch {
	case d.State == approval.StateAllowed && d.Scope == approval.ScopeChat:
		return "✅ " + s.say("channels.approval.allowedChat")
	case d.State == approval.StateAllowed && d.Scope == approval.ScopeAlways:
		return "✅ " + s.say("channels.approval.allowedAlways")
	case d.State == approval.StateAllowed:
		return "✅ " + s.say("channels.approval.allowedOnce")
	case d.Scope == approval.ScopeCancelled:
		return "⏹ " + s.say("channels.approval.cancelled")
	}
	return "⛔ " + s.say("channels.approval.denied")
}

func (s *Service) editCard(ctx context.Context, c *card, outcome string) {
	ch := s.channel()
	if ch == nil || c.msgID == "" {
		return
	}
	if err := ch.Edit(ctx, c.chatID, c.msgID, Outbound{Text: outcome}); err != nil {
		s.log.Warn("approval card not updated", "chat", c.chatID, "err", s.mask(err.Error(), ""))
	}
}

// dropCards settles the cards of a run that ended.
func (s *Service) dropCards(ctx context.Context, runID string) {
	s.mu.Lock()
	var left []*card
	for t, c := range s.cards {
		if c.runID == runID {
			left = append(left, c)
			delete(s.cards, t)
		}
	}
	s.mu.Unlock()
	for _, c := range left {
		s.editCard(ctx, c, "⏹ "+s.say("channels.approval.cancelled"))
	}
}

// press is a button pressed: only a paired person's press in the card's own chat
// answers the gate, and only once (the gate settles a call once; a second answer,
// from here or the desktop, is told it came too late).
func (s *Service) press(ctx context.Context, in Inbound) {
	ch := s.channel()
	if ch == nil {
		return
	}
	answer := func(code string) {
		if err := ch.Answer(ctx, *in.Button, s.say(code)); err != nil {
			s.log.Info("button press not acknowledged", "err", s.mask(err.Error(), ""))
		}
	}
	if !s.allowed(in.UserID) {
		s.log.Warn("button pressed by someone not paired", "user", in.UserID, "chat", in.ChatID)
		answer("channels.refused.short")
		return
	}
	token, dec, ok := parseButton(in.Button.Data)
	s.mu.Lock()
	c := s.cards[token]
	s.mu.Unlock()
	if !ok || c == nil || c.chatID != in.ChatID {
		answer("channels.approval.gone")
		return
	}
	err := s.opts.Gate.Approve(c.runID, c.callID, dec)
	switch {
	case errors.Is(err, approval.ErrNoPending):
		answer("channels.approval.gone")
	case err != nil:
		s.log.Warn("approval from the phone failed", "err", err)
		answer("channels.approval.failed")
	default:
		answer("channels.approval.thanks")
	}
}

// parseButton reads "ap:<token>:<decision>"; "always" is never offered on the
// phone (it changes the settings for good), so it is not accepted either.
func parseButton(data string) (token string, d approval.Decision, ok bool) {
	rest, found := strings.CutPrefix(data, "ap:")
	if !found {
		return "", "", false
	}
	token, dec, found := strings.Cut(rest, ":")
	if !found || len(token) != 16 {
		return "", "", false
	}
	switch approval.Decision(dec) {
	case approval.Once, approval.Chat, approval.Deny:
		return token, approval.Decision(dec), true
	}
	return "", "", false
}
