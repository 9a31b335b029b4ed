package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/audit"
	"hearth/backend/config"
	"hearth/backend/internal/fakeollama"
)

func execReply(cmd string) fakeollama.Reply {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "exec", Arguments: args}}}
}

func lastToolMessage(t *testing.T, fake *fakeollama.Server, req int) string {
	t.Helper()
	reqs := fake.ChatRequests()
	if len(reqs) <= req {
		t.Fatalf("only %d model requests", len(reqs))
	}
	msgs := reqs[req].Messages
	last := msgs[len(msgs)-1]
	if last.Role != "tool" {
		t.Fatalf("last message of request %d is %s", req, last.Role)
	}
	return last.Content
}

func TestAgentMessageDeniesWhatNeedsApproval(t *testing.T) {
	fake := startChat(t, execReply("touch made-by-agent"), fakeollama.Reply{Content: "I was not allowed to."})
	code, out, errOut := runIn(t, "", "agent", "-m", "make a file")
	if code != 0 || out != "I was not allowed to.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "✗ denied: exec command=\"touch made-by-agent\" (It runs a shell command on this computer.) needs approval. Run with --yes") ||
		!strings.Contains(errOut, "tools.approval.always") || strings.Count(errOut, "denied") != 1 {
		t.Errorf("stderr %q", errOut)
	}
	if got := lastToolMessage(t, fake, 1); !strings.Contains(got, "denied by the user — do not retry this call") {
		t.Errorf("the model read %q", got)
	}
	if _, err := os.Stat(filepath.Join(xdg.DataHome, "hearth", "workspace", "made-by-agent")); err == nil {
		t.Error("the denied command ran")
	}
}

func TestAgentMessageYes(t *testing.T) {
	fake := startChat(t, execReply("echo ran-with-yes"), fakeollama.Reply{Content: "Ran it."})
	code, out, errOut := runIn(t, "", "agent", "-m", "run it", "--yes")
	if code != 0 || out != "Ran it.\n" || !strings.Contains(errOut, "✓ allowed (--yes): exec") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if got := lastToolMessage(t, fake, 1); !strings.Contains(got, "ran-with-yes") {
		t.Errorf("the model read %q", got)
	}
	// The audit log has the call, and `hearth audit tail` shows it.
	code, out, errOut = runIn(t, "", "audit", "tail")
	if code != 0 || !strings.Contains(out, "exec") || !strings.Contains(out, "once") || !strings.Contains(out, `command="echo ran-with-yes"`) {
		t.Errorf("audit tail: exit %d, %q %q", code, out, errOut)
	}
}

func TestREPLAsksYesNoAlways(t *testing.T) {
	fake := startChat(t,
		execReply("echo first"), fakeollama.Reply{Content: "One."},
		execReply("echo second"), fakeollama.Reply{Content: "Two."},
		execReply("echo third"), fakeollama.Reply{Content: "Three."},
		execReply("echo fourth"), fakeollama.Reply{Content: "Four."})
	stdin := "first\ny\nsecond\nmaybe\nn\nthird\na\nfourth\n"
	code, out, errOut := runIn(t, stdin, "agent")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"One.\n", "Two.\n", "Three.\n", "Four.\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(errOut, "Allow exec command="); n != 4 { // 3 turns, one asked twice
		t.Errorf("asked %d times:\n%s", n, errOut)
	}
	if !strings.Contains(errOut, "Please answer y, a or n.") || !strings.Contains(errOut, "exec will run without asking from now on") {
		t.Errorf("stderr %q", errOut)
	}
	if got := lastToolMessage(t, fake, 1); !strings.Contains(got, "first") {
		t.Errorf("y: %q", got)
	}
	if got := lastToolMessage(t, fake, 3); !strings.Contains(got, "do not retry") {
		t.Errorf("n: %q", got)
	}
	if got := lastToolMessage(t, fake, 7); !strings.Contains(got, "fourth") {
		t.Errorf("after always: %q", got)
	}
	cfg, _, err := config.Load(config.DefaultConfigFile(), nil)
	if err != nil || len(cfg.Tools.Approval.Always) != 1 || cfg.Tools.Approval.Always[0] != "exec" {
		t.Errorf("always not saved: %+v %v", cfg.Tools.Approval, err)
	}
	// The audit log holds the four calls with their decisions.
	code, out, _ = runIn(t, "", "audit", "tail", "-n", "0", "--json")
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e audit.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		got = append(got, e.Approval)
	}
	if code != 0 || strings.Join(got, " ") != "once denied always always" {
		t.Errorf("audit approvals %v (exit %d)", got, code)
	}
	if code, _, _ := runIn(t, "", "audit", "tail", "-n", "1"); code != 0 {
		t.Errorf("tail -n 1: exit %d", code)
	}
	if code, _, _ := runIn(t, "", "audit", "tail", "-n", "-1"); code != ExitUsage {
		t.Errorf("tail -n -1: exit %d", code)
	}
}

// Input that ends while a call waits stops the run instead of hanging.
func TestREPLInputEndsAtApproval(t *testing.T) {
	startChat(t, execReply("echo never"))
	code, _, errOut := runIn(t, "go\n", "agent")
	if code != 0 || !strings.Contains(errOut, "Allow exec") || !strings.Contains(errOut, "Stopped.") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// Many calls of one response waiting at once (ask mode, parallel reads) do
// not block the run; "always" on the first answers them all.
func TestREPLManyPendingAlways(t *testing.T) {
	var calls []fakeollama.ToolCall
	for range 24 {
		calls = append(calls, fakeollama.ToolCall{Name: "list_dir", Arguments: json.RawMessage(`{"path":"."}`)})
	}
	startChat(t, fakeollama.Reply{ToolCalls: calls}, fakeollama.Reply{Content: "Listed a lot."})
	p := config.DefaultConfigFile()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"tools":{"approval":{"mode":"ask"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runIn(t, "go\na\n", "agent")
	if code != 0 || !strings.Contains(out, "Listed a lot.") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if n := strings.Count(errOut, "Allow list_dir"); n != 1 {
		t.Errorf("asked %d times", n)
	}
	if code, out, _ := runIn(t, "", "audit", "tail", "-n", "0"); code != 0 || strings.Count(out, "list_dir") != 24 || strings.Count(out, " always ") != 24 {
		t.Errorf("audit:\n%s", out)
	}
}
