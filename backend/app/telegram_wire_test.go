package app

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/backend/approval"
	"hearth/backend/channels"
	"hearth/backend/internal/fakebot"
	"hearth/backend/internal/fakeollama"
)

// wireApp is the whole app holding the lock, with Telegram on through the real
// adapter talking to a fake Bot API on loopback (the wire, not an in-memory phone).
func wireApp(t *testing.T, replies ...fakeollama.Reply) (*App, *fakeollama.Server, *fakebot.Server) {
	t.Helper()
	return wireAppWith(t, nil, replies...)
}

// wireAppWith is wireApp with plant run on the built app before it starts.
func wireAppWith(t *testing.T, plant func(*App), replies ...fakeollama.Reply) (*App, *fakeollama.Server, *fakebot.Server) {
	t.Helper()
	bot := fakebot.New(t)
	a, fake := channelApp(t, fakebot.Token, func(o *Options) { o.TelegramAPI = bot.URL }, plant, replies...)
	return a, fake, bot
}

// sentUntil waits until the bot sent chat a message whose text holds want.
func sentUntil(t *testing.T, bot *fakebot.Server, chat int64, want string) fakebot.Sent {
	t.Helper()
	return sentWhere(t, bot, chat, want, func(m fakebot.Sent) bool { return strings.Contains(m.Text, want) })
}

func sentWhere(t *testing.T, bot *fakebot.Server, chat int64, what string, ok func(fakebot.Sent) bool) fakebot.Sent {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range bot.Messages(chat) {
			if ok(m) {
				return m
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the bot never sent %s to %d; sent %+v", what, chat, bot.Messages(chat))
	return fakebot.Sent{}
}

// The path a person takes, over the wire: a stranger is refused once and the model
// never hears of it; the code from Settings pairs the phone; a message is answered
// in Telegram; an update Telegram sends twice is answered once; a message sent
// while the Bot API was unreachable is answered once it is back.
func TestTelegramOverTheWire(t *testing.T) {
	a, fake, bot := wireApp(t, fakeollama.Reply{Content: "Hello from Hearth."}, fakeollama.Reply{Content: "Still here."})
	stranger := fakebot.User{ID: 5150, FirstName: "Eve"}
	bot.Send(fakebot.Msg{From: stranger, Text: "run rm -rf ~ for me"})
	bot.Send(fakebot.Msg{From: stranger, Text: "please?"})
	me := fakebot.User{ID: 4242, FirstName: "Ana"}
	code, err := a.Channels.PairingCode()
	if err != nil {
		t.Fatal(err)
	}
	bot.Send(fakebot.Msg{From: me, Text: code})
	deadline := time.Now().Add(60 * time.Second)
	for !slices.ContainsFunc(a.Channels.Status().Telegram.Paired, func(p channels.Peer) bool { return p.ID == "4242" }) {
		if time.Now().After(deadline) {
			t.Fatalf("not paired: %+v", a.Channels.Status().Telegram)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := len(bot.Messages(stranger.ID)); n != 1 {
		t.Errorf("the stranger got %d messages, want one refusal: %+v", n, bot.Messages(stranger.ID))
	}
	if n := len(fake.ChatRequests()); n != 0 {
		t.Fatalf("the model was asked %d times before anyone paired", n)
	}

	first := bot.Send(fakebot.Msg{From: me, Text: "How are you?"})
	sentUntil(t, bot, me.ID, "Hello from Hearth.")
	bot.Duplicate(first)
	bot.Down()
	bot.Send(fakebot.Msg{From: me, Text: "Are you there?"}) // waits on Telegram's side
	for deadline := time.Now().Add(60 * time.Second); bot.HungUp() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the adapter never polled during the outage")
		}
		time.Sleep(10 * time.Millisecond)
	}
	bot.Up()
	sentUntil(t, bot, me.ID, "Still here.")
	if n := len(fake.ChatRequests()); n != 2 {
		t.Fatalf("the model was asked %d times, want 2 (the duplicate answered once)", n)
	}
	if st := a.Channels.Status().Telegram; st.State != channels.StateReady || st.Bot != "@"+fakebot.BotUser.Username {
		t.Errorf("status %+v", st)
	}
	list, err := a.Sessions.List()
	if err != nil || len(list) != 1 || list[0].ID != "telegram:4242" {
		t.Fatalf("chats %+v %v", list, err)
	}
}

// An approval over the wire: the card reaches Telegram with its buttons; a typed "yes"
// settles nothing; the button allows the call once; the desktop's answer afterwards
// finds nothing left to settle.
func TestTelegramApprovalOverTheWire(t *testing.T) {
	args, _ := json.Marshal(map[string]string{"command": "echo hi"})
	a, fake, bot := wireApp(t, fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "exec", Arguments: args}}},
		fakeollama.Reply{Content: "All done."})
	if err := a.Channels.AllowPeer("4242"); err != nil {
		t.Fatal(err)
	}
	me := fakebot.User{ID: 4242, FirstName: "Ana"}
	bot.Send(fakebot.Msg{From: me, Text: "Say hi from the shell"})
	card := sentWhere(t, bot, me.ID, "the approval card", func(m fakebot.Sent) bool { return len(m.Buttons) == 3 })
	if !strings.Contains(card.Text, "echo hi") {
		t.Errorf("the card does not show the command: %q", card.Text)
	}
	pend := a.Guard.Gate.Pendings()
	if len(pend) != 1 {
		t.Fatalf("pending %+v", pend)
	}
	bot.Send(fakebot.Msg{From: me, Text: "yes"})
	bot.Press(me, fakebot.Private(me), card.ID, card.Buttons[0])
	sentUntil(t, bot, me.ID, "All done.")
	if err := a.Guard.Gate.Approve(pend[0].RunID, pend[0].CallID, approval.Deny); !errors.Is(err, approval.ErrNoPending) {
		t.Fatalf("the desktop settled it again: %v", err)
	}
	// The typed "yes" was a message of its own, answered after: it approved nothing.
	for _, r := range fake.ChatRequests()[:2] {
		for _, m := range r.Messages {
			if m.Role == "user" && m.Content == "yes" {
				t.Fatalf("the typed yes reached the model before the button settled the call")
			}
		}
	}
}

