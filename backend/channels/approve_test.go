package channels

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"hearth/backend/approval"
	"hearth/backend/event"
	"hearth/backend/i18n"
)

// A typed "yes" approves nothing; only a button of the card's chat does, once.
func TestApprovalOnlyByButtonAndOnce(t *testing.T) {
	r := newRig(t)
	r.pair(t, "42")
	r.ch.push(t, dm(1, "42", "clean up"))
	r.gate.pending = []approval.Pending{{RunID: "r1", SessionID: "telegram:42", CallID: "c1", Tool: "exec",
		Args: json.RawMessage(`{"command":"rm old.log"}`), Why: i18n.M("gate.why.exec"), Dir: "/ws"}}
	sink := r.chats.sink(0)
	sink(event.Event{RunID: "r1", Type: event.RunStarted, Data: event.StartedData{}})
	sink(event.Event{RunID: "r1", Type: event.ToolCall, Data: event.ToolCallData{CallID: "c1", Name: "exec", Args: json.RawMessage(`{"command":"rm old.log"}`)}})
	sink(event.Event{RunID: "r1", Type: event.Approval, Data: event.ApprovalData{CallID: "c1", State: approval.StateRequested}})
	var cardMsg call
	waitFor(t, "the card", func() bool {
		for _, c := range r.ch.got("send") {
			if len(c.Buttons) > 0 {
				cardMsg = c
				return true
			}
		}
		return false
	})
	if !strings.Contains(cardMsg.Text, "exec") || !strings.Contains(cardMsg.Text, "rm old.log") || !strings.Contains(cardMsg.Text, "/ws") {
		t.Errorf("card %q", cardMsg.Text)
	}
	for i, text := range []string{"yes", "allow", "Allow once", "/allow"} {
		r.ch.push(t, dm(int64(10+i), "42", text))
	}
	if a := r.gate.answers(); len(a) != 0 {
		t.Fatalf("typed text approved: %v", a)
	}
	btn := func(update int64, user, chat, data string) Inbound {
		return Inbound{Channel: Telegram, ChatID: chat, UserID: user, UpdateID: update, Button: &Press{ID: "q", Data: data, MessageID: cardMsg.Msg}}
	}
	once := cardMsg.Buttons[0][0].Data
	r.ch.push(t, btn(20, "99", "42", once))                                         // a stranger's press
	r.ch.push(t, btn(21, "42", "43", once))                                         // another chat
	r.ch.push(t, btn(22, "42", "42", strings.Replace(once, ":once", ":always", 1))) // not offered
	if a := r.gate.answers(); len(a) != 0 {
		t.Fatalf("approved by a press that may not: %v", a)
	}
	r.ch.push(t, btn(23, "42", "42", once))
	r.ch.push(t, btn(24, "42", "42", cardMsg.Buttons[0][2].Data)) // a second answer
	if a := r.gate.answers(); !slices.Equal(a, []approval.Decision{approval.Once}) {
		t.Fatalf("answers %v", a)
	}
	answers := r.ch.texts("answer")
	if answers[len(answers)-1] != i18n.T(i18n.English, "channels.approval.gone") {
		t.Errorf("second press told %q", answers[len(answers)-1])
	}
	sink(event.Event{RunID: "r1", Type: event.Approval, Data: event.ApprovalData{CallID: "c1", State: approval.StateAllowed, Scope: approval.ScopeOnce}})
	waitFor(t, "the card settled", func() bool {
		for _, c := range r.ch.got("edit") {
			if c.Msg == cardMsg.Msg && strings.Contains(c.Text, i18n.T(i18n.English, "channels.approval.allowedOnce")) && len(c.Buttons) == 0 {
				return true
			}
		}
		return false
	})
	sink(event.Event{RunID: "r1", Type: event.RunFinished, Data: event.FinishedData{Status: event.StatusOK}})
}

// Notifications go where the person wants them; nothing is lost when Telegram
// cannot take one.
func TestDeliverFollowsNotifyIn(t *testing.T) {
	r := newRig(t)
	r.pair(t, "42")
	r.pair(t, "43")
	r.ch.reset()
	ev := event.Background{Kind: event.BackgroundReminderAnswer, Title: "Water", Text: "Water the plants"}
	if !r.s.Deliver(ev, "", "") || len(r.ch.got("send")) != 0 {
		t.Fatal("default desktop: sent to Telegram")
	}
	if r.s.Deliver(ev, NotifyTelegram, "") {
		t.Fatal("telegram only: the desktop notified too")
	}
	if sends := r.ch.got("send"); len(sends) != 2 || sends[0].Chat != "42" || !strings.Contains(sends[0].Text, "Water the plants") {
		t.Fatalf("sends %+v", sends)
	}
	r.ch.reset()
	if !r.s.Deliver(ev, NotifyBoth, "telegram:43#2") {
		t.Fatal("both: no desktop")
	}
	if sends := r.ch.got("send"); len(sends) != 1 || sends[0].Chat != "43" {
		t.Fatalf("to the chat it was made in: %+v", sends)
	}
	r.ch.reset()
	msg := event.Background{Kind: event.BackgroundMessage, Text: "posted", SessionID: "telegram:42"}
	if r.s.Deliver(msg, "", "") || len(r.ch.got("send")) != 1 {
		t.Fatal("the message tool in a Telegram chat did not answer there")
	}
	r.ch.mu.Lock()
	r.ch.failAt = map[string]error{"42": errors.New("blocked")}
	r.ch.mu.Unlock()
	if !r.s.Deliver(ev, NotifyTelegram, "telegram:42") {
		t.Fatal("a failed delivery was lost (no desktop fallback)")
	}
}
