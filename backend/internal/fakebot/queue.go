package fakebot

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
)

// Chat is where a queued message is sent from.
type Chat struct {
	ID    int64
	Type  string // "private" (default), "group" or "supergroup"
	Title string
}

// Private is the private chat with u.
func Private(u User) Chat { return Chat{ID: u.ID, Type: "private"} }

// Group is a supergroup with id (negative, as Telegram's are).
func Group(id int64) Chat { return Chat{ID: id, Type: "supergroup", Title: "Family"} }

// Msg is what a person sends.
type Msg struct {
	Chat    Chat
	From    User
	Text    string // entities (mentions, commands) are found as Telegram does
	ReplyTo int64  // the id of a message the bot sent, to reply to it
	Photo   []byte // sent as two sizes: a small one and this
	// Document and Voice are files; Caption goes with any media.
	Document *FileSpec
	Voice    *FileSpec
	Caption  string
}

// FileSpec is a file a person sends.
type FileSpec struct {
	Name, MIME string
	Data       []byte
	// Declared is the size Telegram states (0: len(Data)); Serve, when set,
	// is what the download really answers (a file that inflates).
	Declared int64
	Serve    []byte
}

// Send queues a message and returns its update_id.
func (s *Server) Send(m Msg) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.Chat.Type == "" {
		m.Chat = Private(m.From)
	}
	s.nextMsg++
	msg := map[string]any{"message_id": s.nextMsg, "date": time.Now().Unix(),
		"from": userJSON(m.From), "chat": chatJSON(m.Chat)}
	if m.Text != "" {
		msg["text"] = m.Text
		if e := entities(m.Text); len(e) > 0 {
			msg["entities"] = e
		}
	}
	if m.Caption != "" {
		msg["caption"] = m.Caption
		if e := entities(m.Caption); len(e) > 0 {
			msg["caption_entities"] = e
		}
	}
	if m.ReplyTo != 0 {
		msg["reply_to_message"] = map[string]any{"message_id": m.ReplyTo, "date": time.Now().Unix(),
			"from": userJSON(BotUser), "chat": chatJSON(m.Chat), "text": "…"}
	}
	if m.Photo != nil {
		small := m.Photo[:min(len(m.Photo), 16)]
		msg["photo"] = []map[string]any{
			s.photo(small, 90, 60),
			s.photo(m.Photo, 1280, 853),
		}
	}
	if d := m.Document; d != nil {
		e := s.file(d, "documents/"+d.Name)
		msg["document"] = map[string]any{"file_id": e, "file_unique_id": "u" + e, "file_name": d.Name,
			"mime_type": d.MIME, "file_size": s.files[e].declared}
	}
	if v := m.Voice; v != nil {
		e := s.file(v, "voice/file_"+strconv.Itoa(len(s.files))+".oga")
		msg["voice"] = map[string]any{"file_id": e, "file_unique_id": "u" + e, "duration": 3,
			"mime_type": "audio/ogg", "file_size": s.files[e].declared}
	}
	return s.queue(map[string]any{"message": msg})
}

// Press queues a press of a button the bot sent in message msg of chat.
func (s *Server) Press(from User, chat Chat, msg int64, data string) (update int64, queryID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	queryID = "cq" + strconv.FormatInt(s.nextUpd+1, 10)
	q := map[string]any{"id": queryID, "from": userJSON(from), "chat_instance": "-42" + strconv.FormatInt(chat.ID, 10),
		"data": data, "message": map[string]any{"message_id": msg, "date": time.Now().Unix(),
			"from": userJSON(BotUser), "chat": chatJSON(chat), "text": "…"}}
	return s.queue(map[string]any{"callback_query": q}), queryID
}

// Duplicate queues again the update with id id, as a server that resends does.
func (s *Server) Duplicate(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.updates {
		if u.id == id {
			s.updates = append(s.updates, u)
			s.notify()
			return
		}
	}
}

func (s *Server) queue(body map[string]any) int64 {
	s.nextUpd++
	body["update_id"] = s.nextUpd
	s.updates = append(s.updates, queued{id: s.nextUpd, upd: body})
	s.notify()
	return s.nextUpd
}

func (s *Server) photo(data []byte, w, h int) map[string]any {
	id := s.file(&FileSpec{Data: data}, "photos/file_"+strconv.Itoa(len(s.files))+".jpg")
	return map[string]any{"file_id": id, "file_unique_id": "u" + id, "width": w, "height": h, "file_size": len(data)}
}

// file registers a file and returns its file_id (call with mu held).
func (s *Server) file(f *FileSpec, path string) string {
	id := "F" + strconv.Itoa(len(s.files)+1) + "-AgADBAAD"
	e := &fileEntry{path: path, data: f.Data, declared: f.Declared}
	if e.declared == 0 {
		e.declared = int64(len(f.Data))
	}
	if f.Serve != nil {
		e.data = f.Serve
	}
	s.files[id] = e
	return id
}

func userJSON(u User) map[string]any {
	m := map[string]any{"id": u.ID, "is_bot": u.IsBot, "first_name": u.FirstName}
	if u.Username != "" {
		m["username"] = u.Username
	}
	if u.LastName != "" {
		m["last_name"] = u.LastName
	}
	return m
}

func chatJSON(c Chat) map[string]any {
	m := map[string]any{"id": c.ID, "type": c.Type}
	if c.Title != "" {
		m["title"] = c.Title
	}
	return m
}

// entities finds @mentions and /commands the way Telegram's apps mark them:
// words that start with @ or /, offsets and lengths in UTF-16 code units.
func entities(text string) []map[string]any {
	var out []map[string]any
	units, start := 0, -1
	var word []rune
	flush := func() {
		if start >= 0 && len(word) > 1 {
			n := len(utf16.Encode(word))
			switch word[0] {
			case '@':
				out = append(out, map[string]any{"type": "mention", "offset": start, "length": n})
			case '/':
				out = append(out, map[string]any{"type": "bot_command", "offset": start, "length": n})
			}
		}
		start, word = -1, nil
	}
	for _, r := range text {
		if unicode.IsSpace(r) || strings.ContainsRune(",.!?;:", r) {
			flush()
		} else {
			if start < 0 {
				start = units
			}
			word = append(word, r)
		}
		units += len(utf16.Encode([]rune{r}))
	}
	flush()
	return out
}
