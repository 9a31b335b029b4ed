package channels

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/backend/agent"
)

// sendTimeout bounds one call to the platform.
const sendTimeout = 30 * time.Second

// handle is everything a person does on the platform, one at a time. Nothing
// from someone not paired goes further than this function's first checks: no
// turn, no tool, no model.
func (s *Service) handle(ctx context.Context, in Inbound) {
	s.mu.Lock()
	fresh := in.UpdateID == 0 || s.seen.first(in.UpdateID)
	s.mu.Unlock()
	if !fresh {
		s.log.Info("update delivered twice; answered once", "update", in.UpdateID)
		return
	}
	if in.Button != nil {
		s.press(ctx, in)
		return
	}
	tg := s.opts.Config().Channels.Telegram
	if in.Group {
		// Only what is addressed to the bot, only where groups are on.
		if !tg.Groups || !in.Mentioned {
			return
		}
		if !s.allowed(in.UserID) {
			s.refuse(ctx, in)
			return
		}
		s.message(ctx, in)
		return
	}
	if !s.allowed(in.UserID) {
		s.stranger(ctx, in)
		return
	}
	s.message(ctx, in)
}

// stranger is someone not paired: a pairing code pairs them, a bare /start asks
// the person in Hearth, anything else gets one polite refusal.
func (s *Service) stranger(ctx context.Context, in Inbound) {
	code, attempt, start := pairText(in.Text)
	if attempt {
		s.mu.Lock()
		_, _, wasOpen := s.pair.current(s.opts.Now())
		ok, closed := s.pair.try(s.opts.Now(), code)
		s.mu.Unlock()
		if ok {
			if err := s.allow(in.UserID, in.UserName); err != nil {
				s.log.Warn("pairing not saved", "user", in.UserID, "err", err)
				s.send(ctx, in.ChatID, s.say("channels.pair.failed"))
				return
			}
			s.greet(in.ChatID)
			return
		}
		if wasOpen {
			s.log.Warn("wrong pairing code", "user", in.UserID)
			if closed {
				s.log.Warn("too many wrong pairing codes; the pairing window closed", "user", in.UserID)
				s.changed()
			}
			s.refuse(ctx, in)
			return
		}
		// No window open: "/start CODE" asks like a bare /start.
	}
	if start {
		s.request(ctx, in)
		return
	}
	s.refuse(ctx, in)
}

// refuse tells a stranger once (not once a message) that this agent is private,
// and logs every attempt.
func (s *Service) refuse(ctx context.Context, in Inbound) {
	s.mu.Lock()
	st := s.loadState()
	_, told := st.Refused[in.UserID]
	if !told {
		s.editState(func(st *persisted) { st.Refused[in.UserID] = s.opts.Now().UTC() })
	}
	s.mu.Unlock()
	s.log.Warn("message from someone not paired refused", "user", in.UserID, "name", clipName(in.UserName), "chat", in.ChatID, "group", in.Group)
	if !told {
		s.send(ctx, in.ChatID, s.say("channels.refused"))
	}
}

// request records a stranger's /start for the person to approve in Settings.
func (s *Service) request(ctx context.Context, in Inbound) {
	if !userID(in.UserID) {
		s.refuse(ctx, in)
		return
	}
	s.mu.Lock()
	added := false
	s.editState(func(st *persisted) {
		for _, r := range st.Requests {
			if r.ID == in.UserID {
				return
			}
		}
		st.Requests = append(st.Requests, request{Peer: Peer{ID: in.UserID, Name: clipName(in.UserName), Since: s.opts.Now().UTC()}, ChatID: in.ChatID})
		if len(st.Requests) > maxRequests {
			st.Requests = st.Requests[1:]
		}
		st.Refused[in.UserID] = s.opts.Now().UTC() // told now: no refusal on top
		added = true
	})
	s.mu.Unlock()
	s.log.Warn("pairing requested", "user", in.UserID, "name", clipName(in.UserName))
	if added {
		s.changed()
		s.send(ctx, in.ChatID, s.say("channels.pair.requested"))
	}
}

// greet welcomes a person just paired.
func (s *Service) greet(chatID string) {
	ctx, cancel := context.WithTimeout(context.Background(), sendTimeout)
	defer cancel()
	s.send(ctx, chatID, s.say("channels.pair.done")+"\n\n"+s.say("channels.help"))
}

// send posts a line of Hearth's own; a failure is logged (the person can ask again).
func (s *Service) send(ctx context.Context, chatID, text string) string {
	ch := s.channel()
	if ch == nil {
		return ""
	}
	id, err := ch.Send(ctx, chatID, Outbound{Text: text})
	if err != nil {
		s.log.Warn("send failed", "chat", chatID, "err", s.mask(err.Error(), ""))
	}
	return id
}

