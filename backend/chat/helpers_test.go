package chat

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/secrets"
	"hearth/backend/session"
	"hearth/backend/settings"
	"hearth/backend/tools"
)

// rig is the chat service over narrow fakes: a fake Ollama for the model, a
// memory that records what it is told, a gate that records what it is asked,
// and real settings and sessions in the test's temporary folder.
type rig struct {
	svc      *Service
	fake     *fakeollama.Server
	settings *settings.Service
	store    *session.Store
	memory   *fakeMemory
	gate     *fakeGate
	news     *event.Broker[event.Background]
}

func newRig(t *testing.T, mods ...func(*Options)) *rig {
	t.Helper()
	root := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, filepath.Join(root, strings.ToLower(v)))
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel(),
		{Name: "small:1b", Capabilities: []string{"completion", "tools"}, ContextLength: 4096}}})
	st := settings.Open(settings.Options{ConfigPath: filepath.Join(root, "config.json"),
		WorkspaceFlag: filepath.Join(root, "workspace"), Getenv: func(string) string { return "" }, Keyring: keyring{}})
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: url, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{fake: fake, settings: st, memory: &fakeMemory{}, gate: &fakeGate{},
		store: session.NewStore(filepath.Join(root, "sessions"), session.Options{}),
		news:  event.NewBroker[event.Background](8)}
	opts := Options{Settings: st, Store: r.store, Memory: r.memory, Gate: r.gate, Background: r.news, Keys: noKeys{},
		CompactIdle: r.memory.CompactIdle,
		Resolve: func(name string) (llm.Provider, string, error) {
			if p, m, ok := strings.Cut(name, "/"); ok && p == "ollama" {
				return prov, m, nil
			}
			return nil, "", fmt.Errorf("no provider for %q", name)
		}}
	for _, m := range mods {
		m(&opts)
	}
	if r.svc, err = New(opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = r.svc.Close(ctx)
	})
	return r
}

// run starts a turn and waits for its end; it returns the result and the events.
func (r *rig) run(t *testing.T, req agent.Request) (agent.Result, []event.Event) {
	t.Helper()
	var mu sync.Mutex
	var evs []event.Event
	run, err := r.svc.Start(context.Background(), req, func(ev event.Event) {
		mu.Lock()
		evs = append(evs, ev)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	res := run.Wait()
	mu.Lock()
	defer mu.Unlock()
	return res, evs
}

// models are the models the fake Ollama was asked, in order.
func (r *rig) models() []string {
	var out []string
	for _, q := range r.fake.ChatRequests() {
		out = append(out, q.Model)
	}
	return out
}

// notices are the messages of a run's notices.
func notices(evs []event.Event) []string {
	var out []string
	for _, ev := range evs {
		if d, ok := ev.Data.(event.NoticeData); ok {
			out = append(out, d.Message)
		}
	}
	return out
}

// fakeMemory records what the chat tells memory.
type fakeMemory struct {
	mu         sync.Mutex
	failure    error // what TakeFailure hands over, once
	recalled   []string
	afterRuns  []string
	remembered []string
	tools      []tools.Tool
	// compact is the chat's CompactIdle (nil: nothing to save).
	compact func(ctx context.Context, sessionID string) (int, error)
}

func (m *fakeMemory) Tools() []tools.Tool { return m.tools }

func (m *fakeMemory) Recall(_ context.Context, _, text string, _ int) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recalled = append(m.recalled, text)
	return ""
}

func (m *fakeMemory) AfterRun(sessionID string, _, _ int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.afterRuns = append(m.afterRuns, sessionID)
}

func (m *fakeMemory) ConsolidateAll(context.Context, string) error { return nil }

func (m *fakeMemory) CompactIdle(ctx context.Context, sessionID string) (int, error) {
	m.mu.Lock()
	f := m.compact
	m.mu.Unlock()
	if f == nil {
		return 0, nil
	}
	return f(ctx, sessionID)
}

func (m *fakeMemory) TakeFailure(string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	err := m.failure
	m.failure = nil
	return err
}

func (m *fakeMemory) Remember(text string) (i18n.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remembered = append(m.remembered, text)
	return i18n.Message{Code: "test.remembered", Args: map[string]string{"text": text}}, nil
}

func (m *fakeMemory) MemoryCommand(context.Context, string) (i18n.Message, error) {
	return i18n.Message{}, nil
}

func (m *fakeMemory) snapshot() (recalled, afterRuns, remembered []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.recalled...), append([]string(nil), m.afterRuns...), append([]string(nil), m.remembered...)
}

// fakeGate records the tool calls it is asked about and denies those named in deny.
type fakeGate struct {
	mu    sync.Mutex
	deny  string
	calls []tools.GateCall
}

func (g *fakeGate) Check(_ context.Context, c tools.GateCall) tools.GateDecision {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, c)
	return tools.GateDecision{Allow: c.Name != g.deny}
}

func (g *fakeGate) asked() []tools.GateCall {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]tools.GateCall(nil), g.calls...)
}

// keyring keeps no key: the tests never reach the OS keyring.
type keyring struct{}

func (keyring) Get(string, string) (string, error) { return "", secrets.ErrNotFound }
func (keyring) Set(string, string, string) error   { return nil }
func (keyring) Delete(string, string) error        { return nil }
