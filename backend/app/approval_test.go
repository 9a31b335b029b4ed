package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/approval"
	"hearth/backend/audit"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// hitlService opens a Service on a fresh XDG tree with a scripted fake Ollama
// and extra environment for ${VAR} references.
func hitlService(t *testing.T, cfgJSON string, extraEnv map[string]string, replies ...fakeollama.Reply) (*App, *fakeollama.Server, Options) {
	t.Helper()
	setXDG(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}, Replies: replies})
	if cfgJSON != "" {
		p := config.DefaultConfigFile()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(cfgJSON), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	m := map[string]string{"OLLAMA_HOST": url}
	for k, v := range extraEnv {
		m[k] = v
	}
	opts := Options{Getenv: env(m), Retry: llm.RetryPolicy{MaxAttempts: 1}}
	svc := started(t, opts)
	if err := svc.Settings.ConfigError(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close(context.Background()) })
	return svc, fake, opts
}

func execReply(cmd string) fakeollama.Reply {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "exec", Arguments: args}}}
}

// answerer is a sink that answers approval requests through the Service.
type answerer struct {
	events
	svc       *App
	decisions []approval.Decision
	requested chan event.ApprovalData
}

func newAnswerer(svc *App, ds ...approval.Decision) *answerer {
	return &answerer{svc: svc, decisions: ds, requested: make(chan event.ApprovalData, 8)}
}

func (a *answerer) sink(ev event.Event) {
	a.events.sink(ev)
	if d, ok := ev.Data.(event.ApprovalData); ok && d.State == approval.StateRequested {
		if len(a.decisions) > 0 {
			dec := a.decisions[0]
			a.decisions = a.decisions[1:]
			if err := a.svc.Guard.Gate.Approve(ev.RunID, d.CallID, dec); err != nil {
				panic(err)
			}
		}
		a.requested <- d
	}
}

func (a *answerer) approvals() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, e := range a.evs {
		if d, ok := e.Data.(event.ApprovalData); ok {
			out = append(out, d.State+":"+d.Scope)
		}
	}
	return out
}

func TestApprovalAlwaysSavedAndAudited(t *testing.T) {
	svc, _, _ := hitlService(t, "", nil, execReply("echo one"), fakeollama.Reply{Content: "1"},
		execReply("echo two"), fakeollama.Reply{Content: "2"})
	if svc.Guard.Mode() != "risky" {
		t.Errorf("default mode %q", svc.Guard.Mode())
	}
	a := newAnswerer(svc)
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "s", Text: "one"}, a.sink)
	if err != nil {
		t.Fatal(err)
	}
	req := <-a.requested
	p := svc.Guard.Gate.Pendings()
	if len(p) != 1 || p[0].Tool != "exec" || p[0].CallID != req.CallID || !strings.Contains(string(p[0].Args), "echo one") || p[0].Reason == "" {
		t.Fatalf("pending %+v", p)
	}
	if err := svc.Guard.Gate.Approve(run.ID, req.CallID, approval.Always); err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Final != "1" {
		t.Fatalf("result %+v", res)
	}
	if cfg, _, err := config.Load(svc.Settings.Paths().ConfigFile, nil); err != nil || len(cfg.Tools.Approval.Always) != 1 || cfg.Tools.Approval.Always[0] != "exec" {
		t.Errorf("saved config: %+v %v", cfg.Tools.Approval, err)
	}
	a2 := newAnswerer(svc)
	run, _ = svc.Chat.Start(context.Background(), agent.Request{SessionID: "s", Text: "two"}, a2.sink)
	if res := run.Wait(); res.Final != "2" || strings.Join(a2.approvals(), " ") != "allowed:always" {
		t.Errorf("asked again after always: %+v %v", res, a2.approvals())
	}
	got, err := svc.Guard.Audit.Query(audit.Filter{SessionID: "s"})
	if err != nil || len(got) != 2 || got[0].Approval != audit.Always || got[1].Approval != audit.Always || !got[0].OK || got[0].Tool != "exec" {
		t.Errorf("activity %+v %v", got, err)
	}
	if got, _ := svc.Guard.Audit.Query(audit.Filter{Approval: "asked"}); len(got) != 1 {
		t.Errorf("asked filter: %+v", got)
	}
}

func TestSetApprovalMode(t *testing.T) {
	svc, _, _ := hitlService(t, "", nil, fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "list_dir", Arguments: json.RawMessage(`{"path":"."}`)}}},
		fakeollama.Reply{Content: "listed"})
	if err := svc.Guard.SetMode("sometimes"); err == nil || !strings.Contains(err.Error(), "hint") {
		t.Errorf("bad mode: %v", err)
	}
	if err := svc.Guard.SetMode("ask"); err != nil {
		t.Fatal(err)
	}
	if cfg, _, _ := config.Load(svc.Settings.Paths().ConfigFile, nil); cfg.Tools.Approval.Mode != "ask" || svc.Guard.Mode() != "ask" {
		t.Errorf("mode not saved: %q", cfg.Tools.Approval.Mode)
	}
	// Ask mode applies at once: even list_dir asks.
	a := newAnswerer(svc, approval.Deny)
	run, _ := svc.Chat.Start(context.Background(), agent.Request{Text: "ls"}, a.sink)
	run.Wait()
	if got := strings.Join(a.approvals(), " "); got != "requested: denied:user" {
		t.Errorf("approvals %q", got)
	}
}

