package channels

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"hearth/backend/agent"
	"hearth/backend/approval"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/session"
)

// Status is what Settings › Channels shows.
type Status struct {
	Telegram TelegramStatus `json:"telegram"`
}

// TelegramStatus is the Telegram channel as the person sees it.
type TelegramStatus struct {
	Enabled  bool `json:"enabled"`  // switched on in Settings (channels.telegram.enabled)
	HasToken bool `json:"hasToken"` // a bot token is in the keyring
	// State: "off", "connecting", "ready", "error", "localOnly" (local-only mode
	// turns channels off), "elsewhere" (another Hearth process holds the data folder).
	State   string        `json:"state"`
	Bot     string        `json:"bot,omitempty"` // the bot's @username once connected
	Problem *i18n.Problem `json:"problem,omitempty"`
	// Code is the pairing code to send the bot, while one is open ("" otherwise);
	// CodeExpires is when it stops working.
	Code        string    `json:"code,omitempty"`
	CodeExpires time.Time `json:"codeExpires,omitzero"`
	Paired      []Peer    `json:"paired"`   // allowFrom: who may talk to the agent
	Requests    []Peer    `json:"requests"` // who asked to pair and waits for the person
	Groups      bool      `json:"groups"`   // group chats answered (mentions and replies only)
	// NotifyIn is where reminders and the heartbeat notify by default:
	// "desktop", "telegram" or "both".
	NotifyIn string `json:"notifyIn"`
}

// Peer is one platform user.
type Peer struct {
	ID    string    `json:"id"`
	Name  string    `json:"name"`
	Since time.Time `json:"since,omitzero"`
}

// Chats is what the Service needs of the chat service (*chat.Service).
type Chats interface {
	// Start begins a turn (pictures, slash commands); a busy chat refuses with agent.ErrBusy.
	Start(ctx context.Context, req agent.Request, sink event.Sink) (*agent.Run, error)
	// Deliver sends a message that follows the chat's steer/queue rules while a turn runs.
	Deliver(m agent.Message, sink event.Sink) (*session.Pending, *agent.Run, error)
	// Stop cancels the chat's running turn.
	Stop(sessionID string) bool
	// Continue resumes the chat's interrupted turn (Hearth was closed or killed
	// mid-answer): /continue.
	Continue(ctx context.Context, sessionID string, sink event.Sink) (*agent.Run, error)
}

// Gate is what the Service needs of the approval gate (*approval.Gate).
type Gate interface {
	Approve(runID, callID string, d approval.Decision) error
	Pendings() []approval.Pending
}

// Options configure New. Chats, Gate, Config and Update are required.
type Options struct {
	Chats  Chats
	Gate   Gate
	Config func() *config.Config
	// Update saves a change of the config (settings.Service.Update).
	Update func(func(*config.Config) error) error
	// Secret and SetSecret read and write the keyring only (settings.Keys): the bot
	// token is never written to config.json.
	Secret    func(name string) (string, error)
	SetSecret func(name, value string) error
	// Getenv reads HEARTH_TELEGRAM_TOKEN, the token of a Hearth without a keyring
	// (a home server); nil reads nothing.
	Getenv func(string) string
	// Open connects the Telegram adapter with a token; nil leaves the channel off
	// with a problem that says so.
	Open func(token string) (Channel, error)
	// Workspace is where received files are saved (inbox/telegram/).
	Workspace func() string
	// StateDir holds channels.json: requests, names, the chats' sessions.
	StateDir func() string
	// NewChat is /new: it saves the chat to memory and archives it, so the Telegram
	// chat goes on in a fresh Hearth chat.
	NewChat func(ctx context.Context, sessionID string) error
	// Models lists the installed chat models ("ollama/<name>") for /model
	// without a name; nil hands /model to the chat's own command.
	Models func(ctx context.Context) ([]string, error)
	// Interrupted lists the channel chats whose last turn was cut off (Hearth
	// closed or killed mid-answer): each is told once it connects, with /continue.
	Interrupted func() []string
	// Changed tells the window the Status changed (a request came, pairing ended).
	Changed func()
	// Now is the clock of pairing windows and of the streamed answers' pace; nil
	// means time.Now.
	Now func() time.Time
	// Tick is how often a streamed answer is looked at (edits, typing); 0 means a second.
	Tick time.Duration
	// Mask hides the keys Hearth knows in what is logged and sent (keymask).
	Mask func(string) string
	Log  *slog.Logger
}

