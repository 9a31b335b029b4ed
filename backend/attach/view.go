package attach

import (
	"errors"
	"io/fs"
	"slices"

	"hearth/backend/extract"
	"hearth/backend/i18n"
	"hearth/backend/internal/nofollow"
)

// Error is a refusal said to the person (Msg in the UI language).
type Error struct{ Msg i18n.Message }

func (e *Error) Error() string { return e.Msg.String() }

// UserMessage is the refusal as a catalog code and its arguments.
func (e *Error) UserMessage() i18n.Message { return e.Msg }

func refuse(code string, pairs ...string) error { return &Error{Msg: i18n.M(code, pairs...)} }

// View is the text of the chat's copy file around line (a citation "[file
// line N]" clicked): the lines passages number, bounded as extract.Window
// bounds them. Only a file attached to this chat is read — a citation is the
// model's text — and its copy is reached without following a link; a pipe or
// a device put in its place is refused without being waited on.
func (s *Store) View(sessionID, file string, line int) (extract.View, error) {
	if s.Path(sessionID, file) == "" || !slices.Contains(s.Files(sessionID), file) {
		return extract.View{}, refuse("attach.view.notChat", "file", file)
	}
	dir, err := s.openChat(sessionID, false)
	if err != nil {
		return extract.View{}, viewRefusal(file, err)
	}
	defer dir.Close()
	data, err := readCopy(dir, file, s.limits().MaxBytes)
	if err != nil {
		return extract.View{}, viewRefusal(file, err)
	}
	doc, err := extract.Bytes(file, data, s.limits())
	if err != nil {
		return extract.View{}, err // coded by extract
	}
	return extract.Window(doc, line)
}

// viewRefusal words why the copy file could not be read.
func viewRefusal(file string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return refuse("attach.view.gone", "file", file)
	case errors.Is(err, nofollow.ErrLink):
		return refuse("attach.view.link", "file", file)
	case errors.Is(err, nofollow.ErrSpecial):
		return refuse("attach.view.special", "file", file)
	}
	return refuse("attach.view.unreadable", "file", file, "error", err.Error())
}
