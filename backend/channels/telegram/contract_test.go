package telegram

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"hearth/backend/internal/fakebot"
)

// required are the fields the reference marks as always present, per object.
var required = map[string][]string{
	"Update":        {"update_id"},
	"Message":       {"message_id", "date", "chat"},
	"User":          {"id", "is_bot", "first_name"},
	"Chat":          {"id", "type"},
	"MessageEntity": {"type", "offset", "length"},
	"PhotoSize":     {"file_id", "file_unique_id", "width", "height"},
	"Document":      {"file_id", "file_unique_id"},
	"Voice":         {"file_id", "file_unique_id", "duration"},
	"File":          {"file_id", "file_unique_id"},
	"CallbackQuery": {"id", "from", "chat_instance"},
	"Envelope":      {"ok"},
	"Error":         {"ok", "error_code", "description"},
}

// objectOf names the reference object a field holds.
var objectOf = map[string]string{
	"message": "Message", "reply_to_message": "Message", "from": "User", "user": "User", "chat": "Chat",
	"entities": "MessageEntity", "caption_entities": "MessageEntity", "photo": "PhotoSize",
	"document": "Document", "voice": "Voice", "callback_query": "CallbackQuery",
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

// schema gathers, for each path of a reference answer, its fields and their
// JSON types (the union over an array's elements).
func schema(path string, v any, into map[string]map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		if into[path] == nil {
			into[path] = map[string]string{}
		}
		for k, x := range v {
			into[path][k] = kind(x)
			schema(path+"."+k, x, into)
		}
	case []any:
		for _, x := range v {
			schema(path+"[]", x, into)
		}
	}
}

// conform fails unless every field of got appears in the reference at the
// same place with the same type, and each object has its required fields.
func conform(t *testing.T, name, path, object string, got any, ref map[string]map[string]string) {
	t.Helper()
	switch g := got.(type) {
	case map[string]any:
		fields := ref[path]
		if fields == nil {
			t.Errorf("%s: the fake sends an object at %s that the reference has not", name, path)
			return
		}
		for _, k := range required[object] {
			if _, ok := g[k]; !ok {
				t.Errorf("%s: %s (%s) lacks the required field %q", name, path, object, k)
			}
		}
		keys := make([]string, 0, len(g))
		for k := range g {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			want, ok := fields[k]
			switch {
			case !ok:
				t.Errorf("%s: the fake sends %s.%s, which the reference does not have there", name, path, k)
			case want != kind(g[k]):
				t.Errorf("%s: %s.%s is a %s, the reference's a %s", name, path, k, kind(g[k]), want)
			default:
				conform(t, name, path+"."+k, objectOf[k], g[k], ref)
			}
		}
	case []any:
		for _, x := range g {
			conform(t, name, path+"[]", object, x, ref)
		}
	}
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "botapi", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return v
}

