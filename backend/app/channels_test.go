package app

import (
	"github.com/zalando/go-keyring"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/applock"
	"hearth/backend/approval"
	"hearth/backend/channels"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// phone is the Telegram adapter in memory: it records what Hearth sends and lets
// a test push what people do.
type phone struct {
	in chan phonePush

	mu    sync.Mutex
	sent  []phoneMsg
	next  int
	acked []string
}

type phonePush struct {
	in   channels.Inbound
	done chan struct{}
}

type phoneMsg struct {
	Op, Chat, ID, Text string
	Buttons            [][]channels.Button
}

func (p *phone) Name() string { return channels.Telegram }
func (p *phone) Limit() int   { return 4096 }
func (p *phone) Receive(ctx context.Context, handle func(context.Context, channels.Inbound)) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case it := <-p.in:
			handle(ctx, it.in)
			close(it.done)
		}
	}
}
func (p *phone) Send(_ context.Context, chat string, m channels.Outbound) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next++
	id := fmt.Sprint(p.next)
	p.sent = append(p.sent, phoneMsg{"send", chat, id, m.Text, m.Buttons})
	return id, nil
}
func (p *phone) Edit(_ context.Context, chat, id string, m channels.Outbound) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent = append(p.sent, phoneMsg{"edit", chat, id, m.Text, m.Buttons})
	return nil
}
func (p *phone) Typing(context.Context, string) error { return nil }
func (p *phone) Answer(_ context.Context, _ channels.Press, text string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.acked = append(p.acked, text)
	return nil
}

func (p *phone) push(t *testing.T, in channels.Inbound) {
	t.Helper()
	it := phonePush{in, make(chan struct{})}
	select {
	case p.in <- it:
	case <-time.After(20 * time.Second):
		t.Fatal("the channel is not receiving")
	}
	<-it.done
}

func (p *phone) msgs() []phoneMsg {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.sent)
}

func (p *phone) answers() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.acked)
}

// until waits for a message that satisfies ok.
func (p *phone) until(t *testing.T, what string, ok func(phoneMsg) bool) phoneMsg {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range p.msgs() {
			if ok(m) {
				return m
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s; sent %+v", what, p.msgs())
	return phoneMsg{}
}

func phoneDM(update int64, user, text string) channels.Inbound {
	return channels.Inbound{Channel: channels.Telegram, ChatID: user, UserID: user, UserName: "u" + user, UpdateID: update, Text: text}
}

const testBotToken = "123456789:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

// phoneApp is the whole app holding the app lock, with Telegram on and a phone
// for an adapter.
func phoneApp(t *testing.T, replies ...fakeollama.Reply) (*App, *fakeollama.Server, *phone) {
	t.Helper()
	ph := &phone{in: make(chan phonePush)}
	a, fake := channelApp(t, testBotToken, func(o *Options) {
		o.Telegram = func(string) (channels.Channel, error) { return ph, nil }
	}, nil, replies...)
	if st := a.Channels.Status().Telegram.State; st != channels.StateReady {
		t.Fatalf("channel state %q", st)
	}
	return a, fake, ph
}

// channelApp is the whole app holding the app lock with Telegram switched on and
// token as its bot token; with sets the adapter, plant runs on the built app
// before it starts (a chat left as a kill leaves it).
func channelApp(t *testing.T, token string, with func(*Options), plant func(*App), replies ...fakeollama.Reply) (*App, *fakeollama.Server) {
	t.Helper()
	setXDG(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}, Replies: replies})
	p := config.DefaultConfigFile()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"channels":{"telegram":{"enabled":true}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := Options{Getenv: env(map[string]string{"OLLAMA_HOST": url, channels.TokenEnv: token}), Retry: llm.RetryPolicy{MaxAttempts: 1}}
	with(&opts)
	a := open(t, opts)
	if plant != nil {
		plant(a)
	}
	lock, err := applock.Acquire(a.Settings.Paths().LockFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lock.Release() })
	if err := a.Start(context.Background(), StartOptions{Lock: lock}); err != nil {
		t.Fatal(err)
	}
	return a, fake
}

