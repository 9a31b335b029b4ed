package channels

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/i18n"
)

// Someone not paired never reaches the chat (so never the model), however often
// they write, and is told once.
func TestStrangerIsRefusedOnceAndNeverReachesTheChat(t *testing.T) {
	r := newRig(t)
	for i, text := range []string{"hi", "run rm -rf /", "/status", "please"} {
		r.ch.push(t, dm(int64(i+1), "42", text))
	}
	if n := r.chats.turns(); n != 0 {
		t.Fatalf("%d turns for a stranger", n)
	}
	sends := r.ch.got("send")
	if len(sends) != 1 || sends[0].Chat != "42" || sends[0].Text != i18n.T(i18n.English, "channels.refused") {
		t.Fatalf("sends %+v, want one refusal", sends)
	}
	if !strings.Contains(r.log(), "not paired refused") || !strings.Contains(r.log(), "user=42") {
		t.Errorf("not logged:\n%s", r.log())
	}
	// Another stranger is told too, once; a restart remembers who was told.
	r.ch.push(t, dm(10, "43", "hello"))
	if n := len(r.ch.got("send")); n != 2 {
		t.Fatalf("%d sends", n)
	}
}

func TestPairingByCode(t *testing.T) {
	for _, form := range []string{"/start %s", "/pair %s", "%s", "/start@hearth_bot %s"} {
		t.Run(form, func(t *testing.T) {
			r := newRig(t)
			code, err := r.s.PairingCode()
			if err != nil || len(code) != 6 {
				t.Fatalf("code %q %v", code, err)
			}
			if st := r.s.Status().Telegram; st.Code != code || !st.CodeExpires.Equal(r.now.Add(10*time.Minute)) {
				t.Fatalf("status %+v", st)
			}
			r.ch.push(t, dm(1, "42", strings.Replace(form, "%s", code[:3]+" "+code[3:], 1)))
			if got := r.allowFrom(); !slices.Equal(got, []string{"42"}) {
				t.Fatalf("allowFrom %v", got)
			}
			if sends := r.ch.texts("send"); len(sends) != 1 || !strings.Contains(sends[0], i18n.T(i18n.English, "channels.pair.done")) {
				t.Fatalf("greeting %q", sends)
			}
			st := r.s.Status().Telegram
			if st.Code != "" || len(st.Paired) != 1 || st.Paired[0].Name != "user 42" {
				t.Fatalf("status after pairing %+v", st)
			}
			// Single use: the same code pairs nobody else.
			r.ch.push(t, dm(2, "43", "/start "+code))
			if got := r.allowFrom(); !slices.Equal(got, []string{"42"}) {
				t.Fatalf("the code worked twice: %v", got)
			}
			// The paired person's messages now run turns in their chat.
			r.ch.push(t, dm(3, "42", "hello"))
			if r.chats.turns() != 1 || r.chats.delivers[0].SessionID != "telegram:42" || r.chats.delivers[0].Channel != Telegram {
				t.Fatalf("turn %+v", r.chats.delivers)
			}
		})
	}
}

// Five wrong codes close the window: the right one then pairs nobody.
func TestWrongCodesCloseTheWindow(t *testing.T) {
	r := newRig(t)
	code, _ := r.s.PairingCode()
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	for i := range maxWrong {
		r.ch.push(t, dm(int64(i+1), "66", "/start "+wrong))
	}
	if st := r.s.Status().Telegram; st.Code != "" {
		t.Fatalf("window still open after %d wrong codes", maxWrong)
	}
	r.ch.push(t, dm(10, "66", "/pair "+code))
	if got := r.allowFrom(); len(got) != 0 {
		t.Fatalf("paired after the window closed: %v", got)
	}
	if n := len(r.ch.got("send")); n != 1 {
		t.Errorf("%d messages to the guesser, want one refusal", n)
	}
	if !strings.Contains(r.log(), "wrong pairing code") {
		t.Errorf("wrong codes not logged")
	}
}

func TestPairingWindowExpires(t *testing.T) {
	r := newRig(t)
	code, _ := r.s.PairingCode()
	r.advance(pairWindow)
	r.ch.push(t, dm(1, "42", code))
	if len(r.allowFrom()) != 0 || r.s.Status().Telegram.Code != "" {
		t.Fatal("an expired code paired")
	}
}

