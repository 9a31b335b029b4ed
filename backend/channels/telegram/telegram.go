// Package telegram is Hearth's adapter for Telegram's Bot API: long polling
// in, messages, edits, typing and button answers out (docs/channels.md, "How
// Hearth talks to Telegram"). It speaks the handful of methods it needs over
// net/http with typed structs, through the http.Client its caller passes, so
// every connection goes through Hearth's egress guard.
package telegram

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"hearth/backend/channels"
)

// DefaultBaseURL is the Bot API's address.
const DefaultBaseURL = "https://api.telegram.org"

// Bounds of what the adapter reads and downloads.
const (
	// MaxFileBytes is the largest file the Bot API's getFile serves.
	MaxFileBytes = 20 << 20
	// DefaultMaxImage is the largest photo size taken for a vision model.
	DefaultMaxImage = 10 << 20
	// maxUpdatesBody bounds one getUpdates answer (100 updates of at most a few KiB each).
	maxUpdatesBody = 4 << 20
	// maxAnswerBody bounds every other answer.
	maxAnswerBody = 1 << 20
	// pollTimeout is how long Telegram holds a getUpdates open when nothing happens.
	pollTimeout = 30
	// pollDeadline bounds one long poll: Telegram's hold and a margin.
	pollDeadline = (pollTimeout + 15) * time.Second
	// callTimeout bounds each call other than the long poll and downloads.
	callTimeout = 30 * time.Second
	// maxBackoff caps the wait between failed polls.
	maxBackoff = 30 * time.Second
	// callbackDataMax is the Bot API's bound on a button's callback_data.
	callbackDataMax = 64
	// textLimit is the Bot API's bound on a message's text.
	textLimit = 4096
)

// Options configures an Adapter.
type Options struct {
	// Token is the bot token from @BotFather (required).
	Token string
	// BaseURL is the Bot API's address; "" is DefaultBaseURL (tests pass a fake's).
	BaseURL string
	// StateDir is the folder that keeps the update offset (required for Receive).
	StateDir string
	// HTTPClient carries every request (Hearth passes its egress guard's client).
	// The adapter bounds each call itself; a client Timeout shorter than a
	// long poll is dropped (on a copy). nil is a plain client, for tests only.
	HTTPClient *http.Client
	// Logger records refusals and retries; nil discards them.
	Logger *slog.Logger
	// MaxImage bounds a downloaded photo (default DefaultMaxImage); MaxFile a
	// document or voice note (default and at most MaxFileBytes).
	MaxImage, MaxFile int64
	// Fetch says whether the photos and files of in are downloaded before it is
	// handed over. The Service passes its own rule (the sender is paired, a
	// group message names the bot), so a stranger's files are never fetched;
	// in then arrives without them. nil fetches all.
	Fetch func(in channels.Inbound) bool
	// Sleep waits d or until ctx ends (tests record the waits instead); Jitter
	// returns a number in [0,1) that spreads backoffs. Both default to real ones.
	Sleep  func(ctx context.Context, d time.Duration) error
	Jitter func() float64
}

// Adapter is the Telegram channel. It implements channels.Channel.
type Adapter struct {
	token, base, stateDir string
	client                *http.Client
	log                   *slog.Logger
	maxImage, maxFile     int64
	fetchFor              func(channels.Inbound) bool
	sleep                 func(context.Context, time.Duration) error
	jitter                func() float64

	mu sync.Mutex
	me *Bot // cached getMe

	// receiving keeps Receive to one loop: two would make Telegram answer 409.
	receiving atomic.Bool
}

var _ channels.Channel = (*Adapter)(nil)

// Bot is the bot itself, as getMe answers.
type Bot struct {
	ID       int64  `json:"id"`
	Username string `json:"username"` // without the @
	Name     string `json:"name"`
}

// ErrConflict is Telegram's 409: another program polls the same bot, or a
// webhook is set. Receive returns it rather than fight the other poller.
var ErrConflict = errors.New("another program is receiving this bot's updates")

// ErrBlocked is Telegram's 403 for one chat: the person blocked the bot, or
// the bot was removed from the group. Other chats go on.
var ErrBlocked = errors.New("telegram refuses to deliver to this chat")

