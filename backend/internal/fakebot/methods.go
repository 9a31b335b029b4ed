package fakebot

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

func (s *Server) call(w http.ResponseWriter, r *http.Request, method string, p map[string]any) {
	s.mu.Lock()
	s.log = append(s.log, Request{Method: method, Params: p})
	if s.fail > 0 {
		s.fail--
		retry := s.retry
		s.mu.Unlock()
		writeError(w, http.StatusTooManyRequests, "Too Many Requests: retry after "+strconv.Itoa(retry), retry)
		return
	}
	blocked := s.blocked[num(p["chat_id"])]
	s.mu.Unlock()
	if blocked && method != "getUpdates" && method != "getMe" {
		writeError(w, http.StatusForbidden, "Forbidden: bot was blocked by the user", 0)
		return
	}
	switch method {
	case "getMe":
		writeOK(w, map[string]any{"id": BotUser.ID, "is_bot": true, "first_name": BotUser.FirstName,
			"username": BotUser.Username, "can_join_groups": true, "can_read_all_group_messages": false,
			"supports_inline_queries": false})
	case "getUpdates":
		s.getUpdates(w, r, p)
	case "sendMessage":
		s.sendMessage(w, p)
	case "editMessageText":
		s.editMessageText(w, p)
	case "sendChatAction":
		if num(p["chat_id"]) == 0 || str(p["action"]) == "" {
			writeError(w, http.StatusBadRequest, "Bad Request: chat not found", 0)
			return
		}
		writeOK(w, true)
	case "answerCallbackQuery":
		id := str(p["callback_query_id"])
		s.mu.Lock()
		known := s.answered[id]
		s.answered[id] = true
		s.mu.Unlock()
		if known || id == "" {
			writeError(w, http.StatusBadRequest, "Bad Request: query is too old and response timeout expired or query ID is invalid", 0)
			return
		}
		writeOK(w, true)
	case "getFile":
		s.getFile(w, p)
	case "setMyCommands":
		cmds, _ := p["commands"].([]any)
		for _, c := range cmds {
			m, _ := c.(map[string]any)
			name := str(m["command"])
			if name == "" || len(name) > 32 || strings.ToLower(name) != name || str(m["description"]) == "" {
				writeError(w, http.StatusBadRequest, "Bad Request: BOT_COMMAND_INVALID", 0)
				return
			}
		}
		writeOK(w, true)
	default:
		writeError(w, http.StatusNotFound, "Not Found", 0)
	}
}

func (s *Server) getUpdates(w http.ResponseWriter, r *http.Request, p map[string]any) {
	offset, limit, timeout := num(p["offset"]), num(p["limit"]), num(p["timeout"])
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	deadline := time.Now().Add(time.Duration(timeout) * time.Second)
	for {
		s.mu.Lock()
		if s.down {
			s.mu.Unlock()
			hangUp(w)
			return
		}
		if s.conflict > 0 {
			s.conflict--
			s.mu.Unlock()
			writeError(w, http.StatusConflict, "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running", 0)
			return
		}
		if s.huge > 0 {
			s.huge--
			s.mu.Unlock()
			endless(w)
			return
		}
		// An offset confirms every update below it: those are forgotten.
		if offset > 0 {
			keep := s.updates[:0]
			for _, u := range s.updates {
				if u.id >= offset {
					keep = append(keep, u)
				}
			}
			s.updates = keep
		}
		if len(s.updates) > 0 || time.Now().After(deadline) {
			out := []map[string]any{}
			for _, u := range s.updates {
				if int64(len(out)) == limit {
					break
				}
				out = append(out, u.upd)
			}
			s.mu.Unlock()
			writeOK(w, out)
			return
		}
		wake := s.wake
		s.mu.Unlock()
		s.sleepOr(time.Until(deadline), wake, r)
		select {
		case <-s.closed:
			writeOK(w, []any{})
			return
		case <-r.Context().Done():
			return
		default:
		}
	}
}