// Service runs the channels: the one place that decides who may talk to the
// agent and carries turns, approvals and notices to and from the adapters.
type Service struct {
	opts Options
	log  *slog.Logger

	connMu sync.Mutex // serialises connecting and disconnecting

	mu      sync.Mutex
	ctx     context.Context // Start's: the channel runs until it ends
	quit    chan struct{}   // closed by Close: the followers stop waiting
	started bool
	closed  bool
	told    map[string]bool    // chats told their answer was cut off (tellInterrupted)
	ch      Channel            // the connected adapter, nil when off
	cancel  context.CancelFunc // ends the receive loop
	done    chan struct{}      // closed when the receive loop ended
	state   string
	problem *i18n.Problem
	pair    pairing
	seen    dedup
	cards   map[string]*card     // approval cards by token
	runs    map[string]*follower // answers being streamed, by run id
	st      *persisted           // channels.json, once read
	wg      sync.WaitGroup       // followers
}

// New returns the service; nothing runs until Start.
func New(opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Tick <= 0 {
		opts.Tick = time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Service{opts: opts, log: opts.Log.With("channel", "telegram"), state: StateOff,
		cards: map[string]*card{}, runs: map[string]*follower{}, told: map[string]bool{}}
}

// Telegram is the Telegram adapter's Name(), the prefix of its chats and the
// channel its turns tell the model.
const Telegram = "telegram"

// States of TelegramStatus.State.
const (
	StateOff        = "off"
	StateConnecting = "connecting"
	StateReady      = "ready"
	StateError      = "error"
	StateLocalOnly  = "localOnly"
	StateElsewhere  = "elsewhere"
)

// TokenEnv is the environment variable a Hearth without a keyring reads the bot token from.
const TokenEnv = "HEARTH_TELEGRAM_TOKEN"

// APIEnv names another Bot API server than Telegram's (a self-hosted
// telegram-bot-api, or a test's fake).
const APIEnv = "HEARTH_TELEGRAM_API"

// Status says how the channels stand.
func (s *Service) Status() Status {
	cfg := s.opts.Config()
	tg := cfg.Channels.Telegram
	st := TelegramStatus{Enabled: tg.Enabled, Groups: tg.Groups, NotifyIn: notifyDefault(cfg), Paired: []Peer{}, Requests: []Peer{}}
	tok, _ := s.token()
	st.HasToken = tok != ""
	s.mu.Lock()
	st.State, st.Problem = s.state, s.problem
	if !s.started {
		st.State = StateElsewhere
		if !tg.Enabled {
			st.State = StateOff
		}
	}
	if cfg.LocalOnly && tg.Enabled {
		st.State = StateLocalOnly
	}
	if b, ok := s.ch.(interface{ Bot() string }); ok {
		st.Bot = b.Bot()
	}
	if code, exp, open := s.pair.current(s.opts.Now()); open {
		st.Code, st.CodeExpires = code, exp
	}
	state := s.loadState() // its maps change under s.mu (a pairing): read them here
	for _, id := range tg.AllowFrom {
		st.Paired = append(st.Paired, Peer{ID: id, Name: state.Names[id], Since: state.Since[id]})
	}
	for _, r := range state.Requests {
		st.Requests = append(st.Requests, r.Peer)
	}
	s.mu.Unlock()
	return Status{Telegram: st}
}

// notifyDefault is channels.notifyIn, "desktop" when unset.
func notifyDefault(cfg *config.Config) string {
	if cfg.Channels.NotifyIn == "" {
		return "desktop"
	}
	return cfg.Channels.NotifyIn
}

// token is the bot token: the keyring's, else HEARTH_TELEGRAM_TOKEN.
func (s *Service) token() (string, error) {
	var tok string
	var err error
	if s.opts.Secret != nil {
		tok, err = s.opts.Secret(config.TelegramTokenKey)
	}
	if tok == "" && s.opts.Getenv != nil {
		if v := strings.TrimSpace(s.opts.Getenv(TokenEnv)); v != "" {
			return v, nil
		}
	}
	return tok, err
}

// SetTelegramToken stores the bot token in the keyring ("" removes it).
func (s *Service) SetTelegramToken(token string) error {
	token = strings.TrimSpace(token)
	if token != "" && !plausibleToken(token) {
		return userErr(nil, "channels.err.token")
	}
	if s.opts.SetSecret == nil {
		return userErr(nil, "channels.err.noKeyring", "env", TokenEnv)
	}
	if err := s.opts.SetSecret(config.TelegramTokenKey, token); err != nil {
		return userErr(err, "channels.err.storeToken", "env", TokenEnv)
	}
	s.restart()
	return nil
}

// plausibleToken checks the shape of a bot token: digits, a colon, then letters,
// digits, '-' and '_' (no spaces: a pasted sentence is not a token).
func plausibleToken(t string) bool {
	id, rest, ok := strings.Cut(t, ":")
	if !ok || id == "" || len(rest) < 20 || len(t) > 200 {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	for _, c := range rest {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// SetTelegram switches the channel, group chats and the default notify-in.
func (s *Service) SetTelegram(enabled, groups bool, notifyIn string) error {
	switch notifyIn {
	case "desktop", "telegram", "both":
	default:
		return userErr(nil, "channels.err.notifyIn", "got", notifyIn)
	}
	err := s.opts.Update(func(c *config.Config) error {
		c.Channels.Telegram.Enabled, c.Channels.Telegram.Groups, c.Channels.NotifyIn = enabled, groups, notifyIn
		return nil
	})
	if err != nil {
		return err
	}
	s.Apply()
	return nil
}

// PairingCode opens a pairing window and returns its code.
func (s *Service) PairingCode() (string, error) {
	if s.opts.Config().LocalOnly {
		return "", userErr(nil, "channels.err.localOnly")
	}
	s.mu.Lock()
	code, err := s.pair.open(s.opts.Now())
	s.mu.Unlock()
	if err == nil {
		s.changed()
	}
	return code, err
}

// AllowPeer adds a user id to allowFrom (typed in Settings, or a request approved).
func (s *Service) AllowPeer(id string) error {
	id = strings.TrimSpace(id)
	if !userID(id) {
		return userErr(nil, "channels.err.userID", "got", id)
	}
	req, had := s.takeRequest(id)
	if err := s.allow(id, req.Name); err != nil {
		return err
	}
	if had && req.ChatID != "" {
		s.greet(req.ChatID)
	}
	return nil
}

// RemovePeer takes a user id off allowFrom (or declines a request).
func (s *Service) RemovePeer(id string) error {
	id = strings.TrimSpace(id)
	if _, had := s.takeRequest(id); had {
		s.changed()
		return nil
	}
	return s.opts.Update(func(c *config.Config) error {
		tg := &c.Channels.Telegram
		i := slices.Index(tg.AllowFrom, id)
		if i < 0 {
			return userErr(nil, "channels.err.notPaired", "id", id)
		}
		tg.AllowFrom = slices.Delete(tg.AllowFrom, i, i+1)
		return nil
	})
}

// allow adds id to allowFrom and remembers its name.
func (s *Service) allow(id, name string) error {
	err := s.opts.Update(func(c *config.Config) error {
		if !slices.Contains(c.Channels.Telegram.AllowFrom, id) {
			c.Channels.Telegram.AllowFrom = append(c.Channels.Telegram.AllowFrom, id)
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.editState(func(st *persisted) {
		if name != "" {
			st.Names[id] = clipName(name)
		}
		st.Since[id] = s.opts.Now().UTC()
		delete(st.Refused, id)
	})
	s.mu.Unlock()
	s.log.Info("paired", "user", id)
	s.changed()
	return nil
}

// Wanted says an adapter should download what in carries: its sender may talk to
// the agent and, in a group, the service would answer it. A stranger's files are
// never fetched.
func (s *Service) Wanted(in Inbound) bool {
	return s.allowed(in.UserID) && (!in.Group || in.Mentioned && s.opts.Config().Channels.Telegram.Groups)
}

// allowed says the user may talk to the agent.
func (s *Service) allowed(userID string) bool {
	return userID != "" && slices.Contains(s.opts.Config().Channels.Telegram.AllowFrom, userID)
}

// userID is a Telegram user id: a positive whole number.
func userID(id string) bool {
	if id == "" || len(id) > 20 || id[0] == '0' {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (s *Service) changed() {
	if s.opts.Changed != nil {
		s.opts.Changed()
	}
}

// lang is the language of the phone's messages: the window's.
func (s *Service) lang() i18n.Locale {
	g := s.opts.Getenv
	if g == nil {
		g = func(string) string { return "" }
	}
	return i18n.Resolve(s.opts.Config().UI.Language, g)
}

// say words a catalog message in the phone's language.
func (s *Service) say(code string, pairs ...string) string { return i18n.T(s.lang(), code, pairs...) }
