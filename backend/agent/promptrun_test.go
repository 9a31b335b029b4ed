package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/tools"
	"hearth/backend/workspace"
)

// A run keeps the system prompt of its first request: a persona file changed
// during the run (here by a tool) shows from the next run on.
func TestSystemPromptIsFixedForARun(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("edit_persona", `{}`)}},
		{ToolCalls: []fakeollama.ToolCall{call("edit_persona", `{}`)}},
		{Content: "Done."},
		{Content: "Hello again."},
	}}, func(o *Options) {
		if _, err := workspace.Onboard(o.Workspace); err != nil {
			t.Fatal(err)
		}
		b, err := prompt.New(prompt.Options{Workspace: o.Workspace})
		if err != nil {
			t.Fatal(err)
		}
		o.Context = &PromptContext{System: b.SystemPrompt, Estimator: prompt.NewEstimator()}
	})
	edits := 0
	_ = h.reg.Register(&testTool{name: "edit_persona", run: func(context.Context, tools.Args) (tools.Result, error) {
		edits++
		err := os.WriteFile(filepath.Join(h.ws, "SOUL.md"), []byte("# Soul\n\nI speak like a pirate, edit "+strings.Repeat("I", edits)+".\n"), 0o600)
		return tools.Text("edited"), err
	}})
	if res, _ := h.send("s", "change your persona"); res.Status != event.StatusOK {
		t.Fatalf("first run: %+v", res)
	}
	if res, _ := h.send("s", "hi"); res.Status != event.StatusOK {
		t.Fatalf("second run: %+v", res)
	}
	reqs := h.fake.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	system := func(i int) string { return reqs[i].Messages[0].Content }
	for i := 1; i < 3; i++ {
		if system(i) != system(0) {
			t.Errorf("request %d of the run has another system prompt than its first:\n%s", i+1, system(i))
		}
	}
	if strings.Contains(system(0), "pirate") {
		t.Error("the first request already shows the edit")
	}
	if !strings.Contains(system(3), "pirate, edit II.") {
		t.Errorf("the next run does not show the persona as edited:\n%s", system(3))
	}
}