// A pending approval does not survive a restart: the new process's
// "continue" asks again.
func TestRestartWithPendingApproval(t *testing.T) {
	svc, _, opts := hitlService(t, "", nil, execReply("echo before"), execReply("echo after"), fakeollama.Reply{Content: "Done after restart."})
	a := newAnswerer(svc)
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "r", Text: "go"}, a.sink)
	if err != nil {
		t.Fatal(err)
	}
	<-a.requested
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := svc.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusInterrupted {
		t.Fatalf("status %s", res.Status)
	}
	svc2 := open(t, opts)
	t.Cleanup(func() { _ = svc2.Close(context.Background()) })
	if p := svc2.Guard.Gate.Pendings(); len(p) != 0 {
		t.Fatalf("a pending approval survived the restart: %+v", p)
	}
	a2 := newAnswerer(svc2, approval.Once)
	done := make(chan struct{})
	_, err = svc2.Chat.Continue(context.Background(), "r", func(ev event.Event) {
		a2.sink(ev)
		if ev.Type == event.RunFinished {
			close(done)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	<-done
	if got := strings.Join(a2.approvals(), " "); got != "requested: allowed:once" {
		t.Errorf("continue did not ask again: %q", got)
	}
	if got, _ := svc2.Guard.Audit.Query(audit.Filter{SessionID: "r"}); len(got) != 2 || got[0].Approval != audit.Cancelled || got[1].Approval != audit.Once {
		t.Errorf("activity %+v", got)
	}
}

func TestUnattendedDeniedWithNotice(t *testing.T) {
	svc, _, _ := hitlService(t, "", nil, execReply("echo cron"), fakeollama.Reply{Content: "I could not run it."})
	var ev events
	run, err := svc.Chat.Start(context.Background(), agent.Request{Text: "cron job", Unattended: true}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("result %+v", res)
	}
	var notice string
	for _, e := range ev.evs {
		if n, ok := e.Data.(event.NoticeData); ok {
			notice = n.Message
		}
	}
	if !strings.Contains(notice, "exec was not run") || len(svc.Guard.Gate.Pendings()) != 0 {
		t.Errorf("notice %q, pending %+v", notice, svc.Guard.Gate.Pendings())
	}
	if got, _ := svc.Guard.Audit.Query(audit.Filter{}); len(got) != 1 || got[0].Approval != audit.Unattended || got[0].OK {
		t.Errorf("activity %+v", got)
	}
}

func TestSetToolApproval(t *testing.T) {
	svc, _, _ := hitlService(t, `{"tools":{"approval":{"always":["exec"]}}}`, nil)
	if err := svc.Guard.SetToolApproval("exec", "never"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Guard.SetToolApproval("read_file", "ask"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Guard.SetToolApproval("read_file", "sometimes"); err == nil || !strings.Contains(err.Error(), "hint") {
		t.Errorf("bad rule: %v", err)
	}
	cfg, _, err := config.Load(svc.Settings.Paths().ConfigFile, nil)
	if a := cfg.Tools.Approval; err != nil || len(a.Always) != 0 || len(a.Never) != 1 || a.Never[0] != "exec" || len(a.Ask) != 1 || a.Ask[0] != "read_file" {
		t.Errorf("saved %+v %v", cfg.Tools.Approval, err)
	}
	if err := svc.Guard.SetToolApproval("exec", ""); err != nil {
		t.Fatal(err)
	}
	if a := svc.Guard.Rules(); len(a.Never) != 0 || len(a.Ask) != 1 {
		t.Errorf("rules %+v", a)
	}
}

// "Allow for this chat" ends with the chat: a chat deleted and started again
// under the same id asks again.
func TestChatGrantEndsWithDeletedChat(t *testing.T) {
	svc, _, _ := hitlService(t, "", nil, execReply("echo one"), fakeollama.Reply{Content: "One."},
		execReply("echo two"), fakeollama.Reply{Content: "Two."})
	a := newAnswerer(svc, approval.Chat)
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "c", Text: "first"}, a.sink)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("first run %+v", res)
	}
	if err := svc.Sessions.Delete("c"); err != nil {
		t.Fatal(err)
	}
	b := newAnswerer(svc, approval.Once)
	run, err = svc.Chat.Start(context.Background(), agent.Request{SessionID: "c", Text: "second"}, b.sink)
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("second run %+v", res)
	}
	if got := strings.Join(b.approvals(), " "); got != "requested: allowed:once" {
		t.Errorf("the deleted chat's grant still applied: %q", got)
	}
}
