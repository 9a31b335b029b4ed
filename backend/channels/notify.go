package channels

import (
	"context"
	"strings"

	"hearth/backend/event"
	"hearth/backend/i18n"
)

// Where a notification goes (schedule.JobSpec.NotifyIn, channels.notifyIn).
const (
	NotifyDesktop  = "desktop"
	NotifyTelegram = "telegram"
	NotifyBoth     = "both"
)

// Deliver takes a notification of a reminder, the heartbeat or the message tool
// where the person wants it: notifyIn is the reminder's own choice ("" follows
// channels.notifyIn) and chat the Hearth chat it belongs to when that is a
// Telegram chat (a reminder made there, a message posted there). It reports
// whether the desktop notifies too: always when Telegram could not take it, so
// nothing is lost.
func (s *Service) Deliver(ev event.Background, notifyIn, chat string) (desktop bool) {
	if chat == "" {
		if _, ok := chatOf(ev.SessionID); ok {
			chat, notifyIn = ev.SessionID, NotifyTelegram // the message tool in a Telegram chat answers there
		}
	}
	if notifyIn == "" {
		notifyIn = notifyDefault(s.opts.Config())
	}
	if notifyIn == NotifyDesktop {
		return true
	}
	ch := s.channel()
	if ch == nil {
		return true
	}
	var targets []string
	if c, ok := chatOf(chat); ok {
		targets = []string{c}
	} else {
		// Private chats with the paired people: their chat id is their user id.
		targets = s.opts.Config().Channels.Telegram.AllowFrom
	}
	text := s.noticeText(ev)
	delivered := false
	for _, t := range targets {
		ctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
		if _, err := ch.Send(ctx, t, Outbound{Text: text}); err != nil {
			s.log.Warn("notification not delivered", "chat", t, "err", s.mask(err.Error(), ""))
		} else {
			delivered = true
		}
		cancel()
	}
	return notifyIn == NotifyBoth || !delivered
}

// noticeText is a notification in the phone's language: its title, then its text.
func (s *Service) noticeText(ev event.Background) string {
	l := s.lang()
	title := ev.Title
	if ev.TitleCode != "" {
		title = i18n.Message{Code: ev.TitleCode, Args: ev.Args}.In(l)
	}
	text := ev.Text
	if ev.Code != "" {
		text = i18n.Message{Code: ev.Code, Args: ev.Args}.In(l)
	}
	icon := "🔔"
	if ev.Kind == event.BackgroundHeartbeat {
		icon = "💓"
	}
	return strings.TrimSpace(icon + " " + title + "\n\n" + s.mask(text, ""))
}
