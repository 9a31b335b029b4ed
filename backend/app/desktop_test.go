package app

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/chat"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/models"
	"hearth/backend/settings"
)

type emitted struct {
	mu  sync.Mutex
	got map[string][]any
}

func (e *emitted) emit(ch string, d any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.got == nil {
		e.got = map[string][]any{}
	}
	e.got[ch] = append(e.got[ch], d)
}

func (e *emitted) on(ch string) []any {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]any(nil), e.got[ch]...)
}

func waitFinished(t *testing.T, e *emitted, ch string) []event.Event {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var evs []event.Event
		for _, d := range e.on(ch) {
			evs = append(evs, d.(event.Event))
		}
		if n := len(evs); n > 0 && evs[n-1].Type == event.RunFinished {
			return evs
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no run_finished on %s: %v", ch, e.on(ch))
	return nil
}

func TestDesktopSendStreamsOnRunChannel(t *testing.T) {
	svc, fake := chatService(t, "", fakeollama.Reply{Chunks: []string{"Hel", "lo ", "there."}})
	var e emitted
	d := newDesk(svc, e.emit)
	img := base64.StdEncoding.EncodeToString(onePixelPNG(t)) // a picture is read before it is sent
	runID, err := d.Send(chat.Input{Text: "hi", Images: []string{"data:image/png;base64," + img}})
	if err != nil {
		t.Fatal(err)
	}
	d.Attach(event.RunChannel(runID))
	evs := waitFinished(t, &e, event.RunChannel(runID))
	if evs[0].Type != event.RunStarted || evs[0].Seq != 1 {
		t.Errorf("first event %+v, want run_started seq 1 (held until Attach)", evs[0])
	}
	var text strings.Builder
	next := int64(1)
	for _, ev := range evs {
		from := ev.Seq
		if ev.Type == event.TextDelta {
			d := ev.Data.(event.DeltaData)
			text.WriteString(d.Text)
			if d.FirstSeq != 0 {
				from = d.FirstSeq // deltas the relay merged
			}
		}
		if from != next {
			t.Errorf("%s covers seq %d..%d, want from %d", ev.Type, from, ev.Seq, next)
		}
		next = ev.Seq + 1
	}
	if text.String() != "Hello there." {
		t.Errorf("streamed %q", text.String())
	}
	// qwen3:4b has no vision: the image reaches the runner, which says it left it out.
	noticed := false
	for _, ev := range evs {
		if n, ok := ev.Data.(event.NoticeData); ok && strings.Contains(n.Message, "cannot see images") {
			noticed = true
		}
	}
	if !noticed {
		t.Errorf("no images notice in %v", evs)
	}
	if len(fake.ChatRequests()) != 1 {
		t.Errorf("chat requests %d", len(fake.ChatRequests()))
	}
	list, err := svc.Sessions.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions %v %v", list, err)
	}
	if _, err := d.Send(chat.Input{Text: "  "}); err == nil || !strings.Contains(err.Error(), "hint") {
		t.Errorf("empty message: %v", err)
	}
	if _, err := d.Send(chat.Input{Text: "x", Images: []string{"%%%"}}); err == nil {
		t.Error("bad image accepted")
	}
}

func TestDesktopPullProgressAndCancel(t *testing.T) {
	svc, fake := chatService(t, "")
	fake.EnqueuePull(fakeollama.PullReply{}, fakeollama.PullReply{DelayMS: 2000, Steps: []fakeollama.Progress{
		{Status: "pulling manifest"}, {Status: "downloading", Total: 100, Completed: 10}, {Status: "downloading", Total: 100, Completed: 20}}})
	var e emitted
	d := newDesk(svc, e.emit)
	id, err := d.Pull("ollama/tiny:1b")
	if err != nil {
		t.Fatal(err)
	}
	d.Attach(event.PullChannel(id))
	last := waitPull(t, &e, event.PullChannel(id))
	if last.Error != "" || last.Status != "success" {
		t.Fatalf("pull ended %+v", last)
	}
	if len(e.on(event.PullChannel(id))) < 2 {
		t.Errorf("no progress before the end: %v", e.on(event.PullChannel(id)))
	}
	id2, err := d.Pull("slow:1b")
	if err != nil {
		t.Fatal(err)
	}
	d.Attach(event.PullChannel(id2))
	waitFor(t, func() bool { return len(e.on(event.PullChannel(id2))) > 0 }, "the slow pull's first progress")
	if !d.CancelPull(id2) {
		t.Fatal("CancelPull found no pull")
	}
	if last := waitPull(t, &e, event.PullChannel(id2)); last.Error != "cancelled" {
		t.Fatalf("cancelled pull ended %+v", last)
	}
	if d.CancelPull(id2) {
		t.Error("a finished pull cancelled again")
	}
	if _, err := d.Pull("openai/gpt-4o"); err == nil {
		t.Error("pulling an OpenAI model accepted")
	}
	// A failed pull says what failed as codes naming the model, the provider's words apart.
	fake.EnqueuePull(fakeollama.PullReply{Error: "pull model manifest: file does not exist"})
	id3, err := d.Pull("nope:1b")
	if err != nil {
		t.Fatal(err)
	}
	d.Attach(event.PullChannel(id3))
	failed := waitPull(t, &e, event.PullChannel(id3))
	if failed.Why == nil || failed.Why.Text.Code != "error.pull.unknown" || failed.Why.Text.Args["model"] != "nope:1b" {
		t.Errorf("failed pull's why = %+v", failed.Why)
	}
	if !strings.Contains(failed.Detail, "file does not exist") {
		t.Errorf("failed pull's detail = %q", failed.Detail)
	}
}