// New builds an adapter. It does not connect: Me and Receive do.
func New(o Options) (*Adapter, error) {
	if strings.TrimSpace(o.Token) == "" || strings.ContainsAny(o.Token, "/?#% \t\r\n") {
		return nil, errors.New("telegram: the bot token is empty or malformed (hint: paste the token @BotFather gave, like 123456:ABC-DEF…)")
	}
	a := &Adapter{token: o.Token, base: strings.TrimRight(o.BaseURL, "/"), stateDir: o.StateDir,
		client: o.HTTPClient, log: o.Logger, maxImage: o.MaxImage, maxFile: o.MaxFile, fetchFor: o.Fetch, sleep: o.Sleep, jitter: o.Jitter}
	if a.base == "" {
		a.base = DefaultBaseURL
	}
	if a.client == nil {
		a.client = &http.Client{}
	}
	if t := a.client.Timeout; t > 0 && t < pollDeadline {
		// A shorter overall timeout would cut every long poll short; the
		// adapter bounds each call itself, so the copy goes without one.
		c := *a.client
		c.Timeout = 0
		a.client = &c
	}
	if a.log == nil {
		a.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if a.maxImage <= 0 {
		a.maxImage = DefaultMaxImage
	}
	if a.maxFile <= 0 || a.maxFile > MaxFileBytes {
		a.maxFile = MaxFileBytes
	}
	if a.sleep == nil {
		a.sleep = sleepCtx
	}
	if a.jitter == nil {
		a.jitter = rand.Float64
	}
	return a, nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Name is "telegram", the prefix of its chats' ids.
func (a *Adapter) Name() string { return "telegram" }

// Limit is the Bot API's bound on a message's text.
func (a *Adapter) Limit() int { return textLimit }

// Me asks Telegram who the bot is (getMe) and remembers it for mentions. A
// refused token is channels.ErrUnauthorized.
func (a *Adapter) Me(ctx context.Context) (Bot, error) {
	var u User
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if err := a.call(cctx, "getMe", struct{}{}, &u, maxAnswerBody); err != nil {
		return Bot{}, lasting(err)
	}
	b := Bot{ID: u.ID, Username: u.Username, Name: strings.TrimSpace(u.FirstName + " " + u.LastName)}
	a.mu.Lock()
	a.me = &b
	a.mu.Unlock()
	return b, nil
}

// Known returns the bot as the last successful Me found it (Settings shows its
// @username without asking Telegram again).
func (a *Adapter) Known() (Bot, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.me == nil {
		return Bot{}, false
	}
	return *a.me, true
}

// Bot is the bot's @username once Telegram said it ("" before): Settings shows it.
func (a *Adapter) Bot() string {
	if b, ok := a.Known(); ok && b.Username != "" {
		return "@" + b.Username
	}
	return ""
}

// lasting turns the refusals no retry cures into the errors callers test for.
func lasting(err error) error {
	var ae *APIError
	if !errors.As(err, &ae) {
		return err
	}
	switch ae.Code {
	case http.StatusUnauthorized, http.StatusNotFound:
		return fmt.Errorf("%w: %s (hint: the token was revoked or mistyped; paste the current one from @BotFather in Settings › Channels)", channels.ErrUnauthorized, ae.Description)
	case http.StatusForbidden:
		return fmt.Errorf("%w: %s (hint: the person blocked the bot or removed it from the group; they can unblock it or add it again)", ErrBlocked, ae.Description)
	case http.StatusConflict:
		return fmt.Errorf("%w: %s (hint: stop the other program or Hearth using this bot, or delete its webhook, then switch the channel on again)", ErrConflict, ae.Description)
	}
	return err
}

// do runs one call with its own deadline, waiting out 429s a few times (edits
// while an answer streams hit them first) before giving up.
func (a *Adapter) do(ctx context.Context, method string, params, out any) error {
	for try := 0; ; try++ {
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		err := a.call(cctx, method, params, out, maxAnswerBody)
		cancel()
		var ae *APIError
		if try < 3 && errors.As(err, &ae) && ae.Code == http.StatusTooManyRequests && ae.RetryAfter > 0 && ae.RetryAfter <= time.Minute {
			a.log.Info("telegram: rate limited, waiting", "method", method, "retry_after", ae.RetryAfter)
			if serr := a.sleep(ctx, ae.RetryAfter); serr != nil {
				return serr
			}
			continue
		}
		return lasting(err)
	}
}
