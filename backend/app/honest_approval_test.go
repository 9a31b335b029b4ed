package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/approval"
	"hearth/backend/audit"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
)

// A call the exec guard would refuse is refused at once, with its reason: the person
// is never asked to approve something that could not run.
func TestApprovalRefusedByRuleIsNeverOffered(t *testing.T) {
	svc, _, _ := hitlService(t, "", nil, execReply("rm -rf ~"), fakeollama.Reply{Content: "I will not do that."})
	a := newAnswerer(svc, approval.Once)
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "g", Text: "clean up"}, a.sink)
	if err != nil {
		t.Fatal(err)
	}
	res := run.Wait()
	if got := strings.Join(a.approvals(), " "); got != "denied:rule" {
		t.Fatalf("approvals %q, want only a denial by rule", got)
	}
	var result event.ToolResultData
	for _, e := range a.evs {
		if d, ok := e.Data.(event.ToolResultData); ok {
			result = d
		}
	}
	if result.OK || !strings.Contains(result.Content, "refused by safety rule") {
		t.Errorf("tool result %+v", result)
	}
	if res.Final != "I will not do that." {
		t.Errorf("final %q", res.Final)
	}
	if p := svc.Guard.Gate.Pendings(); len(p) != 0 {
		t.Errorf("pending %+v", p)
	}
	got, err := svc.Guard.Audit.Query(audit.Filter{SessionID: "g"})
	if err != nil || len(got) != 1 || got[0].Approval != audit.Rule || got[0].Asked {
		t.Errorf("audit %+v %v", got, err)
	}
}

// A destructive call that passes the rules is asked with its working directory and
// the sandbox's rules, and marked destructive; a harmless one is not marked.
func TestApprovalRequestShowsDirAndDestructive(t *testing.T) {
	home := t.TempDir()
	old := filepath.Join(home, "old.txt")
	if err := os.WriteFile(old, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"command": "rm old.txt", "working_dir": home})
	svc, _, _ := hitlService(t, `{"tools":{"restrictToWorkspace":false}}`, nil,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "exec", Arguments: args}}}, fakeollama.Reply{Content: "ok"},
		execReply("echo hi"), fakeollama.Reply{Content: "ok"})
	a := newAnswerer(svc, approval.Deny, approval.Deny)
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "d", Text: "remove it"}, a.sink)
	if err != nil {
		t.Fatal(err)
	}
	req := <-a.requested
	run.Wait()
	if !req.Destructive || req.Dir == "" || filepath.Clean(req.Dir) != filepath.Clean(home) {
		t.Errorf("request %+v, want destructive in %s", req, home)
	}
	if req.SandboxNote == nil || !strings.HasPrefix(req.SandboxNote.Code, "gate.sandbox.") || req.Sandbox == "" {
		t.Errorf("request %+v says nothing of the sandbox's rules", req)
	}
	if _, err := os.Stat(old); err != nil {
		t.Errorf("denied rm ran: %v", err)
	}
	run, _ = svc.Chat.Start(context.Background(), agent.Request{SessionID: "d", Text: "say hi"}, a.sink)
	req = <-a.requested
	run.Wait()
	if req.Destructive || req.Dir == "" {
		t.Errorf("harmless request %+v", req)
	}
}
