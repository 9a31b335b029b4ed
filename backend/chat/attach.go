package chat

import (
	"encoding/base64"
	"fmt"
	"time"

	"hearth/backend/agent"
	"hearth/backend/session"
)

// Attacher keeps the files attached to a chat's messages (backend/attach).
type Attacher interface {
	// Add copies and indexes the files for the chat; a file that cannot be
	// attached comes back as a "refused" record, never as an error.
	Add(sessionID string, files []AttachSource) []agent.Attachment
}

// AttachSource is one file to attach: a path, or bytes with a name.
type AttachSource struct {
	Path string
	Name string
	Data []byte
}

// PastedFile is a file pasted into the composer: its name and its content in
// base64 (a data: URL prefix is allowed).
type PastedFile struct {
	Name string `json:"name"`
	Data string `json:"data"`
}

// maxPastedBytes bounds the files pasted into one message, all together, as
// maxImageBytes bounds pictures: bigger files are attached by path.
const maxPastedBytes = 20 << 20

// maxFiles bounds the files of one message.
const maxFiles = 20

// attach copies the message's files into its chat's folder before the run starts
// and returns the chat's id (made here for a new chat, so the folder has a name)
// and the records. A file that cannot be attached is a refused record; the
// message goes on.
func (s *Service) attach(sessionID string, paths []string, pasted []PastedFile) (string, []agent.Attachment, error) {
	if len(paths)+len(pasted) == 0 {
		return sessionID, nil, nil
	}
	if s.opts.Attach == nil {
		return "", nil, fmt.Errorf("send: attaching files is not available here (hint: send the text alone)")
	}
	if len(paths)+len(pasted) > maxFiles {
		return "", nil, fmt.Errorf("send: %d files in one message (hint: attach at most %d; send the rest in another message)", len(paths)+len(pasted), maxFiles)
	}
	srcs := make([]AttachSource, 0, len(paths)+len(pasted))
	for _, p := range paths {
		srcs = append(srcs, AttachSource{Path: p})
	}
	total := 0
	for i, p := range pasted {
		b, err := decodeBase64(p.Data)
		if err != nil {
			return "", nil, fmt.Errorf("pasted file %d (%s): not base64: %w (hint: paste it again or attach it with the button)", i+1, p.Name, err)
		}
		if total += len(b); total > maxPastedBytes {
			return "", nil, fmt.Errorf("the pasted files are more than %d MB in all (hint: attach big files with the button, which copies them from disk)", maxPastedBytes>>20)
		}
		srcs = append(srcs, AttachSource{Name: p.Name, Data: b})
	}
	if sessionID == "" {
		sessionID = session.NewID(time.Now())
	}
	return sessionID, s.opts.Attach.Add(sessionID, srcs), nil
}

// AttachFiles copies the files at paths into the chat's folder (the CLI's
// --file) and returns the chat's id (made when sessionID is empty) and the
// records to start the run with.
func (s *Service) AttachFiles(sessionID string, paths []string) (string, []agent.Attachment, error) {
	return s.attach(sessionID, paths, nil)
}

func decodeBase64(s string) ([]byte, error) {
	if len(s) > 5 && s[:5] == "data:" {
		for i := 0; i+8 <= len(s); i++ {
			if s[i:i+8] == ";base64," {
				s = s[i+8:]
				break
			}
		}
	}
	if base64.StdEncoding.DecodedLen(len(s)) > maxPastedBytes+3 {
		return nil, fmt.Errorf("over %d MB", maxPastedBytes>>20)
	}
	return base64.StdEncoding.DecodeString(s)
}