// A bare /start is a request shown in Settings: approving it pairs and greets,
// declining drops it.
func TestStartWithoutCodeIsARequest(t *testing.T) {
	r := newRig(t)
	r.ch.push(t, dm(1, "42", "/start"))
	r.ch.push(t, dm(2, "42", "/start"))
	r.ch.push(t, dm(3, "43", "/start"))
	st := r.s.Status().Telegram
	if len(st.Requests) != 2 || st.Requests[0].ID != "42" || st.Requests[0].Name != "user 42" {
		t.Fatalf("requests %+v", st.Requests)
	}
	if sends := r.ch.texts("send"); len(sends) != 2 || sends[0] != i18n.T(i18n.English, "channels.pair.requested") {
		t.Fatalf("sends %q", sends)
	}
	r.ch.reset()
	if err := r.s.AllowPeer("42"); err != nil {
		t.Fatal(err)
	}
	if err := r.s.RemovePeer("43"); err != nil {
		t.Fatal(err)
	}
	st = r.s.Status().Telegram
	if len(st.Requests) != 0 || len(st.Paired) != 1 || st.Paired[0].ID != "42" {
		t.Fatalf("after answers %+v", st)
	}
	if sends := r.ch.got("send"); len(sends) != 1 || sends[0].Chat != "42" {
		t.Fatalf("greeting %+v", sends)
	}
	err := r.s.AllowPeer("@someone")
	if ue, ok := errors.AsType[*Error](err); !ok || ue.UserMessage().Code != "channels.err.userID" {
		t.Errorf("a @username: %v", err)
	}
	if err := r.s.RemovePeer("42"); err != nil || len(r.allowFrom()) != 0 {
		t.Fatalf("remove: %v %v", err, r.allowFrom())
	}
}

// A duplicate update (a network drop and resume) is answered once.
func TestDuplicateUpdateIsAnsweredOnce(t *testing.T) {
	r := newRig(t)
	r.pair(t, "42")
	r.ch.push(t, dm(7, "42", "hello"))
	r.ch.push(t, dm(7, "42", "hello"))
	if n := r.chats.turns(); n != 1 {
		t.Fatalf("%d turns for one update", n)
	}
	r.ch.push(t, dm(9, "77", "hi"))
	r.ch.push(t, dm(9, "77", "hi"))
	if n := len(r.ch.got("send")); n != 1 {
		t.Fatalf("%d refusals", n)
	}
}

func TestGroupRules(t *testing.T) {
	r := newRig(t)
	r.pair(t, "42")
	group := func(update int64, user string, mentioned bool) Inbound {
		in := dm(update, user, "@hearth_bot what's up")
		in.ChatID, in.Group, in.Mentioned = "-100", true, mentioned
		return in
	}
	r.ch.push(t, group(1, "42", true)) // groups off
	if r.chats.turns() != 0 || len(r.ch.got("send")) != 0 {
		t.Fatal("answered in a group with groups off")
	}
	if err := r.s.SetTelegram(true, true, "desktop"); err != nil {
		t.Fatal(err)
	}
	r.ch.push(t, group(2, "42", false)) // not addressed to the bot
	if r.chats.turns() != 0 {
		t.Fatal("answered a message not addressed to the bot")
	}
	r.ch.push(t, group(3, "99", true)) // a stranger in the group
	r.ch.push(t, group(4, "99", true))
	if r.chats.turns() != 0 || len(r.ch.got("send")) != 1 {
		t.Fatalf("stranger in a group: turns %d sends %d", r.chats.turns(), len(r.ch.got("send")))
	}
	r.ch.push(t, group(5, "42", true))
	if r.chats.turns() != 1 || r.chats.delivers[0].SessionID != "telegram:-100" {
		t.Fatalf("paired mention: %+v", r.chats.delivers)
	}
	// A pairing code in a group pairs nobody (everyone there would see it).
	code, _ := r.s.PairingCode()
	in := group(6, "99", true)
	in.Text = "/start " + code
	r.ch.push(t, in)
	if slices.Contains(r.allowFrom(), "99") {
		t.Fatal("paired from a group")
	}
}

