// Package sessions is the chats service: listing, loading, renaming, deleting and
// exporting the stored sessions, and the history view the window loads. It owns the
// session store the chat runs write to. Building it touches no file: listing the
// chats never needs a model, a tool or an agent.
package sessions

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strings"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/session"
)

// Options configure the service. Store is required.
type Options struct {
	// Store is the session store (built by the composition root: the chat runs,
	// memory and the reminders write and read it too).
	Store *session.Store
	// Workspace is where a session's spilled tool results live (they go with it).
	Workspace func() string
	// InUse says why a session cannot be deleted now (a running turn: the chat
	// service's error), or nil.
	InUse func(sessionID string) error
	// Deleted is told after a session went to the trash, so grants made "for this
	// chat" do not carry over to a new chat under the same id.
	Deleted func(sessionID string)
}

// Service is the chats service. It is safe for concurrent use.
type Service struct {
	opts  Options
	store *session.Store
}

// New returns the service over opts.Store; nothing is read or created yet.
func New(opts Options) *Service {
	if opts.Workspace == nil {
		opts.Workspace = func() string { return "" }
	}
	return &Service{opts: opts, store: opts.Store}
}

// Store is the session store the chat runs and memory consolidation use.
func (s *Service) Store() *session.Store { return s.store }

// List lists the sessions, newest first.
func (s *Service) List() ([]session.Summary, error) { return s.store.List() }

// Load reads one session with its messages, runs and interrupted turns.
func (s *Service) Load(id string) (*session.Session, error) { return s.store.Load(id) }

// Rename sets a session's title ("" restores the automatic one).
func (s *Service) Rename(id, title string) error { return s.store.Rename(id, title) }

// SetModel makes model the one session id chats with from now on ("" goes back to
// the default model).
func (s *Service) SetModel(id, model string) error {
	return s.store.SetModel(id, strings.TrimSpace(model))
}

// Delete moves a session to the trash and removes its spilled tool results. A
// running session is refused.
func (s *Service) Delete(id string) error {
	if s.opts.InUse != nil {
		if err := s.opts.InUse(id); err != nil {
			return fmt.Errorf("delete session %s: %w (hint: stop it first)", id, err)
		}
	}
	if err := s.store.Delete(id, s.opts.Workspace()); err != nil {
		return err
	}
	if s.opts.Deleted != nil {
		s.opts.Deleted(id)
	}
	return nil
}

// Export writes a session as "markdown" or "json" to w.
func (s *Service) Export(id string, format session.Format, w io.Writer) error {
	if format != session.FormatMarkdown && format != session.FormatJSON {
		return errors.New("export: format must be markdown or json")
	}
	return s.store.Export(id, format, w)
}

// ExportFile writes session id as "markdown" or "json" to path, atomically: a failed
// export leaves no half file.
func (s *Service) ExportFile(id, format, path string) error {
	if strings.TrimSpace(path) == "" {
		return fmt.Errorf("export: no file chosen")
	}
	f, err := atomicfile.Pending(path) // 0600: a chat is private
	if err != nil {
		return fmt.Errorf("export to %s: %w (hint: choose a folder you can write to)", path, err)
	}
	defer f.Cleanup() // a failed export leaves nothing behind
	if err := s.Export(id, session.Format(format), f); err != nil {
		return err
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("export to %s: %w", path, err)
	}
	return nil
}

// ExportName is a file name to offer in the save dialog.
func ExportName(title, format string) string {
	base := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) || r < 32 {
			return '-'
		}
		return r
	}, strings.TrimSpace(title))
	base = cmp.Or(base, "chat")
	if len([]rune(base)) > 60 {
		base = string([]rune(base)[:60])
	}
	if format == string(session.FormatJSON) {
		return base + ".json"
	}
	return base + ".md"
}
