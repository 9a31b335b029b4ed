package app

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"

	"hearth/backend/channels"
	"hearth/backend/channels/telegram"
	"hearth/backend/event"
	"hearth/backend/session"
)

// channelsOptions wire the channels to the chat, the gate, the settings and the
// keyring.
func (a *App) channelsOptions(opts Options) channels.Options {
	st := a.Settings
	open := opts.Telegram
	if open == nil {
		api := cmp.Or(opts.TelegramAPI, st.Getenv(channels.APIEnv))
		open = func(token string) (channels.Channel, error) { return a.openTelegram(token, api) }
	}
	return channels.Options{
		Chats: a.Chat, Gate: a.Guard.Gate, Config: st.Config, Update: st.Update,
		Secret: st.Keys().Secret, SetSecret: st.Keys().SetSecret, Getenv: st.Getenv,
		Open:      open,
		Workspace: func() string { return st.Paths().Workspace },
		StateDir:  func() string { return st.Paths().StateDir },
		NewChat:   a.archiveChat,
		Interrupted: func() []string {
			list, _ := a.store.List()
			var out []string
			for _, c := range list {
				if c.Interrupted && !c.Archived && strings.HasPrefix(c.ID, channels.Telegram+":") {
					out = append(out, c.ID)
				}
			}
			return out
		},
		Models:  a.chatModels,
		Changed: func() { a.BackgroundNews.Publish(event.Background{Kind: event.BackgroundSettings}) },
		Mask:    a.Keys.Mask,
	}
}

// openTelegram is the Telegram adapter on Hearth's door out (local-only mode
// refuses it, the egress log records it); it downloads only what the service
// would answer.
func (a *App) openTelegram(token, api string) (channels.Channel, error) {
	return telegram.New(telegram.Options{Token: token, BaseURL: api, HTTPClient: a.Egress.Client("Telegram", 0),
		StateDir: filepath.Join(a.Settings.Paths().StateDir, "telegram"),
		Logger:   slog.Default().With("channel", "telegram"), Fetch: a.Channels.Wanted})
}

// archiveChat is a channel's /new: the chat is saved to memory and archived (the
// Telegram chat goes on in a fresh one).
func (a *App) archiveChat(ctx context.Context, id string) error {
	if err := a.Chat.InUse(id); err != nil {
		return err
	}
	if _, err := a.store.Meta(id); errors.Is(err, session.ErrNotFound) {
		return nil
	}
	if err := a.Memory.ConsolidateAll(ctx, id); err != nil {
		return err
	}
	a.Guard.Gate.ForgetChat(id)
	return a.store.Archive(id, true)
}

// chatModels are the installed Ollama models that can chat (a channel's /model).
func (a *App) chatModels(ctx context.Context) ([]string, error) {
	list, err := a.Models.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range list {
		if len(m.Capabilities) == 0 || slices.Contains(m.Capabilities, "completion") {
			out = append(out, "ollama/"+m.Name)
		}
	}
	return out, nil
}

// deliver is the reminders' link to the channels: a notification goes where the
// person wants it; the desktop notifies when it should too.
func (a *App) deliver(ev event.Background, notifyIn, chat string) bool {
	if a.Channels == nil {
		return true
	}
	return a.Channels.Deliver(ev, notifyIn, chat)
}
