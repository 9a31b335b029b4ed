package channels

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/nofollow"
)

// persisted is channels.json in the state folder: what the Service remembers
// across restarts besides the config (which holds allowFrom).
type persisted struct {
	// Requests are strangers who sent /start and wait for the person's answer.
	Requests []request `json:"requests"`
	// Names and Since describe the paired users for Settings (never trusted).
	Names map[string]string    `json:"names"`
	Since map[string]time.Time `json:"since"`
	// Refused are the users told once that they may not talk to the agent.
	Refused map[string]time.Time `json:"refused"`
	// Sessions are the chats that went on in a fresh Hearth chat after /new.
	Sessions map[string]string `json:"sessions"`
}

type request struct {
	Peer
	ChatID string `json:"chatId"`
}

// Bounds of channels.json: a flood of strangers cannot grow it without end.
const (
	maxStateBytes = 1 << 20
	maxRequests   = 20
	maxRefused    = 1000
	maxNameRunes  = 64
)

const stateFile = "channels.json"

// parseState reads channels.json; a damaged file gives an empty state (it holds
// nothing that cannot be asked again: allowFrom lives in the config).
func parseState(data []byte) (*persisted, error) {
	st := &persisted{}
	var err error
	if len(data) > 0 {
		err = json.Unmarshal(data, st)
	}
	if err != nil {
		st = &persisted{}
	}
	st.fill()
	return st, err
}

func (st *persisted) fill() {
	if st.Names == nil {
		st.Names = map[string]string{}
	}
	if st.Since == nil {
		st.Since = map[string]time.Time{}
	}
	if st.Refused == nil {
		st.Refused = map[string]time.Time{}
	}
	if st.Sessions == nil {
		st.Sessions = map[string]string{}
	}
	if len(st.Requests) > maxRequests {
		st.Requests = st.Requests[len(st.Requests)-maxRequests:]
	}
	for id, sess := range st.Sessions {
		if c, ok := chatOf(sess); !ok || c != id {
			delete(st.Sessions, id) // only a chat's own sessions: never another chat's
		}
	}
}

// loadState is the state, read once; s.mu is held.
func (s *Service) loadState() *persisted {
	if s.st != nil {
		return s.st
	}
	var data []byte
	if s.opts.StateDir != nil {
		if dir := s.opts.StateDir(); dir != "" {
			var err error
			data, err = nofollow.ReadFile(dir, stateFile, maxStateBytes)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				s.log.Warn("channels state unreadable; starting afresh", "err", err)
			}
		}
	}
	st, err := parseState(data)
	if err != nil {
		s.log.Warn("channels state damaged; starting afresh", "err", err)
	}
	s.st = st
	return st
}

// editState changes the state and saves it; s.mu is held.
func (s *Service) editState(fn func(*persisted)) {
	st := s.loadState()
	fn(st)
	if len(st.Refused) > maxRefused { // forget the oldest: at worst they are told again
		var oldest string
		for id, at := range st.Refused {
			if oldest == "" || at.Before(st.Refused[oldest]) {
				oldest = id
			}
		}
		delete(st.Refused, oldest)
	}
	if s.opts.StateDir == nil || s.opts.StateDir() == "" {
		return
	}
	dir := s.opts.StateDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		s.log.Warn("channels state not saved", "err", err)
		return
	}
	if err := atomicfile.WriteJSON(filepath.Join(dir, stateFile), st); err != nil {
		s.log.Warn("channels state not saved", "err", err)
	}
}

// takeRequest removes a pairing request and returns it.
func (s *Service) takeRequest(id string) (request, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out request
	found := false
	s.editState(func(st *persisted) {
		for i, r := range st.Requests {
			if r.ID == id {
				out, found = r, true
				st.Requests = append(st.Requests[:i], st.Requests[i+1:]...)
				return
			}
		}
	})
	return out, found
}

// clipName keeps a display name short and on one line.
func clipName(n string) string {
	n = strings.Join(strings.Fields(n), " ")
	if utf8.RuneCountInString(n) > maxNameRunes {
		n = string([]rune(n)[:maxNameRunes]) + "…"
	}
	return n
}

// Prefix of the Hearth chats of Telegram chats.
const telegramPrefix = "telegram:"

// sessionOf is the Hearth chat a Telegram chat goes on in.
func (s *Service) sessionOf(chatID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess, ok := s.loadState().Sessions[chatID]; ok {
		return sess
	}
	return telegramPrefix + chatID
}

// chatOf is the Telegram chat of a Hearth chat: "telegram:<chat>" and, after
// /new, "telegram:<chat>#<n>".
func chatOf(sessionID string) (string, bool) {
	rest, ok := strings.CutPrefix(sessionID, telegramPrefix)
	if !ok {
		return "", false
	}
	chat, _, _ := strings.Cut(rest, "#")
	return chat, chat != ""
}
