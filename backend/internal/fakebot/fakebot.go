// Package fakebot is a test helper: a Bot API server on loopback that answers
// as Telegram's reference documents — the {"ok":…} envelope and its error
// form, getUpdates with offsets and long polling, message limits, edits,
// button answers, files — with controls to queue what people send and to make
// it fail (429 with retry_after, an outage, a revoked token, a huge answer).
// The contract test of backend/channels/telegram holds its answers to the
// reference's field names and types.
package fakebot

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Token is the token the fake accepts unless a test says otherwise.
const Token = "123456:TEST-token_for-the-fake"

// BotUser is the bot as getMe answers.
var BotUser = User{ID: 777000111, IsBot: true, FirstName: "Hearth", Username: "hearth_test_bot"}

// User is a Telegram user as the fake sends it.
type User struct {
	ID        int64  `json:"id"`
	IsBot     bool   `json:"is_bot"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name,omitempty"`
	Username  string `json:"username,omitempty"`
}

// Request is one call the fake received.
type Request struct {
	Method string
	Params map[string]any
}

// Server is the fake Bot API.
type Server struct {
	URL string // pass as the adapter's BaseURL

	srv    *httptest.Server
	closed chan struct{}

	mu       sync.Mutex
	wake     chan struct{} // closed and replaced when something a poll waits for happens
	token    string
	updates  []queued
	nextUpd  int64
	nextMsg  int64
	sent     map[msgKey]*sentMsg
	order    []msgKey // sent, oldest first
	files    map[string]*fileEntry
	log      []Request
	fail     int // next calls answered 429
	retry    int // their retry_after
	conflict int // next getUpdates answered 409
	huge     int // next getUpdates answered with an endless body
	down     bool
	hung     int             // calls dropped during outages
	badHTML  int             // next HTML texts refused as unparsable
	answered map[string]bool // callback queries answered
	blocked  map[int64]bool  // chats that refuse the bot
}

type queued struct {
	id  int64
	upd map[string]any
}

type msgKey struct{ chat, msg int64 }

type sentMsg struct {
	text, mode, markup string
}

type fileEntry struct {
	path     string
	data     []byte // what the download serves
	declared int64
}

// New starts a fake on loopback; the test's cleanup stops it.
func New(t testing.TB) *Server {
	s := &Server{closed: make(chan struct{}), wake: make(chan struct{}), token: Token,
		nextUpd: 500000, nextMsg: 1000, sent: map[msgKey]*sentMsg{}, files: map[string]*fileEntry{}, answered: map[string]bool{}, blocked: map[int64]bool{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(func() {
		close(s.closed)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
	return s
}

// notify wakes the polls waiting (call with mu held).
func (s *Server) notify() {
	close(s.wake)
	s.wake = make(chan struct{})
}

// Fail429 answers the next n calls with 429 and parameters.retry_after.
func (s *Server) Fail429(n, retryAfter int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail, s.retry = n, retryAfter
}

// Conflict answers the next n getUpdates with 409, as when another poller runs.
func (s *Server) Conflict(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conflict = n
}

// Huge answers the next n getUpdates with a body that never ends.
func (s *Server) Huge(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.huge = n
}

// RefuseHTML answers the next n texts sent with parse_mode HTML with
// "can't parse entities", as Telegram does for HTML it cannot read.
func (s *Server) RefuseHTML(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.badHTML = n
}

// Down starts an outage: every connection is closed unanswered, polls in flight too.
func (s *Server) Down() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = true
	s.notify()
}

// DownFor starts an outage that ends by itself after d.
func (s *Server) DownFor(d time.Duration) {
	s.Down()
	time.AfterFunc(d, s.Up)
}

// Up ends the outage.
func (s *Server) Up() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = false
}

// HungUp counts the calls dropped during outages (a test knows the client felt one).
func (s *Server) HungUp() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hung
}

// IsDown says whether an outage is on.
func (s *Server) IsDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}

// Block makes chat refuse the bot, as when the person blocks it.
func (s *Server) Block(chat int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.blocked[chat] = true
}

// Revoke makes the adapter's token wrong, as when it is revoked in @BotFather.
func (s *Server) Revoke() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token = "revoked"
	s.notify()
}

// Log returns the calls received, oldest first; methods filters them ("" all).
func (s *Server) Log(methods ...string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.log {
		if len(methods) == 0 || contains(methods, r.Method) {
			out = append(out, r)
		}
	}
	return out
}

// Pending is how many updates wait unconfirmed.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.updates)
}

// Text returns the text (as sent, and its parse mode) of a message the bot sent.
func (s *Server) Text(chat, msg int64) (text, mode string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.sent[msgKey{chat, msg}]
	if !ok {
		return "", "", false
	}
	return m.text, m.mode, true
}

// Sent is a message the bot sent, as it stands after its edits.
type Sent struct {
	ID      int64
	Text    string // as sent (HTML when Mode is "HTML")
	Mode    string
	Buttons []string // the callback data of its buttons, row by row
}

// Messages returns what the bot sent to chat, oldest first.
func (s *Server) Messages(chat int64) []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Sent
	for _, k := range s.order {
		if k.chat != chat {
			continue
		}
		m := s.sent[k]
		out = append(out, Sent{ID: k.msg, Text: m.text, Mode: m.mode, Buttons: buttonData(m.markup)})
	}
	return out
}

func buttonData(markup string) []string {
	var kb struct {
		InlineKeyboard [][]struct {
			CallbackData string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	if json.Unmarshal([]byte(markup), &kb) != nil {
		return nil
	}
	var out []string
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			out = append(out, b.CallbackData)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	down, token := s.down, s.token
	if down {
		s.hung++
	}
	s.mu.Unlock()
	if down {
		hangUp(w)
		return
	}
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/file/bot"):
		rest := strings.TrimPrefix(p, "/file/bot")
		tok, path, _ := strings.Cut(rest, "/")
		if tok != token {
			writeError(w, http.StatusUnauthorized, "Unauthorized", 0)
			return
		}
		s.download(w, path)
	case strings.HasPrefix(p, "/bot"):
		tok, method, _ := strings.Cut(strings.TrimPrefix(p, "/bot"), "/")
		if tok != token {
			writeError(w, http.StatusUnauthorized, "Unauthorized", 0)
			return
		}
		params := map[string]any{}
		if r.Body != nil {
			dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
			dec.UseNumber()
			_ = dec.Decode(&params)
		}
		for k, v := range r.URL.Query() {
			params[k] = v[0]
		}
		s.call(w, r, method, params)
	default:
		writeError(w, http.StatusNotFound, "Not Found", 0)
	}
}

// hangUp closes the connection without an answer, as a dropped network does.
func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			_ = c.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

func writeOK(w http.ResponseWriter, result any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

func writeError(w http.ResponseWriter, code int, desc string, retryAfter int) {
	body := map[string]any{"ok": false, "error_code": code, "description": desc}
	if retryAfter > 0 {
		body["parameters"] = map[string]any{"retry_after": retryAfter}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(body)
}

func (s *Server) download(w http.ResponseWriter, path string) {
	s.mu.Lock()
	var f *fileEntry
	for _, e := range s.files {
		if e.path == path {
			f = e
		}
	}
	s.mu.Unlock()
	if f == nil {
		writeError(w, http.StatusNotFound, "Not Found", 0)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(f.data)
}

// sleepOr waits d, or less when the server closes or something is queued.
func (s *Server) sleepOr(d time.Duration, wake chan struct{}, r *http.Request) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-wake:
	case <-s.closed:
	case <-r.Context().Done():
	}
}
