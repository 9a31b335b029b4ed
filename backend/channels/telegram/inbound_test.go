package telegram

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"hearth/backend/channels"
	"hearth/backend/internal/fakebot"
)

func TestMentionsGroupsAndCommands(t *testing.T) {
	fake := fakebot.New(t)
	got, _, _ := run(t, newAdapter(t, fake, t.TempDir(), nil))
	grp := fakebot.Group(-100123)
	sent, err := newAdapter(t, fake, t.TempDir(), nil).Send(context.Background(), "-100123", channels.Outbound{Text: "earlier"})
	if err != nil {
		t.Fatal(err)
	}
	botMsg := mustInt(t, sent)
	cases := []struct {
		msg              fakebot.Msg
		text             string
		group, mentioned bool
	}{
		{fakebot.Msg{From: alice, Text: "hello"}, "hello", false, false},
		{fakebot.Msg{From: alice, Chat: grp, Text: "hello all"}, "hello all", true, false},
		{fakebot.Msg{From: alice, Chat: grp, Text: "@Hearth_Test_Bot what time is it"}, "@Hearth_Test_Bot what time is it", true, true},
		{fakebot.Msg{From: alice, Chat: grp, Text: "ask @someone_else"}, "ask @someone_else", true, false},
		{fakebot.Msg{From: alice, Chat: grp, Text: "/new@hearth_test_bot"}, "/new", true, true},
		{fakebot.Msg{From: alice, Chat: grp, Text: "👋🏽 /stop@hearth_test_bot now"}, "👋🏽 /stop now", true, true},
		{fakebot.Msg{From: alice, Chat: grp, Text: "/new@other_bot"}, "/new@other_bot", true, false},
		{fakebot.Msg{From: alice, Chat: grp, Text: "yes please", ReplyTo: botMsg}, "yes please", true, true},
		{fakebot.Msg{From: alice, Text: "/status"}, "/status", false, false},
	}
	for _, c := range cases {
		id := fake.Send(c.msg)
		in := next(t, got)
		if in.UpdateID != id || in.Text != c.text || in.Group != c.group || in.Mentioned != c.mentioned {
			t.Errorf("%q: got text %q group %v mentioned %v, want %q %v %v", c.msg.Text, in.Text, in.Group, in.Mentioned, c.text, c.group, c.mentioned)
		}
		if in.Channel != "telegram" || in.UserID != "4242" || in.UserName != "@alice" || in.MessageID == "" {
			t.Errorf("%q: %+v", c.msg.Text, in)
		}
		want := "4242"
		if c.group {
			want = "-100123"
		}
		if in.ChatID != want {
			t.Errorf("%q: chat %q, want %q", c.msg.Text, in.ChatID, want)
		}
	}
}

func TestButtonPressAndAnswer(t *testing.T) {
	fake := fakebot.New(t)
	a := newAdapter(t, fake, t.TempDir(), nil)
	got, _, _ := run(t, a)
	_, qid := fake.Press(alice, fakebot.Private(alice), 1007, "ap:9:once")
	in := next(t, got)
	if in.Button == nil || in.Button.ID != qid || in.Button.Data != "ap:9:once" || in.Button.MessageID != "1007" || in.ChatID != "4242" {
		t.Fatalf("%+v %+v", in, in.Button)
	}
	if err := a.Answer(context.Background(), *in.Button, "Allowed once"); err != nil {
		t.Fatal(err)
	}
	log := fake.Log("answerCallbackQuery")
	if len(log) != 1 || log[0].Params["callback_query_id"] != qid || log[0].Params["text"] != "Allowed once" {
		t.Fatalf("%+v", log)
	}
}

