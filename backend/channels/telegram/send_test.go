package telegram

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"hearth/backend/channels"
	"hearth/backend/internal/fakebot"
)

func TestSendConvertsMarkdown(t *testing.T) {
	fake := fakebot.New(t)
	a := newAdapter(t, fake, t.TempDir(), nil)
	id, err := a.Send(context.Background(), "4242", channels.Outbound{Text: "**Done** — `x < y` & [docs](https://example.org/a?b=1&c=2)",
		Buttons: [][]channels.Button{{{Label: "Allow once", Data: "ap:1:once"}, {Label: "Deny", Data: "ap:1:deny"}}}})
	if err != nil {
		t.Fatal(err)
	}
	text, mode, ok := fake.Text(4242, mustInt(t, id))
	want := `<b>Done</b> — <code>x &lt; y</code> &amp; <a href="https://example.org/a?b=1&amp;c=2">docs</a>`
	if !ok || mode != "HTML" || text != want {
		t.Fatalf("sent %q (%s), want %q", text, mode, want)
	}
	log := fake.Log("sendMessage")
	if log[0].Params["reply_markup"] == nil {
		t.Fatal("no buttons sent")
	}
}

func TestSendFallsBackToPlain(t *testing.T) {
	fake := fakebot.New(t)
	a := newAdapter(t, fake, t.TempDir(), nil)
	fake.RefuseHTML(1)
	id, err := a.Send(context.Background(), "4242", channels.Outbound{Text: "**hi** <there>"})
	if err != nil {
		t.Fatal(err)
	}
	text, mode, _ := fake.Text(4242, mustInt(t, id))
	if mode != "" || text != "**hi** <there>" {
		t.Fatalf("fallback sent %q in mode %q", text, mode)
	}
	fake.RefuseHTML(1)
	if err := a.Edit(context.Background(), "4242", id, channels.Outbound{Text: "_new_"}); err != nil {
		t.Fatal(err)
	}
	if text, mode, _ := fake.Text(4242, mustInt(t, id)); mode != "" || text != "_new_" {
		t.Fatalf("edit fallback %q %q", text, mode)
	}
}

func TestEditNotModifiedIsFine(t *testing.T) {
	fake := fakebot.New(t)
	a := newAdapter(t, fake, t.TempDir(), nil)
	ctx := context.Background()
	id, err := a.Send(ctx, "4242", channels.Outbound{Text: "thinking"})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Edit(ctx, "4242", id, channels.Outbound{Text: "thinking"}); err != nil {
		t.Fatalf("same text: %v", err)
	}
	if err := a.Edit(ctx, "4242", id, channels.Outbound{Text: "thinking more"}); err != nil {
		t.Fatal(err)
	}
	if text, _, _ := fake.Text(4242, mustInt(t, id)); text != "thinking more" {
		t.Fatalf("%q", text)
	}
	var ae *APIError
	if err := a.Edit(ctx, "4242", "999999", channels.Outbound{Text: "x"}); !errors.As(err, &ae) || ae.Code != 400 {
		t.Fatalf("editing a missing message: %v", err)
	}
}

func TestLimitsChecked(t *testing.T) {
	fake := fakebot.New(t)
	a := newAdapter(t, fake, t.TempDir(), nil)
	ctx := context.Background()
	if _, err := a.Send(ctx, "4242", channels.Outbound{Text: strings.Repeat("é", a.Limit()+1)}); !errors.Is(err, ErrTooLong) {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := a.Send(ctx, "4242", channels.Outbound{Text: strings.Repeat("é", a.Limit())}); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	// 😀 is two UTF-16 units, as Telegram counts.
	if _, err := a.Send(ctx, "4242", channels.Outbound{Text: strings.Repeat("😀", a.Limit()/2+1)}); !errors.Is(err, ErrTooLong) {
		t.Fatalf("emoji over the limit: %v", err)
	}
	long := channels.Outbound{Text: "ok", Buttons: [][]channels.Button{{{Label: "x", Data: strings.Repeat("d", 65)}}}}
	if _, err := a.Send(ctx, "4242", long); err == nil {
		t.Fatal("65-byte callback data accepted")
	}
	long.Buttons[0][0].Data = strings.Repeat("d", 64)
	if _, err := a.Send(ctx, "4242", long); err != nil {
		t.Fatalf("64-byte data: %v", err)
	}
	if _, err := a.Send(ctx, "not-a-chat", channels.Outbound{Text: "x"}); err == nil {
		t.Fatal("bad chat id accepted")
	}
	if n := len(fake.Log("sendMessage")); n != 2 {
		t.Fatalf("%d sends reached the server, want the 2 valid ones", n)
	}
}

func TestTypingAndCommands(t *testing.T) {
	fake := fakebot.New(t)
	a := newAdapter(t, fake, t.TempDir(), nil)
	ctx := context.Background()
	if err := a.Typing(ctx, "-100123"); err != nil {
		t.Fatal(err)
	}
	if err := a.SetCommands(ctx, []Command{{Name: "new", Description: "Start a new chat"}, {Name: "stop", Description: "Stop the answer"}}); err != nil {
		t.Fatal(err)
	}
	if err := a.SetCommands(ctx, []Command{{Name: "New", Description: "bad"}}); err == nil {
		t.Fatal("an upper-case command accepted by the fake")
	}
	if l := fake.Log("sendChatAction"); len(l) != 1 || l[0].Params["action"] != "typing" {
		t.Fatalf("%+v", l)
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("%q is not a message id", s)
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

func TestBlockedChat(t *testing.T) {
	fake := fakebot.New(t)
	a := newAdapter(t, fake, t.TempDir(), nil)
	fake.Block(4242)
	if _, err := a.Send(context.Background(), "4242", channels.Outbound{Text: "hi"}); !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), "hint:") {
		t.Fatalf("got %v", err)
	}
	if _, err := a.Send(context.Background(), "5", channels.Outbound{Text: "hi"}); err != nil {
		t.Fatalf("another chat: %v", err)
	}
}

func TestSmallParts(t *testing.T) {
	a := newAdapter(t, fakebot.New(t), t.TempDir(), nil)
	if a.Name() != "telegram" || a.Limit() != 4096 {
		t.Fatal(a.Name(), a.Limit())
	}
	if got := truncateRunes(strings.Repeat("ж", 300), 200); len([]rune(got)) != 200 || !strings.HasSuffix(got, "…") {
		t.Fatalf("%q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sleepCtx(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled sleep: %v", err)
	}
	if err := sleepCtx(context.Background(), time.Nanosecond); err != nil {
		t.Fatal(err)
	}
}
