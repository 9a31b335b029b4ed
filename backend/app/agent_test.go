package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/chat"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
)

// chatService opens a Service whose Ollama is a scripted fake.
func chatService(t testing.TB, cfgJSON string, replies ...fakeollama.Reply) (*App, *fakeollama.Server) {
	t.Helper()
	setXDG(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel(),
		{Name: "small:1b", Capabilities: []string{"completion", "tools"}, ContextLength: 4096}}, Replies: replies})
	if cfgJSON != "" {
		p := config.DefaultConfigFile()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(cfgJSON), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	svc := started(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err := svc.Settings.ConfigError(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	return svc, fake
}

type events struct {
	mu  sync.Mutex
	evs []event.Event
}

func (e *events) sink(ev event.Event) { e.mu.Lock(); e.evs = append(e.evs, ev); e.mu.Unlock() }

func (e *events) has(typ event.Type) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.ContainsFunc(e.evs, func(ev event.Event) bool { return ev.Type == typ })
}

func TestSendAndSessions(t *testing.T) {
	svc, fake := chatService(t, "", fakeollama.Reply{Content: "Hi from core."}, fakeollama.Reply{Content: "Second."})
	var ev events
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "chat1", Text: "hello"}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	res := run.Wait()
	if res.Status != event.StatusOK || res.Final != "Hi from core." {
		t.Fatalf("result %+v", res)
	}
	if ev.evs[0].Type != event.RunStarted || ev.evs[len(ev.evs)-1].Type != event.RunFinished {
		t.Errorf("events %+v", ev.evs)
	}
	// The default config's num_ctx, temperature and tools reach Ollama.
	req := fake.ChatRequests()[0]
	if req.Options["num_ctx"] != float64(8192) || req.Options["temperature"] != 0.3 || len(req.Tools) != 14 { // 7 built-ins, memory 2, cron + message, web 2, spawn
		t.Errorf("request options %v, %d tools", req.Options, len(req.Tools))
	}
	if !strings.Contains(req.Messages[0].Content, svc.Settings.Paths().Workspace) {
		t.Errorf("system prompt %q does not name the workspace", req.Messages[0].Content)
	}

	// Send is asynchronous: it returns the run id before the run ends.
	done := make(chan struct{})
	id, err := svc.Chat.Send(chat.Input{SessionID: "chat1", Text: "again"}, func(e event.Event) {
		if e.Type == event.RunFinished {
			close(done)
		}
	})
	if err != nil || id == "" {
		t.Fatalf("send: %q %v", id, err)
	}
	<-done

	list, err := svc.Sessions.List()
	if err != nil || len(list) != 1 || list[0].ID != "chat1" || list[0].Messages != 4 {
		t.Fatalf("sessions %+v %v", list, err)
	}
	if err := svc.Sessions.Rename("chat1", "Greetings"); err != nil {
		t.Fatal(err)
	}
	sess, err := svc.Sessions.Load("chat1")
	if err != nil || sess.Meta.Title != "Greetings" || len(sess.Runs) != 2 {
		t.Fatalf("load %+v %v", sess, err)
	}
	var md, js bytes.Buffer
	if err := svc.Sessions.Export("chat1", session.FormatMarkdown, &md); err != nil || !strings.Contains(md.String(), "Hi from core.") {
		t.Errorf("markdown export %v:\n%s", err, md.String())
	}
	if err := svc.Sessions.Export("chat1", session.FormatJSON, &js); err != nil || !json.Valid(js.Bytes()) {
		t.Errorf("json export %v", err)
	}
	if err := svc.Sessions.Export("chat1", "pdf", &js); err == nil {
		t.Error("export as pdf succeeded")
	}
	if err := svc.Sessions.Delete("chat1"); err != nil {
		t.Fatal(err)
	}
	if list, _ := svc.Sessions.List(); len(list) != 0 {
		t.Errorf("after delete: %+v", list)
	}
}

func TestSendModelOverrideAndErrors(t *testing.T) {
	svc, fake := chatService(t, "", fakeollama.Reply{Content: "small says hi"})
	run, err := svc.Chat.Start(context.Background(), agent.Request{Text: "hi", Model: "small:1b"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK || fake.ChatRequests()[0].Model != "small:1b" {
		t.Errorf("override: %+v, model %q", res, fake.ChatRequests()[0].Model)
	}
	if sess, _ := svc.Sessions.Load(run.SessionID); sess.Meta.Model != "" {
		t.Errorf("--model is per call, yet the session stored %q", sess.Meta.Model)
	}
	if _, err := svc.Chat.Start(context.Background(), agent.Request{Text: "hi", Model: "nope/x"}, nil); err == nil || !strings.Contains(err.Error(), "hint") {
		t.Errorf("unknown provider: %v", err)
	}
	if _, err := svc.Chat.Start(context.Background(), agent.Request{Text: "hi", Model: "openai/gpt-4o"}, nil); err == nil || !strings.Contains(err.Error(), "apiKey") {
		t.Errorf("unconfigured provider: %v", err)
	}
}

func TestSecretsMaskedInToolResults(t *testing.T) {
	cfg := `{"providers":{"openai":{"apiKey":"sk-test-secret-123"}}}`
	svc, _ := chatService(t, cfg,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"keys.txt"}`)}}},
		fakeollama.Reply{Content: "done"})
	if err := os.WriteFile(filepath.Join(svc.Settings.Paths().Workspace, "keys.txt"), []byte("key=sk-test-secret-123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var ev events
	run, err := svc.Chat.Start(context.Background(), agent.Request{Text: "show keys"}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	run.Wait()
	for _, e := range ev.evs {
		if r, ok := e.Data.(event.ToolResultData); ok && (strings.Contains(r.Content, "sk-test") || !strings.Contains(r.Content, "[redacted]")) {
			t.Errorf("secret not masked: %s", r.Content)
		}
	}
}

func TestStopAndBusy(t *testing.T) {
	svc, _ := chatService(t, "", fakeollama.Reply{Content: "slow", Hang: true})
	var ev events
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "busy", Text: "go"}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Chat.Send(chat.Input{SessionID: "busy", Text: "again"}, nil); !errors.Is(err, agent.ErrBusy) {
		t.Errorf("second send: %v", err)
	}
	if err := svc.Sessions.Delete("busy"); !errors.Is(err, agent.ErrBusy) {
		t.Errorf("delete while running: %v", err)
	}
	waitFor(t, func() bool { return ev.has(event.TextDelta) }, "the reply streaming")
	if !svc.Chat.Stop("busy") {
		t.Fatal("nothing stopped")
	}
	if res := run.Wait(); res.Status != event.StatusCancelled {
		t.Errorf("status %s", res.Status)
	}
	if svc.Chat.Stop("busy") {
		t.Error("stopped twice")
	}
	if _, err := svc.Chat.Continue(context.Background(), "busy", nil); !errors.Is(err, agent.ErrNothingToContinue) {
		t.Errorf("continue: %v", err)
	}
}
