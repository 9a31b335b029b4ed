package channels

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/approval"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/session"
)

// rig is the Service over fakes: an in-memory config and keyring, a chat that
// records what it is asked (and hands its sinks to the test), the fake channel.
type rig struct {
	s     *Service
	ch    *fakeChannel
	chats *fakeChats
	gate  *fakeGate
	ws    string
	state string
	logs  *strings.Builder

	mu       sync.Mutex
	cfg      *config.Config
	secrets  map[string]string
	now      time.Time
	onUpdate func(*config.Config) // changes what a save writes (r.mu held)
}

func newRig(t *testing.T, mods ...func(*rig, *Options)) *rig {
	t.Helper()
	root := t.TempDir()
	r := &rig{ch: newFakeChannel(), chats: &fakeChats{}, gate: &fakeGate{}, ws: filepath.Join(root, "ws"),
		state: filepath.Join(root, "state"), cfg: config.Default(), secrets: map[string]string{},
		now: time.Date(2026, 12, 7, 21, 0, 0, 0, time.UTC), logs: &strings.Builder{}}
	if err := os.MkdirAll(r.ws, 0o700); err != nil {
		t.Fatal(err)
	}
	r.cfg.Channels.Telegram.Enabled = true
	r.secrets[config.TelegramTokenKey] = "123456:" + strings.Repeat("A", 30)
	var logMu sync.Mutex
	opts := Options{
		Chats: r.chats, Gate: r.gate,
		Config: func() *config.Config { r.mu.Lock(); defer r.mu.Unlock(); return r.cfg },
		// Like settings.Update: the change is saved, then its followers run (the
		// app's settingsChanged applies it to the channels) before it returns.
		Update: func(fn func(*config.Config) error) error {
			r.mu.Lock()
			n := r.cfg.Clone()
			if err := fn(n); err != nil {
				r.mu.Unlock()
				return err
			}
			if r.onUpdate != nil {
				r.onUpdate(n)
			}
			r.cfg = n
			r.mu.Unlock()
			if r.s != nil {
				r.s.Apply()
			}
			return nil
		},
		Secret: func(name string) (string, error) { r.mu.Lock(); defer r.mu.Unlock(); return r.secrets[name], nil },
		SetSecret: func(name, v string) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.secrets[name] = v
			return nil
		},
		Open:      func(string) (Channel, error) { return r.ch, nil },
		Workspace: func() string { return r.ws },
		StateDir:  func() string { return r.state },
		Now:       func() time.Time { r.mu.Lock(); defer r.mu.Unlock(); return r.now },
		Tick:      time.Millisecond,
		Log:       slog.New(slog.NewTextHandler(lockedWriter{&logMu, r.logs}, nil)),
	}
	for _, m := range mods {
		m(r, &opts)
	}
	r.s = New(opts)
	ctx, cancel := context.WithCancel(context.Background())
	if err := r.s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		c, stop := context.WithTimeout(context.Background(), 10*time.Second)
		defer stop()
		_ = r.s.Close(c)
	})
	return r
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *strings.Builder
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (r *rig) log() string {
	return r.logs.String()
}

func (r *rig) advance(d time.Duration) {
	r.mu.Lock()
	r.now = r.now.Add(d)
	r.mu.Unlock()
}

func (r *rig) allowFrom() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.cfg.Channels.Telegram.AllowFrom...)
}

func (r *rig) pair(t *testing.T, user string) {
	t.Helper()
	if err := r.s.AllowPeer(user); err != nil {
		t.Fatal(err)
	}
}

// dm is a private message from user (their chat id is their user id).
func dm(update int64, user, text string) Inbound {
	return Inbound{Channel: Telegram, ChatID: user, UserID: user, UserName: "user " + user, UpdateID: update, Text: text}
}

// fakeChats records the turns asked for and keeps their sinks.
type fakeChats struct {
	mu        sync.Mutex
	starts    []agent.Request
	delivers  []agent.Message
	sinks     []event.Sink
	busy      bool
	stopped   []string
	continued []string
}

func (c *fakeChats) Start(_ context.Context, req agent.Request, sink event.Sink) (*agent.Run, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.busy {
		return nil, agent.ErrBusy
	}
	c.starts, c.sinks = append(c.starts, req), append(c.sinks, sink)
	return nil, nil
}

func (c *fakeChats) Deliver(m agent.Message, sink event.Sink) (*session.Pending, *agent.Run, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.delivers, c.sinks = append(c.delivers, m), append(c.sinks, sink)
	if c.busy {
		return &session.Pending{ID: "p1", Mode: m.Mode, Text: m.Text}, nil, nil
	}
	return nil, nil, nil
}

func (c *fakeChats) Continue(_ context.Context, id string, sink event.Sink) (*agent.Run, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.continued, c.sinks = append(c.continued, id), append(c.sinks, sink)
	return nil, nil
}

func (c *fakeChats) Stop(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = append(c.stopped, id)
	return true
}

// turns counts what reached the chat (and so could reach a model).
func (c *fakeChats) turns() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.starts) + len(c.delivers)
}

func (c *fakeChats) sink(i int) event.Sink {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sinks[i]
}

// fakeGate settles a call once, like approval.Gate.
type fakeGate struct {
	mu       sync.Mutex
	pending  []approval.Pending
	answered []approval.Decision
}

func (g *fakeGate) Approve(runID, callID string, d approval.Decision) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, p := range g.pending {
		if p.RunID == runID && p.CallID == callID {
			g.pending = append(g.pending[:i], g.pending[i+1:]...)
			g.answered = append(g.answered, d)
			return nil
		}
	}
	return approval.ErrNoPending
}

func (g *fakeGate) Pendings() []approval.Pending {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]approval.Pending(nil), g.pending...)
}

func (g *fakeGate) answers() []approval.Decision {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]approval.Decision(nil), g.answered...)
}