// message is a paired person's message: a command of the channel's own, or a
// turn in the chat (text, pictures, files).
func (s *Service) message(ctx context.Context, in Inbound) {
	text := strings.TrimSpace(in.Text)
	if cmd, _, ok := command(text); ok {
		switch cmd {
		case "start", "pair":
			s.send(ctx, in.ChatID, s.say("channels.pair.already")+"\n\n"+s.say("channels.help"))
			return
		case "new":
			s.newChat(ctx, in.ChatID)
			return
		case "continue":
			_, err := s.opts.Chats.Continue(context.Background(), s.sessionOf(in.ChatID), s.sinkFor(in.ChatID))
			if err != nil {
				s.send(ctx, in.ChatID, "⚠️ "+s.say("channels.continue.failed", "detail", firstLine(s.mask(err.Error(), ""))))
			}
			return
		case "model":
			if _, arg, _ := command(text); arg == "" && s.opts.Models != nil {
				s.listModels(ctx, in.ChatID)
				return
			}
		}
	}
	sess := s.sessionOf(in.ChatID)
	var notes []string
	for _, f := range in.Files {
		rel, err := saveInbox(s.workspace(), f, s.opts.Now())
		if err != nil {
			s.log.Warn("received file not saved", "chat", in.ChatID, "err", err)
			s.send(ctx, in.ChatID, "⚠️ "+s.say("channels.file.failed", "name", clipName(f.Name)))
			continue
		}
		notes = append(notes, fileNote(f, rel))
	}
	if len(notes) > 0 {
		text = strings.TrimSpace(text + "\n\n" + strings.Join(notes, "\n"))
	}
	if text == "" && len(in.Images) == 0 {
		s.send(ctx, in.ChatID, s.say("channels.empty"))
		return
	}
	sink := s.sinkFor(in.ChatID)
	if len(in.Images) > 0 {
		_, err := s.opts.Chats.Start(context.Background(), agent.Request{SessionID: sess, Text: text, Images: in.Images, Channel: Telegram}, sink)
		if errors.Is(err, agent.ErrBusy) {
			s.send(ctx, in.ChatID, s.say("channels.busyPictures"))
			return
		}
		s.failed(ctx, in.ChatID, err)
		return
	}
	mode := s.opts.Config().UI.SendDuringRun
	p, _, err := s.opts.Chats.Deliver(agent.Message{SessionID: sess, Text: text, Mode: mode, Channel: Telegram}, sink)
	if err != nil {
		s.failed(ctx, in.ChatID, err)
		return
	}
	if p != nil {
		s.send(ctx, in.ChatID, s.say("channels.pending."+p.Mode))
	}
}

// listModels is /model without a name: the installed chat models to switch to.
func (s *Service) listModels(ctx context.Context, chatID string) {
	names, err := s.opts.Models(ctx)
	if err != nil {
		s.send(ctx, chatID, "⚠️ "+s.say("channels.model.failed", "detail", firstLine(s.mask(err.Error(), ""))))
		return
	}
	if len(names) == 0 {
		s.send(ctx, chatID, s.say("channels.model.none"))
		return
	}
	s.send(ctx, chatID, s.say("channels.model.list", "models", strings.Join(names, "\n"))+"\n\n"+s.say("channels.model.usage"))
}

// failed tells the person a turn could not start, in a short coded line.
func (s *Service) failed(ctx context.Context, chatID string, err error) {
	if err == nil {
		return
	}
	s.log.Warn("turn not started", "chat", chatID, "err", s.mask(err.Error(), ""))
	s.send(ctx, chatID, "⚠️ "+s.say("channels.error.start", "detail", firstLine(s.mask(err.Error(), ""))))
}

// newChat is /new: the Hearth chat is saved to memory and archived, and the
// Telegram chat goes on in a fresh one ("telegram:<chat>#2", "#3", …).
func (s *Service) newChat(ctx context.Context, chatID string) {
	old := s.sessionOf(chatID)
	if s.opts.NewChat != nil {
		if err := s.opts.NewChat(ctx, old); err != nil {
			s.send(ctx, chatID, "⚠️ "+s.say("channels.new.failed", "detail", firstLine(s.mask(err.Error(), ""))))
			return
		}
	}
	next := nextSession(chatID, old)
	s.mu.Lock()
	s.editState(func(st *persisted) { st.Sessions[chatID] = next })
	s.mu.Unlock()
	s.send(ctx, chatID, s.say("channels.new.done"))
}

// nextSession is the Hearth chat after old for a Telegram chat.
func nextSession(chatID, old string) string {
	n := 1
	if _, gen, ok := strings.Cut(old, "#"); ok {
		fmt.Sscanf(gen, "%d", &n)
	}
	return fmt.Sprintf("%s%s#%d", telegramPrefix, chatID, n+1)
}

// command reads "/name arg" ("/name@bot arg" in groups).
func command(text string) (name, arg string, ok bool) {
	if !strings.HasPrefix(text, "/") {
		return "", "", false
	}
	word, rest, _ := strings.Cut(text[1:], " ")
	word, _, _ = strings.Cut(word, "@")
	if word == "" || !allLetters(word) {
		return "", "", false
	}
	return strings.ToLower(word), strings.TrimSpace(rest), true
}

func allLetters(s string) bool {
	for _, c := range s {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

func (s *Service) workspace() string {
	if s.opts.Workspace == nil {
		return ""
	}
	return s.opts.Workspace()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(line) > 300 {
		line = line[:300] + "…"
	}
	return line
}