func TestMediaDownloadedWithinBounds(t *testing.T) {
	fake := fakebot.New(t)
	photo := bytes.Repeat([]byte{0xff}, 5000)
	doc := []byte("%PDF-1.7 report")
	voice := []byte("OggS voice")
	a := newAdapter(t, fake, t.TempDir(), nil)
	got, _, _ := run(t, a)

	fake.Send(fakebot.Msg{From: alice, Photo: photo, Caption: "what is this?"})
	in := next(t, got)
	if len(in.Images) != 1 || !bytes.Equal(in.Images[0], photo) || in.Text != "what is this?" {
		t.Fatalf("photo: %d images, text %q", len(in.Images), in.Text)
	}
	fake.Send(fakebot.Msg{From: alice, Document: &fakebot.FileSpec{Name: "../../etc/report.pdf", MIME: "application/pdf", Data: doc}})
	in = next(t, got)
	if len(in.Files) != 1 || in.Files[0].Name != "report.pdf" || in.Files[0].Kind != "document" || in.Files[0].MIME != "application/pdf" || !bytes.Equal(in.Files[0].Data, doc) {
		t.Fatalf("document: %+v", in.Files)
	}
	fake.Send(fakebot.Msg{From: alice, Voice: &fakebot.FileSpec{Data: voice}})
	in = next(t, got)
	if len(in.Files) != 1 || in.Files[0].Kind != "voice" || in.Files[0].MIME != "audio/ogg" || !bytes.Equal(in.Files[0].Data, voice) {
		t.Fatalf("voice: %+v", in.Files)
	}
}

func TestPhotoSizeWithinBound(t *testing.T) {
	fake := fakebot.New(t)
	photo := bytes.Repeat([]byte{1}, 5000)
	got, _, _ := run(t, newAdapter(t, fake, t.TempDir(), nil, func(o *Options) { o.MaxImage = 1000 }))
	fake.Send(fakebot.Msg{From: alice, Photo: photo})
	in := next(t, got)
	if len(in.Images) != 1 || len(in.Images[0]) != 16 {
		t.Fatalf("took %d images, want the small size only", len(in.Images))
	}
}

// Attacker: a file declared over the bound is never fetched; one whose
// download grows past what was declared is dropped. The message still comes.
func TestDownloadsRefusedPastBounds(t *testing.T) {
	fake := fakebot.New(t)
	logs := &lockedBuffer{}
	got, _, _ := run(t, newAdapter(t, fake, t.TempDir(), nil, func(o *Options) { o.Logger = slog.New(slog.NewTextHandler(logs, nil)) }))
	fake.Send(fakebot.Msg{From: alice, Caption: "big", Document: &fakebot.FileSpec{Name: "big.iso", Data: []byte("x"), Declared: 25 << 20}})
	in := next(t, got)
	if in.Text != "big" || len(in.Files) != 0 {
		t.Fatalf("%q %d files", in.Text, len(in.Files))
	}
	if n := len(fake.Log("getFile")); n != 0 {
		t.Fatalf("asked for a file over the bound (%d getFile)", n)
	}
	fake.Send(fakebot.Msg{From: alice, Caption: "inflates", Document: &fakebot.FileSpec{Name: "a.txt", Data: []byte("tiny"),
		Serve: bytes.Repeat([]byte("A"), 1<<20)}})
	in = next(t, got)
	if in.Text != "inflates" || len(in.Files) != 0 {
		t.Fatalf("%q %d files", in.Text, len(in.Files))
	}
	l := logs.String()
	if !strings.Contains(l, "over the 20971520 Hearth takes") || !strings.Contains(l, "grew past the 4 bytes declared") {
		t.Fatalf("the refusals were not logged with their reasons:\n%s", l)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{"a.pdf": "a.pdf", "../../x": "x", `..\..\win.ini`: "win.ini", "": "document", "..": "document", "/": "document"} {
		if got := safeName(in, "document"); got != want {
			t.Errorf("%q: %q", in, got)
		}
	}
}

// A stranger's files are never fetched when the Service says so.
func TestFetchRuleSkipsStrangers(t *testing.T) {
	fake := fakebot.New(t)
	paired := func(in channels.Inbound) bool { return in.UserID == "4242" }
	got, _, _ := run(t, newAdapter(t, fake, t.TempDir(), nil, func(o *Options) { o.Fetch = paired }))
	mallory := fakebot.User{ID: 666, FirstName: "Mallory"}
	fake.Send(fakebot.Msg{From: mallory, Caption: "open me", Document: &fakebot.FileSpec{Name: "x.exe", Data: []byte("MZ")}})
	in := next(t, got)
	if in.UserID != "666" || in.Text != "open me" || len(in.Files) != 0 {
		t.Fatalf("%+v", in)
	}
	if n := len(fake.Log("getFile")); n != 0 {
		t.Fatalf("a stranger's file was asked for (%d getFile)", n)
	}
	fake.Send(fakebot.Msg{From: alice, Document: &fakebot.FileSpec{Name: "ok.txt", Data: []byte("fine")}})
	if in := next(t, got); len(in.Files) != 1 {
		t.Fatalf("a paired user's file was not fetched: %+v", in)
	}
}
