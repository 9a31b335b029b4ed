package channels

import (
	"errors"
	"time"

	"hearth/backend/i18n"
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

// Service runs the channels: the one place that decides who may talk to the
// agent and carries turns, approvals and notices to and from the adapters.
type Service struct{}

var errNotBuilt = errors.New("channels are not built yet")

// Status says how the channels stand.
func (s *Service) Status() Status {
	return Status{Telegram: TelegramStatus{State: "off", NotifyIn: "desktop", Paired: []Peer{}, Requests: []Peer{}}}
}

// SetTelegramToken stores the bot token in the keyring ("" removes it).
func (s *Service) SetTelegramToken(token string) error { return errNotBuilt }

// SetTelegram switches the channel, group chats and the default notify-in.
func (s *Service) SetTelegram(enabled, groups bool, notifyIn string) error { return errNotBuilt }

// PairingCode opens a pairing window and returns its code.
func (s *Service) PairingCode() (string, error) { return "", errNotBuilt }

// AllowPeer adds a user id to allowFrom (typed in Settings, or a request approved).
func (s *Service) AllowPeer(id string) error { return errNotBuilt }

// RemovePeer takes a user id off allowFrom (or declines a request).
func (s *Service) RemovePeer(id string) error { return errNotBuilt }