// The answer streams into one message; tool calls are short lines; the run's end
// shows the whole text.
func TestTurnIsStreamed(t *testing.T) {
	r := newRig(t)
	r.pair(t, "42")
	r.ch.reset()
	r.ch.push(t, dm(1, "42", "read my notes"))
	sink := r.chats.sink(0)
	emit := func(seq int64, typ event.Type, d any) {
		sink(event.Event{RunID: "r1", SessionID: "telegram:42", Seq: seq, Type: typ, Data: d})
	}
	emit(1, event.RunStarted, event.StartedData{Model: "m"})
	emit(2, event.TextDelta, event.DeltaData{Text: "Let me look."})
	emit(3, event.ToolCall, event.ToolCallData{CallID: "c1", Name: "read_file", Args: json.RawMessage(`{"path":"notes.md"}`)})
	emit(4, event.TextDelta, event.DeltaData{Text: "You wrote three things."})
	emit(5, event.Notice, event.NoticeData{Level: event.LevelWarning, Message: "old", Code: "notice.consolidationFailed", Args: map[string]string{"error": "no space"}})
	emit(6, event.Notice, event.NoticeData{Level: event.LevelInfo, Message: "quiet info"})
	emit(7, event.Error, event.ErrorData{Code: "storage", Message: "disk full"})
	emit(8, event.RunFinished, event.FinishedData{Status: event.StatusOK})
	waitFor(t, "the run's last edit", func() bool {
		c := r.ch.got("")
		return len(c) > 0 && strings.Contains(c[len(c)-1].Text, "disk full")
	})
	if last := r.ch.got("")[len(r.ch.got(""))-1].Text; !strings.Contains(last, "ℹ️ "+i18n.T(i18n.English, "notice.consolidationFailed", "error", "no space")) || strings.Contains(last, "quiet info") {
		t.Errorf("notices: %s", last)
	}
	sends := r.ch.got("send")
	if len(sends) != 1 {
		t.Fatalf("the answer took %d messages: %q", len(sends), r.ch.texts(""))
	}
	all := r.ch.got("")
	last := all[len(all)-1].Text
	for _, want := range []string{"Let me look.", "🔧 read_file notes.md", "You wrote three things.", "⚠️ Error (storage): disk full"} {
		if !strings.Contains(last, want) {
			t.Errorf("final text lacks %q:\n%s", want, last)
		}
	}
	if len(r.ch.got("typing")) == 0 {
		t.Error("no typing indicator")
	}
}

// A slash command's reply comes worded in the window's language.
func TestSlashReplyInTheUILanguage(t *testing.T) {
	r := newRig(t)
	r.mu.Lock()
	r.cfg.UI.Language = "zh-CN"
	r.mu.Unlock()
	r.pair(t, "42")
	r.ch.reset()
	r.ch.push(t, dm(1, "42", "/stop"))
	if r.chats.delivers[0].Text != "/stop" {
		t.Fatalf("deliver %+v", r.chats.delivers)
	}
	sink := r.chats.sink(0)
	sink(event.Event{RunID: "r2", Type: event.RunStarted, Data: event.StartedData{Command: "stop"}})
	sink(event.Event{RunID: "r2", Type: event.TextDelta, Data: event.DeltaData{Text: "Stopped.", Lines: []event.Line{{Code: "slash.stopped"}}}})
	sink(event.Event{RunID: "r2", Type: event.RunFinished, Data: event.FinishedData{Status: event.StatusOK, Final: "Stopped."}})
	want := i18n.T(i18n.Chinese, "slash.stopped")
	waitFor(t, "the reply", func() bool { return slices.Contains(r.ch.texts("send"), want) })
}

// /new archives the Hearth chat and goes on in a fresh one with the chat's id.
func TestNewGoesOnInAFreshChat(t *testing.T) {
	var archived []string
	r := newRig(t, func(_ *rig, o *Options) {
		o.NewChat = func(_ context.Context, id string) error { archived = append(archived, id); return nil }
	})
	r.pair(t, "42")
	r.ch.push(t, dm(1, "42", "/new"))
	r.ch.push(t, dm(2, "42", "hi"))
	r.ch.push(t, dm(3, "42", "/new"))
	r.ch.push(t, dm(4, "42", "again"))
	if !slices.Equal(archived, []string{"telegram:42", "telegram:42#2"}) {
		t.Fatalf("archived %v", archived)
	}
	if r.chats.delivers[0].SessionID != "telegram:42#2" || r.chats.delivers[1].SessionID != "telegram:42#3" {
		t.Fatalf("sessions %+v", r.chats.delivers)
	}
	if c, ok := chatOf("telegram:42#3"); !ok || c != "42" {
		t.Fatalf("chatOf %q %v", c, ok)
	}
}

// Pictures start a turn with images; a busy chat says they cannot wait. Files
// are saved to the workspace and named to the model.
func TestMediaIn(t *testing.T) {
	r := newRig(t)
	r.pair(t, "42")
	in := dm(1, "42", "what is this?")
	in.Images = [][]byte{[]byte("\x89PNG...")}
	r.ch.push(t, in)
	if len(r.chats.starts) != 1 || len(r.chats.starts[0].Images) != 1 || r.chats.starts[0].SessionID != "telegram:42" {
		t.Fatalf("starts %+v", r.chats.starts)
	}
	doc := dm(2, "42", "")
	doc.Files = []File{{Name: "../../report.pdf", MIME: "application/pdf", Kind: "document", Data: []byte("%PDF")},
		{Name: "", MIME: "audio/ogg", Kind: "voice", Data: []byte("OggS")}}
	r.ch.push(t, doc)
	if len(r.chats.delivers) == 0 {
		t.Fatalf("no turn; sends %q log %s", r.ch.texts("send"), r.log())
	}
	text := r.chats.delivers[0].Text
	for _, want := range []string{"inbox/telegram/2026-12-07-report.pdf", "inbox/telegram/2026-12-07-voice-note.ogg", "voice note"} {
		if !strings.Contains(text, want) {
			t.Errorf("turn text lacks %q: %s", want, text)
		}
	}
	r.chats.mu.Lock()
	r.chats.busy = true
	r.chats.mu.Unlock()
	r.ch.push(t, in2(in))
	if sends := r.ch.texts("send"); !slices.Contains(sends, i18n.T(i18n.English, "channels.busyPictures")) {
		t.Fatalf("sends %q", sends)
	}
}

