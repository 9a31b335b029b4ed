// Package channels carries Hearth's conversations to and from chat platforms
// (Telegram first). The seam is small on purpose: an adapter turns a platform's
// wire into Inbound values and sends Outbound ones; everything a person can do —
// pairing, refusing strangers, running turns, approvals, notices — lives once in
// the Service, so the next platform is an adapter, not a rework (docs/channels.md).
package channels

import (
	"context"
	"errors"
)

// Inbound is one thing a person did on a platform: a message (text, pictures,
// files) or a press of a button Hearth sent.
type Inbound struct {
	Channel   string `json:"channel"`   // the adapter's Name(), e.g. "telegram"
	ChatID    string `json:"chatId"`    // the platform's chat; Hearth's chat is Channel+":"+ChatID
	UserID    string `json:"userId"`    // who sent it: what pairing and allowFrom know
	UserName  string `json:"userName"`  // shown in Settings and logs, never trusted
	MessageID string `json:"messageId"` // the platform's id of the message (replies, dedup)
	// UpdateID orders and de-duplicates what the platform delivered (Telegram's
	// update_id); the adapter hands each at most once, in order.
	UpdateID int64  `json:"updateId"`
	Text     string `json:"text"`
	// Group says the chat has more people than the bot and one person; Mentioned
	// that the message names the bot or replies to it (only those are answered).
	Group     bool `json:"group,omitempty"`
	Mentioned bool `json:"mentioned,omitempty"`
	// Images are pictures, downloaded and bounded by the adapter.
	Images [][]byte `json:"-"`
	// Files are documents and voice notes, downloaded and bounded by the adapter.
	Files []File `json:"-"`
	// Button is set when the person pressed a button of an Outbound.
	Button *Press `json:"button,omitempty"`
}

// File is a document or a voice note a person sent.
type File struct {
	Name string // as sent (never a path: the Service picks where it is saved)
	MIME string
	Kind string // "document" or "voice"
	Data []byte
}

// Press is a button pressed: the Data of the Button, and the id the adapter
// needs to answer it (Telegram's callback query id).
type Press struct {
	ID        string `json:"id"`
	Data      string `json:"data"`
	MessageID string `json:"messageId"` // the message that carried the button
}

// Outbound is a message Hearth sends: Markdown as the model writes it (the
// adapter converts it to what the platform renders, or plain text when that
// fails) and rows of buttons.
type Outbound struct {
	Text    string     `json:"text"`
	Buttons [][]Button `json:"buttons,omitempty"`
}

// Button is one inline button; Data comes back in Press.Data.
type Button struct {
	Label string `json:"label"`
	Data  string `json:"data"`
}

// Channel is one platform's adapter.
type Channel interface {
	// Name is the platform's short name, the prefix of its chats' ids.
	Name() string
	// Limit is the longest text one message may carry (Telegram: 4096).
	Limit() int
	// Receive delivers what people send until ctx ends, in the platform's
	// order, each at most once across restarts (the adapter keeps its offset).
	// handle runs one at a time; when it returns, the update counts as handled.
	// It returns ctx's error, or a lasting error (a revoked token) with a hint.
	Receive(ctx context.Context, handle func(context.Context, Inbound)) error
	// Send posts a new message and returns its id.
	Send(ctx context.Context, chatID string, m Outbound) (string, error)
	// Edit replaces the text (and buttons) of a message Hearth sent.
	Edit(ctx context.Context, chatID, messageID string, m Outbound) error
	// Typing shows that an answer is being written (it fades by itself).
	Typing(ctx context.Context, chatID string) error
	// Answer acknowledges a button press, with a short text shown to the person.
	Answer(ctx context.Context, press Press, text string) error
}

// ErrUnauthorized is a lasting refusal by the platform (a wrong or revoked
// token): the Service stops the channel and says so instead of retrying.
var ErrUnauthorized = errors.New("the platform refused the bot token")
