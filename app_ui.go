//go:build !headless

package main

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"hearth/backend/attach"
	"hearth/backend/chat"
	"hearth/backend/event"
	"hearth/backend/extract"
	"hearth/backend/fitness"
	"hearth/backend/models"
	"hearth/backend/session"
	"hearth/backend/sessions"
	"hearth/backend/settings"
)

// The window's chat, sessions, models, settings and first-run bindings. Each one
// forwards to a service; streams arrive on "run:<runId>" and "pull:<pullId>" after
// the window calls AttachEvents for that channel.

func (a *core) emit(channel string, data any) {
	if a.ctx != nil {
		runtime.EventsEmit(a.ctx, channel, data)
	}
}

// runSink publishes a run's events on its channel.
func (a *core) runSink(ev event.Event) {
	a.relay.Publish(event.RunChannel(ev.RunID), ev, ev.Type == event.RunFinished)
}

// SendMessage starts a turn and returns its run id.
func (a *ChatAPI) SendMessage(in chat.Input) (string, error) { return a.h.Chat.Send(in, a.runSink) }

// SubmitMessage sends a message while a turn may be running: it starts a turn or
// waits for the running one in its mode (steer, queue, stop).
func (a *ChatAPI) SubmitMessage(in chat.Input) (chat.Sent, error) {
	return a.h.Chat.Submit(in, a.runSink)
}

// PendingMessages lists the messages waiting for a chat's turn.
func (a *ChatAPI) PendingMessages(sessionID string) ([]session.Pending, error) {
	return a.h.Chat.Pending(sessionID)
}

// EditPending changes a waiting message's text and mode.
func (a *ChatAPI) EditPending(sessionID, id, text, mode string) (session.Pending, error) {
	return a.h.Chat.EditPending(sessionID, id, text, mode)
}

// RemovePending drops a waiting message.
func (a *ChatAPI) RemovePending(sessionID, id string) error {
	return a.h.Chat.RemovePending(sessionID, id)
}

// SendPending sends a held message again; it returns the run it started, or "".
func (a *ChatAPI) SendPending(sessionID, id string) (string, error) {
	return a.h.Chat.SendPending(sessionID, id, a.runSink)
}

// AttachEvents delivers a stream's held and future events (call after EventsOn).
func (a *App) AttachEvents(channel string) { a.relay.Attach(channel) }

// StopRun stops the session's running turn.
func (a *ChatAPI) StopRun(sessionID string) bool { return a.h.Chat.Stop(sessionID) }

// DenyInstead answers the calls waiting for approval with the person's message: they
// are denied and the run stops before any model request (the window then sends the
// message as the next turn). It reports whether a run was going.
func (a *ChatAPI) DenyInstead(sessionID string) bool { return a.h.Chat.DenyInstead(sessionID) }

// ContinueRun resumes the session's interrupted turn and returns its run id.
func (a *ChatAPI) ContinueRun(sessionID string) (string, error) {
	run, err := a.h.Chat.Continue(context.Background(), sessionID, a.runSink)
	if err != nil {
		return "", err
	}
	return run.ID, nil
}

// ListSessions lists the chats, newest first.
func (a *SessionsAPI) ListSessions() ([]session.Summary, error) { return a.h.Sessions.List() }

// LoadSession reads one chat.
func (a *SessionsAPI) LoadSession(id string) (sessions.History, error) {
	defer a.h.Touch() // a long chat's history is a burst the app gives back at rest
	return a.h.Sessions.History(id)
}

// RenameSession sets a chat's title ("" restores the automatic one).
func (a *SessionsAPI) RenameSession(id, title string) error { return a.h.Sessions.Rename(id, title) }

// SearchChats finds text in the chats' titles and messages (Ctrl+K).
func (a *SessionsAPI) SearchChats(query string, limit int) ([]sessions.ChatHit, error) {
	return a.h.Sessions.Search(query, limit)
}

// SetChatModel makes model the chat's model from now on ("" for the default).
func (a *SessionsAPI) SetChatModel(id, model string) error { return a.h.Sessions.SetModel(id, model) }

// DeleteSession moves a chat to the trash.
func (a *SessionsAPI) DeleteSession(id string) error { return a.h.Sessions.Delete(id) }

