package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/backend/chat"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/schedule"
	"hearth/backend/tools"
)

// A reminder's run is a turn of its chat like any other: a message the person sends to
// that chat while the reminder's tool call runs steers it, and the model's next request
// holds it (docs/chat.md#while-it-works).
func TestReminderRunTakesASteerFromItsChat(t *testing.T) {
	svc, fake, _, ev := bgService(t, "",
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "block", Arguments: json.RawMessage(`{}`)}}},
		fakeollama.Reply{Content: "Looked at the garden ones only."})
	ran, release := make(chan struct{}, 4), make(chan struct{})
	block := tools.New(tools.Def[struct{}]{Name: "block", Short: "Waits.", Description: "Waits.", ReadOnly: true,
		Run: func(ctx context.Context, _ struct{}) (tools.Result, error) {
			ran <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return tools.Result{Content: "3 plants"}, nil
		}})
	if err := svc.Chat.AddSource(func() ([]tools.Tool, error) { return []tools.Tool{block}, nil }); err != nil {
		t.Fatal(err)
	}
	j, err := svc.Reminders.AddJob(schedule.JobSpec{Name: "plants", Message: "check which plants need water",
		Schedule: schedule.Schedule{Kind: schedule.KindEvery, EverySeconds: 3600}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- svc.Reminders.RunJobNow(context.Background(), j.ID) }()
	select {
	case <-ran:
	case <-time.After(20 * time.Second):
		close(release)
		t.Fatalf("the reminder's tool never ran: %+v", ev.all())
	}
	var evs events
	sent, err := svc.Chat.Submit(chat.Input{SessionID: "cron:" + j.ID, Text: "only the garden ones", Mode: "steer"}, evs.sink)
	close(release)
	if err != nil || sent.Pending == nil || sent.RunID != "" {
		t.Fatalf("a steer to the reminder's chat: %+v %v", sent, err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the reminder's run never ended")
	}
	reqs := fake.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	n := len(msgs)
	if n < 2 || msgs[n-2].Role != "tool" || msgs[n-1].Role != "user" || !strings.HasPrefix(msgs[n-1].Content, "only the garden ones") {
		t.Fatalf("the request after the tool ends with %+v", msgs[max(0, n-2):])
	}
	sess, err := svc.Sessions.Load("cron:" + j.ID)
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, m := range sess.Messages() {
		if m.Role == "user" {
			said = append(said, m.Content)
		}
	}
	if len(said) != 2 || said[1] != "only the garden ones" {
		t.Fatalf("the reminder's chat holds %q", said)
	}
	if list, err := svc.Chat.Pending("cron:" + j.ID); err != nil || len(list) != 0 {
		t.Fatalf("still waiting: %+v %v", list, err)
	}
}
