package core

import (
	"context"
	"strings"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/internal/fakeollama"
)

// The built-in skills reach the system prompt as a compact summary (at most
// ~150 tokens of F-PROMPTSIZE), and a disabled skill leaves it.
func TestSkillsInPrompt(t *testing.T) {
	svc, fake := chatService(t, "", fakeollama.Reply{Content: "ok"}, fakeollama.Reply{Content: "ok"})
	list, err := svc.ListSkills()
	if err != nil || len(list) != 4 {
		t.Fatalf("skills %+v %v", list, err)
	}
	send := func(id string) string {
		run, err := svc.SendRequest(context.Background(), agent.Request{SessionID: id, Text: "hello"}, nil)
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
	if err := svc.SetSkillEnabled("summarize", false); err != nil {
		t.Fatal(err)
	}
	if sys := send("b"); strings.Contains(sys, `name="summarize"`) || !strings.Contains(sys, `name="memory"`) {
		t.Errorf("disabled skill still offered:\n%s", sys)
	}
}
