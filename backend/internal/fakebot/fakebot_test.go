package fakebot

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, s *Server, method string, params any) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(params)
	resp, err := http.Post(s.URL+"/bot"+Token+"/"+method, "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

func ids(t *testing.T, ans map[string]any) []int64 {
	t.Helper()
	var out []int64
	for _, u := range ans["result"].([]any) {
		out = append(out, int64(u.(map[string]any)["update_id"].(float64)))
	}
	return out
}

var bob = User{ID: 9, FirstName: "Bob"}

func TestOffsetConfirmsAndForgets(t *testing.T) {
	s := New(t)
	a, b := s.Send(Msg{From: bob, Text: "a"}), s.Send(Msg{From: bob, Text: "b"})
	if _, ans := post(t, s, "getUpdates", map[string]any{}); len(ids(t, ans)) != 2 {
		t.Fatalf("%v", ans)
	}
	if _, ans := post(t, s, "getUpdates", map[string]any{"offset": b}); len(ids(t, ans)) != 1 || ids(t, ans)[0] != b {
		t.Fatalf("offset %d: %v", b, ans)
	}
	if s.Pending() != 1 {
		t.Fatalf("%d pending after confirming %d", s.Pending(), a)
	}
	if _, ans := post(t, s, "getUpdates", map[string]any{"offset": b + 1, "timeout": 0}); len(ids(t, ans)) != 0 {
		t.Fatalf("%v", ans)
	}
}

func TestLongPollAnswersWhenQueued(t *testing.T) {
	s := New(t)
	got := make(chan []int64, 1)
	go func() {
		_, ans := post(t, s, "getUpdates", map[string]any{"timeout": 600})
		got <- ids(t, ans)
	}()
	id := s.Send(Msg{From: bob, Text: "wake"})
	select {
	case g := <-got:
		if len(g) != 1 || g[0] != id {
			t.Fatalf("%v", g)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the poll did not answer when an update was queued")
	}
}

func TestFailuresAsTelegramAnswers(t *testing.T) {
	s := New(t)
	s.Fail429(1, 3)
	code, ans := post(t, s, "getMe", nil)
	if code != 429 || ans["ok"] != false || ans["parameters"].(map[string]any)["retry_after"].(float64) != 3 {
		t.Fatalf("%d %v", code, ans)
	}
	if code, _ := post(t, s, "sendMessage", map[string]any{"chat_id": 1, "text": strings.Repeat("x", 4097)}); code != 400 {
		t.Fatalf("too long: %d", code)
	}
	if _, ans := post(t, s, "sendMessage", map[string]any{"chat_id": 1, "text": "<b>x", "parse_mode": "HTML"}); !strings.Contains(ans["description"].(string), "can't parse entities") {
		t.Fatalf("%v", ans)
	}
	s.Down()
	if code, _ := post(t, s, "getMe", nil); code != 0 {
		t.Fatalf("answered during an outage: %d", code)
	}
	s.Up()
	s.Revoke()
	if code, ans := post(t, s, "getMe", nil); code != 401 || ans["description"] != "Unauthorized" {
		t.Fatalf("%d %v", code, ans)
	}
}

func TestEntitiesCountUTF16(t *testing.T) {
	e := entities("😀 @bot /cmd@bot, x")
	if len(e) != 2 || e[0]["offset"] != 3 || e[0]["length"] != 4 || e[1]["type"] != "bot_command" || e[1]["offset"] != 8 || e[1]["length"] != 8 {
		t.Fatalf("%v", e)
	}
}

func TestParseHTML(t *testing.T) {
	ok := map[string]string{
		"<b>a</b> &lt;&amp;&gt; &quot;":                 `a <&> "`,
		`<a href="https://x.y/?a=1&amp;b">l</a>`:        "l",
		`<pre><code class="language-go">x</code></pre>`: "x",
		"<blockquote><i>q</i></blockquote>":             "q",
	}
	for in, want := range ok {
		if got, err := ParseHTML(in); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	for _, bad := range []string{"<b>x", "<x>y</x>", "a < b", "<b>x</i>", "&nope;", "&", "<code><b>x</b></code>",
		"<blockquote><blockquote>x</blockquote></blockquote>", `<a>x</a>`, `<b class="x">y</b>`} {
		if _, err := ParseHTML(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzParseHTML(f *testing.F) {
	for _, s := range []string{"<b>a</b>", `<a href='x'>y</a>`, "&#128512;", "<pre><code>", "</b>", "<a href=\"&\">"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := ParseHTML(s); err == nil && len(v) > len(s)*4 {
			t.Fatalf("%q: visible text %q longer than the input allows", s, v)
		}
	})
}

func TestMessagesAndOutageThatEnds(t *testing.T) {
	s := New(t)
	post(t, s, "sendMessage", map[string]any{"chat_id": 5, "text": "a", "reply_markup": map[string]any{
		"inline_keyboard": [][]map[string]any{{{"text": "Yes", "callback_data": "y"}, {"text": "No", "callback_data": "n"}}}}})
	_, ans := post(t, s, "sendMessage", map[string]any{"chat_id": 5, "text": "<b>b</b>", "parse_mode": "HTML"})
	id := int64(ans["result"].(map[string]any)["message_id"].(float64))
	post(t, s, "editMessageText", map[string]any{"chat_id": 5, "message_id": id, "text": "c"})
	post(t, s, "sendMessage", map[string]any{"chat_id": 6, "text": "other chat"})
	m := s.Messages(5)
	if len(m) != 2 || m[0].Text != "a" || strings.Join(m[0].Buttons, ",") != "y,n" || m[1].Text != "c" || m[1].Mode != "" {
		t.Fatalf("%+v", m)
	}
	s.DownFor(time.Millisecond)
	deadline := time.Now().Add(30 * time.Second)
	for s.IsDown() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if code, _ := post(t, s, "getMe", nil); code != 200 {
		t.Fatalf("still down: %d", code)
	}
}