// endless writes the start of an answer and then filler until the reader stops.
func endless(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"ok":true,"result":[{"update_id":1,"message":{"text":"`))
	chunk := []byte(strings.Repeat("A", 64<<10))
	for i := 0; i < 1024; i++ { // 64 MiB at most
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// checkText applies sendMessage's rules to text in parse mode mode and returns
// what the person sees.
func (s *Server) checkText(text, mode string) (string, string) {
	s.mu.Lock()
	refuse := s.badHTML > 0 && strings.EqualFold(mode, "HTML")
	if refuse {
		s.badHTML--
	}
	s.mu.Unlock()
	if refuse {
		return "", "Bad Request: can't parse entities: Unsupported start tag \"x\" at byte offset 0"
	}
	if strings.TrimSpace(text) == "" {
		return "", "Bad Request: message text is empty"
	}
	visible := text
	if strings.EqualFold(mode, "HTML") {
		v, err := ParseHTML(text)
		if err != nil {
			return "", "Bad Request: can't parse entities: " + err.Error()
		}
		visible = v
	} else if mode != "" {
		return "", "Bad Request: unsupported parse_mode"
	}
	if Len(visible) > 4096 {
		return "", "Bad Request: message is too long"
	}
	return visible, ""
}

// checkMarkup checks inline buttons and returns the markup as the fake keeps it.
func checkMarkup(m any) (string, string) {
	if m == nil {
		return "", ""
	}
	raw, _ := json.Marshal(m)
	var kb struct {
		InlineKeyboard [][]struct {
			Text         string `json:"text"`
			CallbackData string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal(raw, &kb); err != nil {
		return "", "Bad Request: can't parse reply keyboard markup JSON object"
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if b.Text == "" {
				return "", "Bad Request: text buttons are unallowed in the inline keyboard"
			}
			if len(b.CallbackData) < 1 || len(b.CallbackData) > 64 {
				return "", "Bad Request: BUTTON_DATA_INVALID"
			}
		}
	}
	return string(raw), ""
}

func (s *Server) message(chat, id int64, visible string) map[string]any {
	ct := "private"
	if chat < 0 {
		ct = "supergroup"
	}
	return map[string]any{"message_id": id, "date": time.Now().Unix(), "text": visible,
		"from": map[string]any{"id": BotUser.ID, "is_bot": true, "first_name": BotUser.FirstName, "username": BotUser.Username},
		"chat": map[string]any{"id": chat, "type": ct}}
}

func (s *Server) sendMessage(w http.ResponseWriter, p map[string]any) {
	chat := num(p["chat_id"])
	if chat == 0 {
		writeError(w, http.StatusBadRequest, "Bad Request: chat not found", 0)
		return
	}
	text, mode := str(p["text"]), str(p["parse_mode"])
	visible, bad := s.checkText(text, mode)
	markup, badKB := checkMarkup(p["reply_markup"])
	if bad == "" {
		bad = badKB
	}
	if bad != "" {
		writeError(w, http.StatusBadRequest, bad, 0)
		return
	}
	s.mu.Lock()
	s.nextMsg++
	id := s.nextMsg
	s.sent[msgKey{chat, id}] = &sentMsg{text: text, mode: mode, markup: markup}
	s.order = append(s.order, msgKey{chat, id})
	s.mu.Unlock()
	writeOK(w, s.message(chat, id, visible))
}

func (s *Server) editMessageText(w http.ResponseWriter, p map[string]any) {
	chat, id := num(p["chat_id"]), num(p["message_id"])
	text, mode := str(p["text"]), str(p["parse_mode"])
	visible, bad := s.checkText(text, mode)
	markup, badKB := checkMarkup(p["reply_markup"])
	if bad == "" {
		bad = badKB
	}
	if bad != "" {
		writeError(w, http.StatusBadRequest, bad, 0)
		return
	}
	s.mu.Lock()
	m, ok := s.sent[msgKey{chat, id}]
	switch {
	case !ok:
		bad = "Bad Request: message to edit not found"
	case m.text == text && m.mode == mode && m.markup == markup:
		bad = "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message"
	default:
		*m = sentMsg{text: text, mode: mode, markup: markup}
	}
	s.mu.Unlock()
	if bad != "" {
		writeError(w, http.StatusBadRequest, bad, 0)
		return
	}
	writeOK(w, s.message(chat, id, visible))
}

func (s *Server) getFile(w http.ResponseWriter, p map[string]any) {
	id := str(p["file_id"])
	s.mu.Lock()
	f, ok := s.files[id]
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusBadRequest, "Bad Request: invalid file_id", 0)
		return
	}
	if f.declared > 20<<20 {
		writeError(w, http.StatusBadRequest, "Bad Request: file is too big", 0)
		return
	}
	writeOK(w, map[string]any{"file_id": id, "file_unique_id": "u" + id, "file_size": f.declared, "file_path": f.path})
}

// num reads an integer parameter sent as a JSON number or a string.
func num(v any) int64 {
	switch v := v.(type) {
	case json.Number:
		n, _ := v.Int64()
		return n
	case string:
		n, _ := strconv.ParseInt(v, 10, 64)
		return n
	case float64:
		return int64(v)
	}
	return 0
}

func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}
