package models

import (
	"context"
	"encoding/json"
	"testing"

	"hearth/backend/fitness"
	"hearth/backend/internal/fakeollama"
)

// "Offer tools anyway" on a chat-only model is honoured by the next turn, is listed
// with the model, and lapses when withdrawn.
func TestToolsAnywayHonouredByNextTurn(t *testing.T) {
	mute := fakeollama.Model{Name: "mute:1b", Family: "gemma", ContextLength: 4096, Capabilities: []string{"completion", "tools"}, ToolStyle: "none"}
	svc, fake := checkService(t, mute)
	if r, err := svc.Check(context.Background(), "mute:1b"); err != nil || r.Verdict != fitness.VerdictChatOnly || len(r.Probes) != 2 {
		t.Fatalf("check %+v %v", r, err)
	}
	fake.Enqueue(fakeollama.Reply{Content: "Hi."}, fakeollama.Reply{Content: "Hi again."}, fakeollama.Reply{Content: "And again."})
	send(t, svc, "ollama/mute:1b", "hello")
	if err := svc.SetToolsAnyway(context.Background(), "mute:1b", true); err != nil {
		t.Fatal(err)
	}
	send(t, svc, "ollama/mute:1b", "now with tools?")
	reqs := fake.ChatRequests()
	if len(reqs[0].Tools) != 0 || len(reqs[1].Tools) == 0 {
		t.Errorf("tools before %d, after the override %d", len(reqs[0].Tools), len(reqs[1].Tools))
	}
	models, err := svc.List(context.Background())
	if err != nil || len(models) != 1 || !models[0].ToolsAnyway || models[0].Fitness == nil || models[0].Fitness.Verdict != fitness.VerdictChatOnly {
		t.Errorf("list %+v %v", models, err)
	}
	if err := svc.SetToolsAnyway(context.Background(), "mute:1b", false); err != nil {
		t.Fatal(err)
	}
	send(t, svc, "ollama/mute:1b", "and now?")
	if reqs := fake.ChatRequests(); len(reqs[2].Tools) != 0 {
		t.Error("tools offered after the override was withdrawn")
	}
}

// A model that made a valid structured call in the user's chat is not demoted by a
// later probe that saw none, for the same digest; a new digest is judged afresh.
func TestChatEvidenceKeepsTools(t *testing.T) {
	shy := fakeollama.Model{Name: "shy:1b", Family: "qwen3", ContextLength: 8192, Capabilities: []string{"completion", "tools"}, ToolStyle: "none"}
	svc, fake := checkService(t, shy)
	fake.Enqueue(
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "list_dir", Arguments: json.RawMessage(`{"path":"."}`)}}},
		fakeollama.Reply{Content: "The folder is empty."},
	)
	send(t, svc, "ollama/shy:1b", "what is in my workspace?")
	r, err := svc.Check(context.Background(), "shy:1b")
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != fitness.VerdictGood || !r.OffersTools() || r.Probes[len(r.Probes)-1].Probe != fitness.ProbeChat {
		t.Errorf("after a chat's structured call the check says %+v", r)
	}
	fake.Enqueue(fakeollama.Reply{Content: "Sure."})
	send(t, svc, "ollama/shy:1b", "thanks")
	if reqs := fake.ChatRequests(); len(reqs[len(reqs)-1].Tools) == 0 {
		t.Error("the next turn got no tools")
	}

	// Re-pulled: the chat was another model's; the probes decide.
	m := shy
	m.Digest = "sha256:other"
	fake.SetModels(m)
	if r, err := svc.Check(context.Background(), "shy:1b"); err != nil || r.Verdict != fitness.VerdictChatOnly {
		t.Errorf("a new digest kept the old evidence: %+v %v", r, err)
	}
}
