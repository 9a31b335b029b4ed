package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// The built-in skills reach the system prompt as a compact summary (at most
// ~150 tokens of the first-request target,
// docs/design/prompt-size.md#the-first-request-target), and a disabled skill leaves it.
func TestSkillsInPrompt(t *testing.T) {
	svc, fake := chatService(t, "", fakeollama.Reply{Content: "ok"}, fakeollama.Reply{Content: "ok"})
	if list := svc.Reach.ListSkills(); len(list) != 4 {
		t.Fatalf("skills %+v", list)
	}
	send := func(id string) string {
		run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: id, Text: "hello"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		run.Wait()
		reqs := fake.ChatRequests()
		return reqs[len(reqs)-1].Messages[0].Content
	}
	sys := send("a")
	i := strings.Index(sys, "# Skills")
	if i < 0 {
		t.Fatalf("no skills section:\n%s", sys)
	}
	section := sys[i:]
	if j := strings.Index(section, prompt.SectionSep); j >= 0 {
		section = section[:j]
	}
	t.Logf("skills summary: %d chars ≈ %d tokens", len(section), len(section)/4)
	if len(section)/4 > 150 {
		t.Errorf("skills summary is %d tokens, over its ~150 budget:\n%s", len(section)/4, section)
	}
	for _, n := range []string{"memory", "reminders", "summarize", "skill-creator"} {
		if !strings.Contains(section, `<skill name="`+n+`" location=".hearth/skills/`+n+`/SKILL.md">`) {
			t.Errorf("summary lacks %s:\n%s", n, section)
		}
	}
	if err := svc.Reach.SetSkillEnabled("summarize", false); err != nil {
		t.Fatal(err)
	}
	if sys := send("b"); strings.Contains(sys, `name="summarize"`) || !strings.Contains(sys, `name="memory"`) {
		t.Errorf("disabled skill still offered:\n%s", sys)
	}
}

// spawn through the real Service: the report lands in the chat, one
// event.Background (the desktop's notification) names the chat to open.
func TestSpawnThroughService(t *testing.T) {
	setXDG(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel(),
		{Name: "small:1b", Capabilities: []string{"completion", "tools"}, ContextLength: 4096}}})
	args, _ := json.Marshal(map[string]string{"task": "Say done.", "label": "demo"})
	// The parent's answer and the helper's answer race for the queue: both say "done".
	fake.Enqueue(fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "spawn", Arguments: args}}},
		fakeollama.Reply{Content: "done"}, fakeollama.Reply{Content: "done"})
	notes := make(chan event.Background, 4)
	svc := open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1}})
	onBackground(t, svc, func(ev event.Background) {
		if ev.Kind != event.BackgroundJobs {
			notes <- ev
		}
	})
	// The chat switched model: its helper uses the same one.
	if run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "chat", Text: "/model ollama/small:1b"}, nil); err != nil {
		t.Fatal(err)
	} else if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("/model: %+v", res)
	}
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "chat", Text: "do it in the background"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("run %+v", res)
	}
	select {
	case n := <-notes:
		if n.Kind != event.BackgroundSubagent || n.Title != `Background task "demo" finished` || n.Text != "done" || n.SessionID != "chat" {
			t.Errorf("notification %+v", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notification")
	}
	sess, err := svc.Sessions.Load("chat")
	if err != nil {
		t.Fatal(err)
	}
	if last := sess.Entries[len(sess.Entries)-1]; last.Content != "Background task \"demo\" finished:\n\ndone" {
		t.Errorf("last message %q", last.Content)
	}
	select {
	case n := <-notes:
		t.Errorf("a second background event: %+v", n)
	default:
	}
	for _, s := range svc.Chat.Helpers() {
		t.Errorf("still running: %+v", s)
	}
	// The helper's tools: everything but spawn (and message/cron when they exist).
	reqs := fake.ChatRequests()
	helper := false
	for _, r := range reqs {
		if len(r.Messages) > 0 && strings.Contains(r.Messages[0].Content, "helper agent") {
			for _, raw := range r.Tools {
				if strings.Contains(string(raw), `"name":"spawn"`) {
					t.Error("the helper was offered spawn")
				}
			}
			if len(r.Tools) < 7 {
				t.Errorf("the helper got only %d tools", len(r.Tools))
			}
			if r.Model != "small:1b" {
				t.Errorf("the helper used %s, not the chat's model", r.Model)
			}
			helper = true
		}
	}
	if !helper {
		t.Error("no request of the helper reached the model")
	}
}