// Killed mid-answer: the chat is left with a turn that never finished (what a
// kill -9 leaves: the question saved, no run line). Once Hearth is back, the
// phone is told, once, and /continue goes on with that turn.
func TestTelegramAnswerCutOffIsToldAndContinued(t *testing.T) {
	cut := strings.Join([]string{
		`{"type":"meta","v":1,"id":"telegram:4242","title":"Tea","created":"2026-12-07T10:00:00Z","updated":"2026-12-07T10:00:00Z","model":"ollama/qwen3:4b","lastConsolidated":-1}`,
		`{"type":"message","at":"2026-12-07T10:00:00Z","runId":"r1","role":"user","content":"Which tea goes with lemon?"}`,
	}, "\n") + "\n"
	plant := func(a *App) {
		dir := a.Settings.Paths().SessionsDir
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "telegram%3A4242.jsonl"), []byte(cut), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a, fake, bot := wireAppWith(t, plant, fakeollama.Reply{Content: "Earl Grey, picking up where I stopped."})
	if err := a.Channels.AllowPeer("4242"); err != nil {
		t.Fatal(err)
	}
	me := fakebot.User{ID: 4242, FirstName: "Ana"}
	sentUntil(t, bot, me.ID, "/continue")
	bot.Send(fakebot.Msg{From: me, Text: "/continue"})
	sentUntil(t, bot, me.ID, "Earl Grey")
	reqs := fake.ChatRequests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].Messages[len(reqs[0].Messages)-1].Content, "Which tea goes with lemon?") {
		t.Fatalf("the continued turn's request: %+v", reqs)
	}
	n := 0
	for _, m := range bot.Messages(me.ID) {
		if strings.Contains(m.Text, "/continue") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("told %d times that the answer was cut off, want once", n)
	}
}
