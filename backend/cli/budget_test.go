package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/agent"
	"hearth/backend/internal/fakeollama"
)

// loopingChat is a model that lists the workspace for ever, with the tool-round budget
// set to 2: its third reply is the summary the budget asks for.
func loopingChat(t *testing.T, more ...fakeollama.Reply) *fakeollama.Server {
	t.Helper()
	list := fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "list_dir", Arguments: json.RawMessage(`{"path":"."}`)}}}
	replies := append([]fakeollama.Reply{list, list, {Content: "Listed twice; reading is left."}}, more...)
	fake := startChat(t, replies...)
	dir := filepath.Join(xdg.ConfigHome, "hearth")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := `{"agents":{"defaults":{"maxToolIterations":2}}}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(xdg.DataHome, "hearth", "workspace"), 0o755); err != nil {
		t.Fatal(err)
	}
	return fake
}

// With -m, a turn a budget ended prints the summary, the notice and how to go on.
func TestAgentBudgetEndingOnce(t *testing.T) {
	loopingChat(t)
	code, out, errOut := runIn(t, "", "agent", "-m", "keep listing", "-s", "loop")
	if code != 0 || out != "Listed twice; reading is left.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, want := range []string{"Note: Reached the limit of 2 tool rounds", "limit of tool rounds (agents.defaults.maxToolIterations)",
		"continue with: hearth agent -s loop -m continue"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// In the REPL an empty line after such a turn continues it: a new turn with budgets
// of its own, which reads the summary.
func TestAgentREPLContinuesAfterBudget(t *testing.T) {
	fake := loopingChat(t, fakeollama.Reply{Content: "Read them all."})
	code, out, errOut := runIn(t, "keep listing\n\n", "agent")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "Listed twice; reading is left.\n") || !strings.Contains(out, "Read them all.\n") {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(errOut, "press Enter to continue") {
		t.Errorf("stderr %q", errOut)
	}
	reqs := chatOnly(fake.ChatRequests())
	if len(reqs) != 4 {
		t.Fatalf("%d requests: want two rounds, the summary and the continued turn", len(reqs))
	}
	msgs := reqs[3].Messages
	var all strings.Builder
	for _, m := range msgs {
		all.WriteString(m.Content)
	}
	if !strings.Contains(all.String(), "Listed twice") || !strings.Contains(msgs[len(msgs)-1].Content, agent.ContinueText) || len(reqs[3].Tools) == 0 {
		t.Errorf("the continued turn: %d tools, messages %+v", len(reqs[3].Tools), msgs)
	}
}