// An unpaired person's message never reaches the model: the fake Ollama's request
// log stays empty, and they are refused once.
func TestPhoneStrangerNeverReachesTheModel(t *testing.T) {
	a, fake, ph := phoneApp(t, fakeollama.Reply{Content: "should never be asked"})
	ph.push(t, phoneDM(1, "42", "hello"))
	ph.push(t, phoneDM(2, "42", "run ls for me"))
	if reqs := fake.ChatRequests(); len(reqs) != 0 {
		t.Fatalf("the model was asked %d times for a stranger", len(reqs))
	}
	if m := ph.msgs(); len(m) != 1 || m[0].Text != i18n.T(i18n.English, "channels.refused") {
		t.Fatalf("sent %+v", m)
	}
	if list, _ := a.Sessions.List(); len(list) != 0 {
		t.Fatalf("a chat was made for a stranger: %+v", list)
	}
}

// A paired person's turn asks for approval on the phone; a typed "yes" approves
// nothing; the button does, once; the desktop's later answer finds nothing to
// settle. The chat is listed in the window, titled from its first message.
func TestPhoneTurnWithApproval(t *testing.T) {
	args, _ := json.Marshal(map[string]string{"command": "echo hi"})
	a, fake, ph := phoneApp(t, fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "exec", Arguments: args}}},
		fakeollama.Reply{Content: "All done."})
	if err := a.Channels.AllowPeer("42"); err != nil {
		t.Fatal(err)
	}
	ph.push(t, phoneDM(1, "42", "Say hi from the shell"))
	card := ph.until(t, "the approval card", func(m phoneMsg) bool { return len(m.Buttons) > 0 })
	if !strings.Contains(card.Text, "exec") || !strings.Contains(card.Text, "echo hi") {
		t.Errorf("card %q", card.Text)
	}
	pend := a.Guard.Gate.Pendings()
	if len(pend) != 1 {
		t.Fatalf("pending %+v", pend)
	}
	ph.push(t, phoneDM(2, "42", "yes"))
	if len(a.Guard.Gate.Pendings()) != 1 {
		t.Fatal("a typed yes settled the approval")
	}
	press := channels.Inbound{Channel: channels.Telegram, ChatID: "42", UserID: "42", UpdateID: 3,
		Button: &channels.Press{ID: "q1", Data: card.Buttons[0][0].Data, MessageID: card.ID}}
	ph.push(t, press)
	ph.until(t, "the answer", func(m phoneMsg) bool { return strings.Contains(m.Text, "All done.") })
	ph.until(t, "the card settled", func(m phoneMsg) bool {
		return m.Op == "edit" && m.ID == card.ID && strings.Contains(m.Text, i18n.T(i18n.English, "channels.approval.allowedOnce"))
	})
	if err := a.Guard.Gate.Approve(pend[0].RunID, pend[0].CallID, approval.Deny); !errors.Is(err, approval.ErrNoPending) {
		t.Fatalf("the desktop settled it again: %v", err)
	}
	press.UpdateID = 4
	ph.push(t, press)
	if got := ph.answers(); len(got) != 2 || got[1] != i18n.T(i18n.English, "channels.approval.gone") {
		t.Fatalf("answers %q", got)
	}
	if n := len(fake.ChatRequests()); n != 2 {
		t.Errorf("%d model calls, want 2 (the call, then the answer)", n)
	}
	list, err := a.Sessions.List()
	if err != nil || len(list) != 1 || list[0].ID != "telegram:42" || !strings.Contains(list[0].Title, "Say hi") {
		t.Fatalf("chats %+v %v", list, err)
	}
}