func waitPull(t *testing.T, e *emitted, ch string) models.PullEvent {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		got := e.on(ch)
		if n := len(got); n > 0 && got[n-1].(models.PullEvent).Done {
			return got[n-1].(models.PullEvent)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("pull %s did not end: %v", ch, e.on(ch))
	return models.PullEvent{}
}

func TestSaveSettingsKeepsUnknownKeysAndReferences(t *testing.T) {
	cfg := `{
  "agents": {"defaults": {"model": "ollama/qwen3:4b", "colour": "blue"}},
  "providers": {"openai": {"apiKey": "${HEARTH_TEST_KEY}"}, "custom": {"groq": {"apiBase": "https://api.groq.com/openai/v1", "apiKey": "${GROQ_KEY}"}}}
}`
	svc, _ := chatService(t, cfg)
	s := svc.Settings.Settings()
	if s.OpenAI.APIKey != "" || s.Custom[0].Name != "groq" || s.Custom[0].APIKey != "" {
		t.Fatalf("keys leaked or custom missing: %+v", s)
	}
	s.Temperature = 0.7
	s.ContextTokens = 16384
	s.Theme = "dark"
	s.Language = "zh-CN"
	res, err := svc.SaveSettings(s)
	if err != nil || !res.Saved {
		t.Fatalf("save: %+v %v", res, err)
	}
	b, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
	for _, want := range []string{`"colour": "blue"`, `"${HEARTH_TEST_KEY}"`, `"${GROQ_KEY}"`, `"temperature": 0.7`, `"zh-CN"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("config.json lacks %s:\n%s", want, b)
		}
	}
	if got := svc.Settings.Settings(); got.Temperature != 0.7 || got.Theme != "dark" {
		t.Errorf("settings after save %+v", got)
	}

	bad := svc.Settings.Settings()
	bad.Temperature = 5
	bad.OllamaHost = "ftp://x y"
	bad.Custom = append(bad.Custom, settings.ProviderSettings{Name: "local", APIBase: "nope"})
	res, err = svc.SaveSettings(bad)
	if err != nil || res.Saved {
		t.Fatalf("bad settings saved: %+v %v", res, err)
	}
	keys := map[string]config.Problem{}
	for _, p := range res.Problems {
		keys[p.Key] = p
	}
	for _, k := range []string{"agents.defaults.temperature", "providers.custom.local.apiBase"} {
		if keys[k].Msg == "" {
			t.Errorf("no problem for %s in %+v", k, res.Problems)
		}
	}
	after, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
	if string(after) != string(b) {
		t.Error("invalid settings changed config.json")
	}
}

func TestSaveSettingsMovesWorkspace(t *testing.T) {
	svc, _ := chatService(t, "")
	s := svc.Settings.Settings()
	ws := filepath.Join(t.TempDir(), "ws")
	s.Workspace = ws
	s.Custom = []settings.ProviderSettings{{Name: "lm", APIBase: "http://127.0.0.1:1234/v1", APIKey: "sk-1"}}
	res, err := svc.SaveSettings(s)
	if err != nil || !res.Saved {
		t.Fatalf("%+v %v", res, err)
	}
	if svc.Settings.Paths().Workspace != ws {
		t.Errorf("workspace %s", svc.Settings.Paths().Workspace)
	}
	if _, err := os.Stat(filepath.Join(ws, "AGENTS.md")); err != nil {
		t.Errorf("new workspace not onboarded: %v", err)
	}
	if got := svc.Settings.Settings().Custom; len(got) != 1 || !got[0].KeySet {
		t.Errorf("custom %+v", got)
	}
}

func TestFirstRun(t *testing.T) {
	svc, _ := chatService(t, "")
	fr := svc.Models.FirstRun(t.Context(), func(string) (string, error) { return "", os.ErrNotExist })
	if !fr.OllamaRunning || !fr.OllamaInstalled || !fr.ModelInstalled || fr.SuggestedModel == "" {
		t.Errorf("%+v", fr)
	}
	if len(fr.ChatModels) != 2 {
		t.Errorf("chat models %v", fr.ChatModels)
	}
	setXDG(t)
	down := open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": "127.0.0.1:9"})})
	fr = down.Models.FirstRun(t.Context(), func(string) (string, error) { return "/usr/bin/ollama", nil })
	if fr.OllamaRunning || !fr.OllamaInstalled || fr.OllamaError == "" {
		t.Errorf("down: %+v", fr)
	}
}

func TestDesktopHistory(t *testing.T) {
	svc, _ := chatService(t, "",
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "list_dir", Arguments: json.RawMessage(`{"path":"."}`)}}},
		fakeollama.Reply{Content: "Listed."})
	var e emitted
	d := newDesk(svc, e.emit)
	runID, err := d.Send(chat.Input{SessionID: "h", Text: "list"})
	if err != nil {
		t.Fatal(err)
	}
	d.Attach(event.RunChannel(runID))
	waitFinished(t, &e, event.RunChannel(runID))
	h, err := d.History("h")
	if err != nil {
		t.Fatal(err)
	}
	roles := []string{}
	for _, m := range h.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "user,assistant,tool,assistant" {
		t.Fatalf("roles %v", roles)
	}
	if c := h.Messages[1].ToolCalls; len(c) != 1 || c[0].Name != "list_dir" || !strings.Contains(c[0].Arguments, `"path"`) {
		t.Errorf("tool calls %+v", c)
	}
	if len(h.Runs) != 1 || h.Runs[0].ID != runID || len(h.Interrupted) != 0 {
		t.Errorf("runs %+v interrupted %v", h.Runs, h.Interrupted)
	}
}
