package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// The Bot API objects Hearth reads, with the reference's field names. Only the
// fields used are declared: the decoder ignores the rest, so a new field in
// Telegram's answers changes nothing here.

// User is a Telegram user or bot.
type User struct {
	ID        int64  `json:"id"`
	IsBot     bool   `json:"is_bot"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name,omitempty"`
	Username  string `json:"username,omitempty"`
}

// Chat is where a message was sent.
type Chat struct {
	ID    int64  `json:"id"`
	Type  string `json:"type"` // "private", "group", "supergroup" or "channel"
	Title string `json:"title,omitempty"`
}

// MessageEntity marks a span of a text; Offset and Length count UTF-16 code units.
type MessageEntity struct {
	Type   string `json:"type"`
	Offset int    `json:"offset"`
	Length int    `json:"length"`
	URL    string `json:"url,omitempty"`
	User   *User  `json:"user,omitempty"`
}

// PhotoSize is one size of a photo.
type PhotoSize struct {
	FileID       string `json:"file_id"`
	FileUniqueID string `json:"file_unique_id"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	FileSize     int64  `json:"file_size,omitempty"`
}

// Document is a general file.
type Document struct {
	FileID       string `json:"file_id"`
	FileUniqueID string `json:"file_unique_id"`
	FileName     string `json:"file_name,omitempty"`
	MIMEType     string `json:"mime_type,omitempty"`
	FileSize     int64  `json:"file_size,omitempty"`
}

// Voice is a voice note.
type Voice struct {
	FileID       string `json:"file_id"`
	FileUniqueID string `json:"file_unique_id"`
	Duration     int    `json:"duration"`
	MIMEType     string `json:"mime_type,omitempty"`
	FileSize     int64  `json:"file_size,omitempty"`
}

// Message is a message in a chat.
type Message struct {
	MessageID       int64           `json:"message_id"`
	From            *User           `json:"from,omitempty"`
	Chat            Chat            `json:"chat"`
	Date            int64           `json:"date"`
	Text            string          `json:"text,omitempty"`
	Entities        []MessageEntity `json:"entities,omitempty"`
	Caption         string          `json:"caption,omitempty"`
	CaptionEntities []MessageEntity `json:"caption_entities,omitempty"`
	Photo           []PhotoSize     `json:"photo,omitempty"`
	Document        *Document       `json:"document,omitempty"`
	Voice           *Voice          `json:"voice,omitempty"`
	ReplyToMessage  *Message        `json:"reply_to_message,omitempty"`
}

// CallbackQuery is a press of an inline button.
type CallbackQuery struct {
	ID           string   `json:"id"`
	From         User     `json:"from"`
	Message      *Message `json:"message,omitempty"`
	ChatInstance string   `json:"chat_instance"`
	Data         string   `json:"data,omitempty"`
}

// Update is one thing that happened to the bot.
type Update struct {
	UpdateID      int64          `json:"update_id"`
	Message       *Message       `json:"message,omitempty"`
	CallbackQuery *CallbackQuery `json:"callback_query,omitempty"`
}

// File is a file ready to be downloaded from /file/bot<token>/<file_path>.
type File struct {
	FileID       string `json:"file_id"`
	FileUniqueID string `json:"file_unique_id"`
	FileSize     int64  `json:"file_size,omitempty"`
	FilePath     string `json:"file_path,omitempty"`
}

// envelope is every Bot API answer.
type envelope struct {
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  *struct {
		RetryAfter      int   `json:"retry_after"`
		MigrateToChatID int64 `json:"migrate_to_chat_id"`
	} `json:"parameters"`
}

// APIError is a refusal by the Bot API.
type APIError struct {
	Method      string
	Code        int
	Description string
	RetryAfter  time.Duration // from parameters.retry_after on 429
	// MigrateTo is the supergroup a group became (parameters.migrate_to_chat_id):
	// the chat goes on under that id.
	MigrateTo int64
}

func (e *APIError) Error() string {
	return fmt.Sprintf("telegram %s: %d %s", e.Method, e.Code, e.Description)
}

func (e *APIError) has(s string) bool {
	return strings.Contains(strings.ToLower(e.Description), s)
}

// errTooLarge is an answer bigger than the adapter reads.
var errTooLarge = errors.New("the answer is larger than Hearth reads")

// call posts params as JSON to method and decodes the result into out (nil: ignored).
// It reads at most max bytes of the answer: a hostile or broken server cannot
// make Hearth buffer without bound.
func (a *Adapter) call(ctx context.Context, method string, params any, out any, max int64) error {
	body, err := json.Marshal(params)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/bot"+a.token+"/"+method, bytes.NewReader(body))
	if err != nil {
		return a.scrub(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.client.Do(req)
	if err != nil {
		return a.scrub(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return a.scrub(err)
	}
	if int64(len(data)) > max {
		return fmt.Errorf("telegram %s: %w (more than %d bytes)", method, errTooLarge, max)
	}
	return decodeAnswer(method, resp.StatusCode, data, out)
}

// decodeAnswer reads one Bot API answer: the result into out, or the refusal
// as an *APIError.
func decodeAnswer(method string, status int, data []byte, out any) error {
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return fmt.Errorf("telegram %s: HTTP %d with an answer that is not the Bot API's: %w", method, status, err)
	}
	if !env.OK {
		e := &APIError{Method: method, Code: env.ErrorCode, Description: env.Description}
		if e.Code == 0 {
			e.Code = status
		}
		if env.Parameters != nil && env.Parameters.RetryAfter > 0 {
			e.RetryAfter = time.Duration(min(env.Parameters.RetryAfter, 3600)) * time.Second
		}
		if env.Parameters != nil {
			e.MigrateTo = env.Parameters.MigrateToChatID
		}
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(env.Result, out); err != nil {
		return fmt.Errorf("telegram %s: unexpected result: %w", method, err)
	}
	return nil
}

// scrub keeps the token out of errors: net/http puts the URL, and with it the
// token, into every transport error, and errors end up in logs and Settings.
func (a *Adapter) scrub(err error) error {
	if err == nil || a.token == "" || !strings.Contains(err.Error(), a.token) {
		return err
	}
	return &scrubbed{msg: strings.ReplaceAll(err.Error(), a.token, "<token>"), err: err}
}

type scrubbed struct {
	msg string
	err error
}

func (s *scrubbed) Error() string { return s.msg }

// Unwrap keeps errors.Is working (context.Canceled, egress refusals) while
// Error hides the token.
func (s *scrubbed) Unwrap() error { return s.err }