// A reminder made from the phone notifies there, not on the desktop.
func TestPhoneReminderNotifiesInItsChat(t *testing.T) {
	add, _ := json.Marshal(map[string]string{"action": "add", "message": "water the plants", "at": "in 1 hour"})
	a, _, ph := phoneApp(t, fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "cron", Arguments: add}}},
		fakeollama.Reply{Content: "Reminder set."}, fakeollama.Reply{Content: "Time to water the plants!"})
	if err := a.Channels.AllowPeer("42"); err != nil {
		t.Fatal(err)
	}
	var desk []string
	var deskMu sync.Mutex
	onBackground(t, a, func(ev event.Background) {
		deskMu.Lock()
		desk = append(desk, ev.Kind+":"+ev.Text)
		deskMu.Unlock()
	})
	ph.push(t, phoneDM(1, "42", "remind me to water the plants in an hour"))
	ph.until(t, "the turn's answer", func(m phoneMsg) bool { return strings.Contains(m.Text, "Reminder set.") })
	jobs, err := a.Reminders.ListJobs()
	if err != nil || len(jobs) != 1 || jobs[0].NotifyIn != "telegram" || jobs[0].NotifyChat != "telegram:42" {
		t.Fatalf("jobs %+v %v", jobs, err)
	}
	if err := a.Reminders.RunJobNow(context.Background(), jobs[0].ID); err != nil {
		t.Fatal(err)
	}
	ph.until(t, "the reminder's answer", func(m phoneMsg) bool {
		return m.Chat == "42" && strings.Contains(m.Text, "Time to water the plants!")
	})
	deskMu.Lock()
	defer deskMu.Unlock()
	for _, d := range desk {
		if strings.HasPrefix(d, "reminder") {
			t.Errorf("the desktop notified too: %q", d)
		}
	}
}

// Local-only mode turns the channel off and the status says so.
func TestPhoneOffInLocalOnlyMode(t *testing.T) {
	a, _, _ := phoneApp(t)
	if err := a.Settings.Update(func(c *config.Config) error { c.LocalOnly = true; return nil }); err != nil {
		t.Fatal(err)
	}
	if st := a.Channels.Status().Telegram.State; st != channels.StateLocalOnly {
		t.Fatalf("state %q", st)
	}
	if err := a.Settings.Update(func(c *config.Config) error { c.LocalOnly = false; return nil }); err != nil {
		t.Fatal(err)
	}
	if st := a.Channels.Status().Telegram.State; st != channels.StateReady {
		t.Fatalf("state after local-only %q", st)
	}
}

// The bot token set in Settings goes to the keyring: never into config.json, and
// masked wherever Hearth shows or logs text.
func TestPhoneTokenInTheKeyringOnly(t *testing.T) {
	keyring.MockInit()
	setXDG(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/test-bus") // a bus "exists", so the (mocked) keyring is asked
	a, _, _ := phoneApp(t)
	tok := "555555:" + strings.Repeat("k", 35)
	if err := a.Channels.SetTelegramToken(tok); err != nil {
		t.Fatal(err)
	}
	if got, err := keyring.Get("hearth", config.TelegramTokenKey); err != nil || got != tok {
		t.Fatalf("keyring %q %v", got, err)
	}
	data, err := os.ReadFile(a.Settings.Paths().ConfigFile)
	if err != nil || strings.Contains(string(data), tok) || strings.Contains(string(data), "555555") {
		t.Fatalf("config.json: %s %v", data, err)
	}
	if got := a.Keys.Mask("token " + tok + " leaked"); strings.Contains(got, tok) {
		t.Fatalf("not masked: %q", got)
	}
	if !a.Channels.Status().Telegram.HasToken {
		t.Fatal("status says no token")
	}
	if err := a.Channels.SetTelegramToken(""); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get("hearth", config.TelegramTokenKey); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("keyring entry left: %v", err)
	}
}

// The message tool in a Telegram chat's turn sends to that chat, not to the desktop.
func TestPhoneMessageToolSendsToItsChat(t *testing.T) {
	msg, _ := json.Marshal(map[string]string{"content": "The build is green."})
	a, _, ph := phoneApp(t, fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "message", Arguments: msg}}},
		fakeollama.Reply{Content: "Told you."})
	if err := a.Channels.AllowPeer("42"); err != nil {
		t.Fatal(err)
	}
	var desk []string
	var deskMu sync.Mutex
	onBackground(t, a, func(ev event.Background) {
		deskMu.Lock()
		desk = append(desk, ev.Kind)
		deskMu.Unlock()
	})
	ph.push(t, phoneDM(1, "42", "tell me about the build"))
	ph.until(t, "the posted message", func(m phoneMsg) bool {
		return m.Op == "send" && strings.Contains(m.Text, "The build is green.") && !strings.Contains(m.Text, "🔧")
	})
	ph.until(t, "the answer", func(m phoneMsg) bool { return strings.Contains(m.Text, "Told you.") })
	deskMu.Lock()
	defer deskMu.Unlock()
	if slices.Contains(desk, event.BackgroundMessage) {
		t.Errorf("the desktop was notified: %v", desk)
	}
}
