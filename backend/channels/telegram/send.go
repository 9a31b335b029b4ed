package telegram

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"unicode/utf16"

	"hearth/backend/channels"
)

// ErrTooLong is a text over Limit(): the Service splits answers before sending.
var ErrTooLong = errors.New("the text is longer than one Telegram message")

type inlineButton struct {
	Text         string `json:"text"`
	CallbackData string `json:"callback_data"`
}

type inlineKeyboard struct {
	InlineKeyboard [][]inlineButton `json:"inline_keyboard"`
}

// Command is one entry of the bot's command menu.
type Command = channels.Command

// outbound checks m and builds the parameters of sendMessage/editMessageText:
// HTML from the Markdown and the plain text to fall back to.
func outbound(m channels.Outbound) (html string, kb *inlineKeyboard, err error) {
	if n := len(utf16.Encode([]rune(m.Text))); n > textLimit {
		return "", nil, fmt.Errorf("telegram: %w (%d of at most %d characters; split it first)", ErrTooLong, n, textLimit)
	}
	if m.Text == "" {
		return "", nil, errors.New("telegram: a message needs text")
	}
	if len(m.Buttons) > 0 {
		kb = &inlineKeyboard{InlineKeyboard: [][]inlineButton{}}
		for _, row := range m.Buttons {
			var r []inlineButton
			for _, b := range row {
				if len(b.Data) == 0 || len(b.Data) > callbackDataMax {
					return "", nil, fmt.Errorf("telegram: a button's data is %d bytes; Telegram takes 1 to %d", len(b.Data), callbackDataMax)
				}
				r = append(r, inlineButton{Text: b.Label, CallbackData: b.Data})
			}
			kb.InlineKeyboard = append(kb.InlineKeyboard, r)
		}
	}
	return ToHTML(m.Text), kb, nil
}

// Send posts a new message and returns its id. When Telegram cannot parse the
// HTML Hearth made of the Markdown, the text goes again as it was, unformatted.
func (a *Adapter) Send(ctx context.Context, chat string, m channels.Outbound) (string, error) {
	id, err := chatID(chat)
	if err != nil {
		return "", err
	}
	html, kb, err := outbound(m)
	if err != nil {
		return "", err
	}
	params := map[string]any{"chat_id": id, "text": html, "parse_mode": "HTML",
		"link_preview_options": map[string]any{"is_disabled": true}}
	if kb != nil {
		params["reply_markup"] = kb
	}
	var msg Message
	err = a.do(ctx, "sendMessage", params, &msg)
	if badEntities(err) {
		a.log.Info("telegram: formatting refused, sending plain text", "chat", chat, "err", err)
		delete(params, "parse_mode")
		params["text"] = m.Text
		err = a.do(ctx, "sendMessage", params, &msg)
	}
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(msg.MessageID, 10), nil
}

// Edit replaces a message's text and buttons. An edit that changes nothing is
// not an error (streaming sends the same text twice at times).
func (a *Adapter) Edit(ctx context.Context, chat, messageID string, m channels.Outbound) error {
	id, err := chatID(chat)
	if err != nil {
		return err
	}
	mid, err := strconv.ParseInt(messageID, 10, 64)
	if err != nil {
		return fmt.Errorf("telegram: %q is not a message id", messageID)
	}
	html, kb, err := outbound(m)
	if err != nil {
		return err
	}
	params := map[string]any{"chat_id": id, "message_id": mid, "text": html, "parse_mode": "HTML",
		"link_preview_options": map[string]any{"is_disabled": true}}
	if kb != nil {
		params["reply_markup"] = kb
	}
	err = a.do(ctx, "editMessageText", params, nil)
	if badEntities(err) {
		a.log.Info("telegram: formatting refused, editing to plain text", "chat", chat, "err", err)
		delete(params, "parse_mode")
		params["text"] = m.Text
		err = a.do(ctx, "editMessageText", params, nil)
	}
	var ae *APIError
	if errors.As(err, &ae) && ae.Code == http.StatusBadRequest && ae.has("message is not modified") {
		return nil
	}
	return err
}

func badEntities(err error) bool {
	var ae *APIError
	// Telegram counts the length after formatting: bullets and the like may
	// push a text just under the limit over it, and the plain text fits.
	return errors.As(err, &ae) && ae.Code == http.StatusBadRequest && (ae.has("can't parse entities") || ae.has("message is too long"))
}

// Typing shows "typing…" in the chat for a few seconds.
func (a *Adapter) Typing(ctx context.Context, chat string) error {
	id, err := chatID(chat)
	if err != nil {
		return err
	}
	return a.do(ctx, "sendChatAction", map[string]any{"chat_id": id, "action": "typing"}, nil)
}

// Answer acknowledges a button press; text shows briefly on the person's screen.
func (a *Adapter) Answer(ctx context.Context, press channels.Press, text string) error {
	params := map[string]any{"callback_query_id": press.ID}
	if text != "" {
		params["text"] = truncateRunes(text, 200)
	}
	return a.do(ctx, "answerCallbackQuery", params, nil)
}

// SetCommands fills the bot's command menu (the "/" list in Telegram's apps).
func (a *Adapter) SetCommands(ctx context.Context, cmds []Command) error {
	if cmds == nil {
		cmds = []Command{}
	}
	return a.do(ctx, "setMyCommands", map[string]any{"commands": cmds}, nil)
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
