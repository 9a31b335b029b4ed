package channels

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"hearth/backend/i18n"
)

// Start runs the channel while ctx lasts: only in the process holding the app
// lock (two processes polling one bot would steal each other's updates).
func (s *Service) Start(ctx context.Context) error {
	s.mu.Lock()
	if s.started || s.closed {
		s.mu.Unlock()
		return nil
	}
	s.ctx, s.started, s.quit = ctx, true, make(chan struct{})
	s.mu.Unlock()
	s.Apply()
	return nil
}

// Apply brings the channel in line with the settings: on when enabled, with a
// token, outside local-only mode; off otherwise. The composition root calls it
// after every saved change.
func (s *Service) Apply() {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	s.mu.Lock()
	if !s.started || s.closed {
		s.mu.Unlock()
		return
	}
	cfg := s.opts.Config()
	want := cfg.Channels.Telegram.Enabled && !cfg.LocalOnly
	running := s.cancel != nil
	s.mu.Unlock()
	switch {
	case want && !running:
		s.connect()
	case !want:
		s.disconnect()
		s.setState(StateOff, nil)
		if cfg.LocalOnly && cfg.Channels.Telegram.Enabled {
			s.setState(StateLocalOnly, nil)
		}
	}
}

// restart connects again with a new token.
func (s *Service) restart() {
	s.connMu.Lock()
	s.disconnect()
	s.connMu.Unlock()
	s.Apply()
}

// connect opens the adapter and starts receiving; s.connMu is held.
func (s *Service) connect() {
	tok, err := s.token()
	switch {
	case tok == "" && err != nil:
		p := i18n.M("channels.problem.keyring", "detail", firstLine(err.Error())).WithHint(i18n.M("channels.problem.keyring.hint", "env", TokenEnv))
		s.setState(StateError, &p)
		return
	case tok == "":
		p := i18n.P("channels.problem.noToken")
		s.setState(StateError, &p)
		return
	case s.opts.Open == nil:
		p := i18n.P("channels.problem.noAdapter")
		s.setState(StateError, &p)
		return
	}
	s.setState(StateConnecting, nil)
	ch, err := s.opts.Open(tok)
	if err != nil {
		s.log.Warn("channel did not open", "err", s.mask(err.Error(), tok))
		p := i18n.P("channels.problem.open", "detail", firstLine(s.mask(err.Error(), tok)))
		s.setState(StateError, &p)
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		closeChannel(ch)
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	done := make(chan struct{})
	s.ch, s.cancel, s.done, s.state, s.problem = ch, cancel, done, StateReady, nil
	s.mu.Unlock()
	s.changed()
	go s.commands(ctx, ch)
	go s.tellInterrupted(ctx)
	go s.receive(ctx, ch, tok, done)
}

// disconnect stops receiving; s.connMu is held. It does not wait for the loop
// (the returned channel closes when it ended): the loop may be inside handle,
// which can save a setting, whose followers call Apply, which waits for
// s.connMu — waiting here would deadlock.
func (s *Service) disconnect() <-chan struct{} {
	s.mu.Lock()
	cancel, done, ch := s.cancel, s.done, s.ch
	s.cancel, s.done, s.ch = nil, nil, nil
	s.mu.Unlock()
	if cancel == nil {
		return nil
	}
	cancel()
	go func() {
		<-done
		closeChannel(ch)
	}()
	return done
}

func closeChannel(ch Channel) {
	if c, ok := ch.(io.Closer); ok {
		_ = c.Close()
	}
}

// retryAfter is the pause before receiving again after a failure the adapter
// could not ride out itself.
const retryAfter = 5 * time.Second

// receive hands what people send to handle until ctx ends or the platform
// refuses the token for good.
func (s *Service) receive(ctx context.Context, ch Channel, tok string, done chan struct{}) {
	defer close(done)
	for {
		err := ch.Receive(ctx, s.handle)
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, ErrUnauthorized) {
			s.log.Warn("the platform refused the bot token; the channel stops", "err", s.mask(errString(err), tok))
			p := i18n.P("channels.problem.unauthorized")
			s.setState(StateError, &p)
			return
		}
		s.log.Warn("receiving failed; trying again", "err", s.mask(errString(err), tok), "after", retryAfter)
		s.setState(StateConnecting, nil)
		select {
		case <-ctx.Done():
			return
		case <-time.After(retryAfter):
		}
		s.setState(StateReady, nil)
	}
}

func errString(err error) string {
	if err == nil {
		return "the receive loop ended"
	}
	return err.Error()
}

func (s *Service) setState(state string, p *i18n.Problem) {
	s.mu.Lock()
	same := s.state == state && s.problem == nil && p == nil
	s.state, s.problem = state, p
	s.mu.Unlock()
	if !same {
		s.changed()
	}
}

// channel is the connected adapter, or nil.
func (s *Service) channel() Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ch
}

// Close stops the channel and waits (until ctx ends) for the answers being
// streamed to send their last edit.
func (s *Service) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	quit := s.quit
	s.mu.Unlock()
	s.connMu.Lock()
	loop := s.disconnect()
	s.connMu.Unlock()
	if quit != nil {
		close(quit)
	}
	waited := make(chan struct{})
	go func() {
		if loop != nil {
			<-loop
		}
		s.wg.Wait()
		close(waited)
	}()
	select {
	case <-waited:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// mask hides the token (and every key the masker knows) in what is logged.
func (s *Service) mask(text, tok string) string {
	if tok != "" {
		text = strings.ReplaceAll(text, tok, "[bot token]")
	}
	if s.opts.Mask != nil {
		text = s.opts.Mask(text)
	}
	return text
}

// tellInterrupted says, in each channel chat whose answer was cut off (Hearth was
// closed or killed mid-answer), that it was and how to go on — once a process:
// the person on the phone sees a half-written answer and would otherwise wait.
func (s *Service) tellInterrupted(ctx context.Context) {
	if s.opts.Interrupted == nil {
		return
	}
	for _, sess := range s.opts.Interrupted() {
		chat, ok := chatOf(sess)
		s.mu.Lock()
		told := s.told[sess]
		s.told[sess] = true
		s.mu.Unlock()
		if !ok || told || s.sessionOf(chat) != sess {
			continue
		}
		s.send(ctx, chat, "⚠️ "+s.say("channels.interrupted"))
	}
}

// commands registers the slash commands with adapters that can show them.
func (s *Service) commands(ctx context.Context, ch Channel) {
	c, ok := ch.(interface {
		SetCommands(ctx context.Context, cmds []Command) error
	})
	if !ok {
		return
	}
	var cmds []Command
	for _, n := range []string{"new", "stop", "continue", "model", "status", "remember", "help"} {
		cmds = append(cmds, Command{Name: n, Description: s.say("channels.cmd." + n)})
	}
	cctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	if err := c.SetCommands(cctx, cmds); err != nil {
		s.log.Info("slash commands not registered", "err", err)
	}
}

// Command is a slash command an adapter may show in the platform's menu (an
// adapter that can implements SetCommands(ctx, []Command) error).
type Command struct {
	Name        string `json:"command"`
	Description string `json:"description"`
}
