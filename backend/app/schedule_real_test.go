//go:build unix

package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"hearth/backend/event"
	"hearth/backend/internal/fakeclock"
	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/llm"
	"hearth/backend/schedule"
	"hearth/backend/tools"
)

// TestReminderRealOllama: a due reminder runs its turn through the real
// Ollama server and the tiny generated model, lands in its chat and
// notifies. Runs when HEARTH_TEST_OLLAMA names the binary; skips otherwise.
func TestReminderRealOllama(t *testing.T) {
	host := realollama.StartWithModels(t)
	setXDG(t)
	cfg := `{"agents": {"defaults": {"model": "ollama/` + testmodel.ChatModelName + `", "maxTokens": 512, "contextTokens": 16384}}}`
	p := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "hearth", "config.json")
	os.MkdirAll(filepath.Dir(p), 0o700)
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	clock := fakeclock.New(bgT0)
	ev := &bgEvents{ch: make(chan event.Background, 100), patience: 90 * time.Second}
	svc := open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": host}), Clock: clock,
		Retry: llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 50 * time.Millisecond}})
	if err := svc.Settings.ConfigError(); err != nil {
		t.Fatal(err)
	}
	onBackground(t, svc, ev.sink)
	clocks.Store(svc, clock)
	t.Cleanup(func() { svc.Reminders.Close(context.Background()); _ = svc.Close(context.Background()) })
	j, err := svc.Reminders.AddJob(schedule.JobSpec{Name: "hello", Message: "Say hello",
		Schedule: schedule.Schedule{Kind: schedule.KindAt, At: bgT0.Add(3 * time.Second)}})
	if err != nil {
		t.Fatal(err)
	}
	// The tiny model calls get_weather whenever tools are offered (Ollama
	// drops calls to tools that were not offered): give it one.
	if err := svc.Chat.Registries()[0].Register(weatherTool{}); err != nil {
		t.Fatal(err)
	}
	startBackground(t, svc)
	clock.Advance(3 * time.Second)
	got := ev.wait(t, event.BackgroundReminder)
	if got.Title != "hello" || got.Text != "Say hello" || got.SessionID != "cron:"+j.ID {
		t.Fatalf("reminder event %+v", got)
	}
	// The notice comes as the turn starts (the notification is the promise); the
	// model's answer follows in the chat.
	// A CPU model on a busy machine: as patient as the event wait.
	for deadline := time.Now().Add(ev.patience); ; time.Sleep(20 * time.Millisecond) {
		s, err := svc.Sessions.Load("cron:" + j.ID)
		if err == nil && len(s.Runs) == 1 && s.Runs[0].Status != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the reminder's turn did not finish in its chat: %+v %v", s, err)
		}
	}
	sess, err := svc.Sessions.Load("cron:" + j.ID)
	if err != nil {
		t.Fatal(err)
	}
	msgs := sess.Messages()
	if len(msgs) != 4 || msgs[2].Content != "sunny" || msgs[0].Content != "Say hello" || msgs[len(msgs)-1].Content != testmodel.ChatReply || len(sess.Runs) != 1 {
		t.Errorf("chat %+v", msgs)
	}
	// A one-shot that ran stays in the Done list, marked done with its run's status.
	waitFor(t, func() bool {
		jobs, _ := svc.Reminders.ListJobs()
		return len(jobs) == 1 && jobs[0].Done && jobs[0].NextRun.IsZero() && jobs[0].LastStatus != ""
	}, "one-shot marked done after its run")
}

type weatherTool struct{}

func (weatherTool) Name() string        { return testmodel.ToolName }
func (weatherTool) Description() string { return "Current weather for a city" }
func (weatherTool) Parameters() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"city": {Type: "string"}}}
}
func (weatherTool) ReadOnly() bool  { return true }
func (weatherTool) Exclusive() bool { return false }
func (weatherTool) Execute(context.Context, tools.Args) (tools.Result, error) {
	return tools.Text("sunny"), nil
}