// post calls the fake as a client would and returns its raw answer.
func post(t *testing.T, fake *fakebot.Server, token, method string, params any) []byte {
	t.Helper()
	body, _ := json.Marshal(params)
	resp, err := http.Post(fake.URL+"/bot"+token+"/"+method, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return b
}

func TestFakeAnswersAsTheReference(t *testing.T) {
	fake := fakebot.New(t)
	fake.Send(fakebot.Msg{From: alice, Chat: fakebot.Group(-100123), Text: "/new@hearth_test_bot hi @hearth_test_bot", ReplyTo: 5})
	fake.Send(fakebot.Msg{From: alice, Photo: []byte("jpegdata-jpegdata-jpegdata"), Caption: "look /here"})
	fake.Send(fakebot.Msg{From: alice, Document: &fakebot.FileSpec{Name: "r.pdf", MIME: "application/pdf", Data: []byte("pdf")}})
	fake.Send(fakebot.Msg{From: alice, Voice: &fakebot.FileSpec{Data: []byte("ogg")}})
	fake.Press(alice, fakebot.Private(alice), 16, "ap:7:once")

	tok := fakebot.Token
	sent := post(t, fake, tok, "sendMessage", map[string]any{"chat_id": 4242, "text": "<b>Done</b>", "parse_mode": "HTML"})
	var sm struct {
		Result struct {
			MessageID int64 `json:"message_id"`
		} `json:"result"`
	}
	_ = json.Unmarshal(sent, &sm)
	mid := sm.Result.MessageID
	edited := post(t, fake, tok, "editMessageText", map[string]any{"chat_id": 4242, "message_id": mid, "text": "changed"})
	answers := map[string][2]any{ // name: {fixture, the fake's answer}
		"getMe":           {"getMe", post(t, fake, tok, "getMe", nil)},
		"getUpdates":      {"getUpdates", post(t, fake, tok, "getUpdates", map[string]any{"timeout": 0})},
		"sendMessage":     {"sendMessage", sent},
		"editMessageText": {"editMessageText", edited},
		"getFile":         {"getFile", post(t, fake, tok, "getFile", map[string]any{"file_id": "F3-AgADBAAD"})},
		"sendChatAction":  {"true", post(t, fake, tok, "sendChatAction", map[string]any{"chat_id": 4242, "action": "typing"})},
		"setMyCommands":   {"true", post(t, fake, tok, "setMyCommands", map[string]any{"commands": []any{}})},
		"not modified":    {"error_400", post(t, fake, tok, "editMessageText", map[string]any{"chat_id": 4242, "message_id": mid, "text": "changed"})},
		"bad HTML":        {"error_400", post(t, fake, tok, "sendMessage", map[string]any{"chat_id": 4242, "text": "<x>", "parse_mode": "HTML"})},
		"wrong token":     {"error_401", post(t, fake, "1:wrong", "getMe", nil)},
	}
	fake.Fail429(1, 5)
	answers["429"] = [2]any{"error_429", post(t, fake, tok, "getMe", nil)}

	for name, a := range answers {
		refName := a[0].(string)
		ref := map[string]map[string]string{}
		schema("", decodeAny(t, fixture(t, refName)), ref)
		got := decodeAny(t, a[1].([]byte))
		root := map[string]string{"getMe": "User", "getUpdates": "Update", "sendMessage": "Message",
			"editMessageText": "Message", "getFile": "File"}[refName]
		env := "Envelope"
		if strings.HasPrefix(refName, "error") {
			env = "Error"
		}
		if m, ok := got.(map[string]any); ok {
			for _, k := range required[env] {
				if _, ok := m[k]; !ok {
					t.Errorf("%s: the answer lacks %q: %s", name, k, a[1])
				}
			}
			if r, ok := m["result"]; ok {
				conform(t, name, ".result", root, r, ref)
				delete(m, "result")
			}
			conform(t, name, "", "", m, ref)
		} else {
			t.Errorf("%s: not an object: %s", name, a[1])
		}
	}
}

// The adapter reads the reference's answers, not only the fake's.
func TestAdapterDecodesTheReference(t *testing.T) {
	var me User
	if err := decodeAnswer("getMe", 200, fixture(t, "getMe"), &me); err != nil || me.Username != "hearth_home_bot" || !me.IsBot {
		t.Fatalf("getMe: %+v %v", me, err)
	}
	var ups []Update
	if err := decodeAnswer("getUpdates", 200, fixture(t, "getUpdates"), &ups); err != nil || len(ups) != 5 {
		t.Fatalf("getUpdates: %d %v", len(ups), err)
	}
	bot := Bot{ID: me.ID, Username: me.Username}
	in, _, ok := mapUpdate(bot, ups[0], DefaultMaxImage)
	if !ok || !in.Group || !in.Mentioned || in.Text != "/new and @hearth_home_bot hi" || in.ChatID != "-100777" || in.UserName != "@alice" {
		t.Fatalf("text message: %+v", in)
	}
	in, dls, _ := mapUpdate(bot, ups[1], DefaultMaxImage)
	if in.Group || in.Text != "what is this?" || len(dls) != 1 || dls[0].fileID != "AgAD-large" || !dls[0].image {
		t.Fatalf("photo: %+v %+v", in, dls)
	}
	if _, dls, _ = mapUpdate(bot, ups[1], 5000); dls[0].fileID != "AgAD-small" {
		t.Fatalf("photo within 5000 bytes: %+v", dls)
	}
	if _, dls, _ = mapUpdate(bot, ups[2], DefaultMaxImage); len(dls) != 1 || dls[0].file.Name != "report.pdf" || dls[0].size != 48213 {
		t.Fatalf("document: %+v", dls)
	}
	if _, dls, _ = mapUpdate(bot, ups[3], DefaultMaxImage); len(dls) != 1 || dls[0].file.Kind != "voice" || dls[0].size != 9120 {
		t.Fatalf("voice: %+v", dls)
	}
	in, _, _ = mapUpdate(bot, ups[4], DefaultMaxImage)
	if in.Button == nil || in.Button.ID != "4382bfdwdsb323b2d9" || in.Button.Data != "ap:7:once" || in.Button.MessageID != "15" || in.ChatID != "4242" {
		t.Fatalf("button: %+v", in)
	}
	var msg Message
	if err := decodeAnswer("sendMessage", 200, fixture(t, "sendMessage"), &msg); err != nil || msg.MessageID != 16 {
		t.Fatalf("sendMessage: %+v %v", msg, err)
	}
	var f File
	if err := decodeAnswer("getFile", 200, fixture(t, "getFile"), &f); err != nil || f.FilePath != "documents/file_3.pdf" || f.FileSize != 48213 {
		t.Fatalf("getFile: %+v %v", f, err)
	}
	var ae *APIError
	if err := decodeAnswer("getUpdates", 429, fixture(t, "error_429"), nil); !errors.As(err, &ae) || ae.Code != 429 || ae.RetryAfter != 7*time.Second || ae.MigrateTo != -1001234567890 {
		t.Fatalf("429: %v", err)
	}
	if err := decodeAnswer("editMessageText", 400, fixture(t, "error_400"), nil); !errors.As(err, &ae) || !ae.has("message is not modified") {
		t.Fatalf("400: %v", err)
	}
	if err := lasting(decodeAnswer("getMe", 401, fixture(t, "error_401"), nil)); !strings.Contains(err.Error(), "hint:") {
		t.Fatalf("401: %v", err)
	}
}

func FuzzDecodeUpdates(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "botapi", "getUpdates.json")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"ok":true,"result":[{"update_id":1,"message":{"message_id":1,"from":{"id":1},"chat":{"id":1,"type":"group"},"date":0,"text":"/a@b","entities":[{"type":"bot_command","offset":0,"length":99}]}}]}`))
	f.Add([]byte(`{"ok":true,"result":[{"update_id":2,"message":{"message_id":1,"from":{"id":1},"chat":{"id":1,"type":"private"},"date":0,"text":"😀/x@hearth_home_bot","entities":[{"type":"bot_command","offset":2,"length":19},{"type":"bot_command","offset":1,"length":3}]}}]}`))
	f.Add([]byte(`{"ok":false,"error_code":429,"parameters":{"retry_after":99999999999}}`))
	bot := Bot{ID: 5550001, Username: "hearth_home_bot"}
	f.Fuzz(func(t *testing.T, body []byte) {
		var ups []Update
		err := decodeAnswer("getUpdates", 200, body, &ups)
		var ae *APIError
		if errors.As(err, &ae) && (ae.RetryAfter < 0 || ae.RetryAfter > time.Hour) {
			t.Fatalf("retry_after %v out of bounds", ae.RetryAfter)
		}
		for _, u := range ups {
			in, dls, ok := mapUpdate(bot, u, DefaultMaxImage)
			if !ok {
				continue
			}
			if u.Message != nil && len(in.Text) > len(u.Message.Text)+len(u.Message.Caption) {
				t.Fatalf("the text grew: %q", in.Text)
			}
			for _, d := range dls {
				if strings.ContainsAny(d.file.Name, `/\`) || d.file.Name == ".." {
					t.Fatalf("a file name is a path: %q", d.file.Name)
				}
			}
		}
	})
}
