package app

import (
	"fmt"
	"log/slog"
	"os/exec"
	"path/filepath"

	"hearth/backend/attach"
	"hearth/backend/chat"
	"hearth/backend/llm"
	"hearth/backend/settings"
	"hearth/backend/tools"
)

// newAttach keeps attachments in <data>/attachments, beside the sessions; a file
// up to a quarter of the configured window is sent whole.
func newAttach(st *settings.Service) *attach.Store {
	return attach.New(attach.Options{
		Dir: func() string { return filepath.Join(st.Paths().DataDir, "attachments") },
		WholeTokens: func() int {
			if n := st.Config().Agents.Defaults.ContextTokens; n > 0 {
				return n / 4
			}
			return 0
		},
		Open: openInViewer,
	})
}

// openInViewer opens path with the desktop's default application for its type
// (xdg-open: the PDF viewer, the text editor), without waiting for it.
func openInViewer(path string) error {
	cmd := exec.Command("xdg-open", path)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open %s: %w (hint: install xdg-utils, or open the file from %s)", filepath.Base(path), err, filepath.Dir(path))
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// attacher hands the chat's files to the store.
type attacher struct{ s *attach.Store }

func (a attacher) Add(sessionID string, files []chat.AttachSource) []llm.Attachment {
	srcs := make([]attach.Source, len(files))
	for i, f := range files {
		srcs[i] = attach.Source{Path: f.Path, Name: f.Name, Data: f.Data}
	}
	return a.s.Add(sessionID, srcs)
}

func attachTools(s *attach.Store) chat.ToolSource {
	return func() ([]tools.Tool, error) { return s.Tools(), nil }
}

// forgetAttachments removes a deleted chat's attachments folder.
func (a *App) forgetAttachments(sessionID string) {
	if err := a.Attach.Remove(sessionID); err != nil {
		slog.Warn("deleted chat's attachments stay", "session", sessionID, "error", err)
	}
}
