package reminders

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"hearth/backend/agent"
	"hearth/backend/internal/fakeclock"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/schedule"
	"hearth/backend/session"
	"hearth/backend/settings"
	"hearth/backend/tools"
)

type gateRecorder struct {
	mu    sync.Mutex
	calls []tools.GateCall
}

func (g *gateRecorder) Check(_ context.Context, c tools.GateCall) tools.GateDecision {
	g.mu.Lock()
	g.calls = append(g.calls, c)
	g.mu.Unlock()
	return tools.GateDecision{Allow: true}
}

// runner is a real agent runner over a fake Ollama, its gate recording.
func runner(t *testing.T, g tools.Gate, replies ...fakeollama.Reply) (*agent.Runner, *session.Store, string) {
	t.Helper()
	_, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}, Replies: replies})
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: url, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: ws}})...); err != nil {
		t.Fatal(err)
	}
	store := session.NewStore(t.TempDir(), session.Options{})
	r, err := agent.New(agent.Options{Tools: reg, Store: store, Gate: g, DefaultModel: "ollama/qwen3:4b", Workspace: ws,
		Resolve: func(name string) (llm.Provider, string, error) { return prov, strings.TrimPrefix(name, "ollama/"), nil }})
	if err != nil {
		t.Fatal(err)
	}
	return r, store, ws
}

func openSettings(t *testing.T) *settings.Service {
	t.Helper()
	root := t.TempDir()
	t.Cleanup(xdg.Reload) // before the variables are set: it runs after t.Setenv puts them back
	for k, v := range map[string]string{"HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data", "XDG_STATE_HOME": "state"} {
		t.Setenv(k, filepath.Join(root, v))
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	xdg.Reload()
	return settings.Open(settings.Options{Getenv: func(string) string { return "" }})
}

// A reminder's turn reaches the approval gate as unattended, in its own chat, with
// the job's allowed tools: nothing waits for a human.
func TestReminderRunIsUnattendedAtTheGate(t *testing.T) {
	gate := &gateRecorder{}
	r, store, _ := runner(t, gate,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "list_dir", Arguments: json.RawMessage(`{"path":"."}`)}}},
		fakeollama.Reply{Content: "Listed."})
	s := New(Options{Settings: openSettings(t), Runs: r, Sessions: store, Clock: fakeclock.New(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))})
	j, err := s.AddJob(schedule.JobSpec{Message: "list my files", AllowTools: []string{"exec"},
		Schedule: schedule.Schedule{Kind: schedule.KindEvery, EverySeconds: 3600}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunJobNow(context.Background(), j.ID); err != nil {
		t.Fatal(err)
	}
	gate.mu.Lock()
	defer gate.mu.Unlock()
	if len(gate.calls) != 1 {
		t.Fatalf("gate calls %+v", gate.calls)
	}
	c := gate.calls[0]
	if !c.Unattended || len(c.AllowTools) != 1 || c.AllowTools[0] != "exec" || c.SessionID != "cron:"+j.ID || c.Name != "list_dir" {
		t.Errorf("gate call %+v", c)
	}
}

// Only the process holding hearth.lock runs the scheduler.
func TestStartNeedsTheLock(t *testing.T) {
	s := New(Options{Settings: openSettings(t)})
	if err := s.Start(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "hearth.lock") {
		t.Errorf("start without the lock: %v", err)
	}
}