// SessionUsage is the chat's last context use.
func (a *ChatAPI) SessionUsage(id string) event.UsageData { return a.h.Chat.Usage(id) }

// ExportSession asks where to save (a dialog titled dialogTitle, in the window's
// language) and writes the chat as "markdown" or "json"; it returns the path, or ""
// when the dialog was cancelled.
func (a *SessionsAPI) ExportSession(id, title, format, dialogTitle string) (string, error) {
	path, err := runtime.SaveFileDialog(a.ctx, runtime.SaveDialogOptions{
		Title: dialogTitle, DefaultFilename: sessions.ExportName(title, format),
	})
	if err != nil || path == "" {
		return "", err
	}
	return path, a.h.Sessions.ExportFile(id, format, path)
}

// ListModels lists the installed Ollama models with details.
func (a *ModelsAPI) ListModels() ([]models.ModelEntry, error) { return a.h.Models.List(a.context()) }

// PullModel starts a download and returns its pull id.
func (a *ModelsAPI) PullModel(name string) (string, error) {
	return a.h.Models.StartPull(name, func(ev models.PullEvent) {
		a.relay.Publish(event.PullChannel(ev.PullID), ev, ev.Done)
	})
}

// CancelPull stops a download.
func (a *ModelsAPI) CancelPull(id string) bool { return a.h.Models.CancelPull(id) }

// DeleteModel removes an installed model.
func (a *ModelsAPI) DeleteModel(name string) error { return a.h.Models.Delete(a.context(), name) }

// modelCheckedEvent carries every new fitness.Result to the window (background.go).
const modelCheckedEvent = "models:checked"

// CheckModel runs the model fitness check now (up to half a minute) and keeps the
// result; background checks arrive on "models:checked".
func (a *ModelsAPI) CheckModel(name string) (fitness.Result, error) {
	return a.h.Models.Check(a.context(), name)
}

// GetSettings returns what the Settings view edits (API keys withheld).
func (a *SettingsAPI) GetSettings() settings.Settings { return a.h.Settings.Settings() }

// SaveSettings validates and writes config.json.
func (a *SettingsAPI) SaveSettings(s settings.Settings) (settings.SaveResult, error) {
	return a.h.SaveSettings(s)
}

// FirstRun reports what the first-run guide checks.
func (a *ModelsAPI) FirstRun() models.FirstRun { return a.h.Models.FirstRun(a.context(), nil) }

// StartOllama starts the installed `ollama serve` (the Start Ollama buttons) and returns
// its version once it answers; Hearth starts it again at later launches and stops it
// on quit unless another program uses it (backend/models, engine.go).
func (a *ModelsAPI) StartOllama() (string, error) { return a.h.Models.StartOllama(a.context()) }

// SetToolsAnyway records or withdraws "Offer tools anyway" for a model (kept per model
// and digest; the next turn honours it).
func (a *ModelsAPI) SetToolsAnyway(name string, on bool) error {
	return a.h.Models.SetToolsAnyway(a.context(), name, on)
}

// ChooseFiles opens a file picker for attachments (several at once); none when
// cancelled. The paths go to SendMessage's files, which copies them.
func (a *App) ChooseFiles(title string) ([]string, error) {
	return runtime.OpenMultipleFilesDialog(a.ctx, runtime.OpenDialogOptions{Title: title})
}

// DroppedFiles checks the paths of files dropped on the window (the native drop's
// wails:file-drop) for the composer's chips; the paths then go to SendMessage's
// files, as picked ones do.
func (a *ChatAPI) DroppedFiles(paths []string) []attach.Dropped { return a.h.Attach.Dropped(paths) }

// OpenAttachment shows a file attached to the chat in the system's viewer (a
// citation under an answer clicked).
func (a *ChatAPI) OpenAttachment(sessionID, file string) error {
	return a.h.Attach.Open(sessionID, file)
}

// ViewAttachment is the text of a chat's attached file around a cited line, for
// the window's read-only file view (backend/attach, View).
func (a *ChatAPI) ViewAttachment(sessionID, file string, line int) (extract.View, error) {
	return a.h.Attach.View(sessionID, file, line)
}

// ChooseFolder opens a folder picker; "" when cancelled.
func (a *App) ChooseFolder(title string) (string, error) {
	return runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
}