func in2(in Inbound) Inbound { in.UpdateID++; in.UpdateID += 100; return in }

// Local-only mode turns channels off and says so.
func TestLocalOnlyTurnsChannelsOff(t *testing.T) {
	r := newRig(t)
	if st := r.s.Status().Telegram.State; st != StateReady {
		t.Fatalf("state %q", st)
	}
	_ = r.s.opts.Update(func(c *config.Config) error { c.LocalOnly = true; return nil })
	r.s.Apply()
	if st := r.s.Status().Telegram.State; st != StateLocalOnly {
		t.Fatalf("state %q", st)
	}
	if r.s.channel() != nil {
		t.Fatal("still connected")
	}
	if _, err := r.s.PairingCode(); err == nil {
		t.Fatal("pairing in local-only mode")
	}
}

// The token goes to the keyring, never into the config; a failure that quotes it
// logs it masked.
func TestTokenStaysInTheKeyring(t *testing.T) {
	tok := "987654:" + strings.Repeat("Z", 35)
	r := newRig(t, func(r *rig, o *Options) {
		o.Open = func(got string) (Channel, error) {
			if got == tok {
				return nil, errors.New("GET https://api.telegram.org/bot" + tok + "/getMe: connection refused")
			}
			return r.ch, nil
		}
	})
	if err := r.s.SetTelegramToken("not a token"); err == nil {
		t.Fatal("a sentence was taken for a token")
	}
	if err := r.s.SetTelegramToken(tok); err != nil {
		t.Fatal(err)
	}
	if r.secrets[config.TelegramTokenKey] != tok {
		t.Fatal("token not in the keyring")
	}
	b, _ := json.Marshal(r.s.opts.Config())
	st, _ := json.Marshal(r.s.Status())
	for what, s := range map[string]string{"config": string(b), "status": string(st), "log": r.log()} {
		if strings.Contains(s, tok) || strings.Contains(s, strings.Repeat("Z", 35)) {
			t.Errorf("the token is in the %s", what)
		}
	}
	if !strings.Contains(r.log(), "[bot token]") {
		t.Errorf("log:\n%s", r.log())
	}
	if s := r.s.Status().Telegram; s.State != StateError || s.Problem == nil || !s.HasToken {
		t.Fatalf("status %+v", s)
	}
}

// A save made while handling an update (pairing adds to allowFrom) runs the
// settings' followers, which apply the channel's settings: when that switches
// the channel off, the receive loop that made the save must not wait for itself.
func TestSaveFromInsideTheLoopDoesNotDeadlock(t *testing.T) {
	r := newRig(t)
	r.mu.Lock()
	r.onUpdate = func(c *config.Config) { c.Channels.Telegram.Enabled = false } // switched off meanwhile
	r.mu.Unlock()
	code, _ := r.s.PairingCode()
	r.ch.push(t, dm(1, "42", code)) // returns: the loop did not wait for itself
	waitFor(t, "the channel off", func() bool { return r.s.Status().Telegram.State == StateOff })
}

// /model without a name lists the installed models; with one it is the chat's
// own command.
func TestModelListsInstalledModels(t *testing.T) {
	r := newRig(t, func(_ *rig, o *Options) {
		o.Models = func(context.Context) ([]string, error) { return []string{"ollama/qwen3:4b", "ollama/llama3.2:3b"}, nil }
	})
	r.pair(t, "42")
	r.ch.reset()
	r.ch.push(t, dm(1, "42", "/model"))
	if sends := r.ch.texts("send"); len(sends) != 1 || !strings.Contains(sends[0], "ollama/llama3.2:3b") || r.chats.turns() != 0 {
		t.Fatalf("sends %q turns %d", sends, r.chats.turns())
	}
	r.ch.push(t, dm(2, "42", "/model ollama/llama3.2:3b"))
	if r.chats.turns() != 1 || r.chats.delivers[0].Text != "/model ollama/llama3.2:3b" {
		t.Fatalf("switch %+v", r.chats.delivers)
	}
}
