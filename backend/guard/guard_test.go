package guard

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"hearth/backend/audit"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/secrets"
	"hearth/backend/settings"
	"hearth/backend/tools"
)

const secret = "sk-test-0123456789abcdef"

// newGuard is the service over real settings in the test's temporary folder, with
// one API key configured (it must never show) and a sandbox note for exec.
func newGuard(t *testing.T) (*Service, *settings.Service) {
	t.Helper()
	root := t.TempDir()
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, filepath.Join(root, strings.ToLower(v)))
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	st := settings.Open(settings.Options{ConfigPath: filepath.Join(root, "config.json"),
		WorkspaceFlag: filepath.Join(root, "workspace"), Getenv: func(string) string { return "" }, Keyring: keyring{}})
	if err := st.Update(func(c *config.Config) error { c.Providers.OpenAI.APIKey = secret; return nil }); err != nil {
		t.Fatal(err)
	}
	g := New(st, func(s string) string { return strings.ReplaceAll(s, secret, "[hidden]") })
	return g, st
}

// call is an exec call as the agent loop hands it to the gate.
func call(t *testing.T, ws, command string, emit func(event.ApprovalData)) tools.GateCall {
	t.Helper()
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: ws}})...); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(map[string]string{"command": command})
	c := reg.Prepare("exec", raw)
	// The sandbox note travels with the prepared call (the exec tool fills it from
	// its sandbox); this registry has none, so the test sets the one a jail gives.
	c.Preview.Sandbox = &i18n.Message{Code: "test.boxed"}
	return tools.GateCall{RunID: "r1", SessionID: "c1", CallID: "k1", Name: "exec",
		Args: c.Args, Preview: c.Preview, Emit: emit}
}

// The mode and the per-tool rules are the config's: set here, saved, read back by
// a fresh open; bad values say what to use.
func TestModeAndRulesAreSaved(t *testing.T) {
	g, st := newGuard(t)
	if g.Mode() != "risky" {
		t.Errorf("default mode %q", g.Mode())
	}
	if err := g.SetMode("ask"); err != nil || g.Mode() != "ask" {
		t.Fatalf("SetMode: %v, mode %q", err, g.Mode())
	}
	if err := g.SetMode("loud"); err == nil || !strings.Contains(err.Error(), "hint:") || g.Mode() != "ask" {
		t.Errorf("a bad mode: %v, mode %q", err, g.Mode())
	}
	for _, step := range []struct{ tool, rule string }{{"exec", "never"}, {"exec", "always"}, {"web_fetch", "ask"}, {"mcp_x_y", "never"}, {"mcp_x_y", ""}} {
		if err := g.SetToolApproval(step.tool, step.rule); err != nil {
			t.Fatal(err)
		}
	}
	r := g.Rules()
	if !slices.Equal(r.Always, []string{"exec"}) || !slices.Equal(r.Ask, []string{"web_fetch"}) || len(r.Never) != 0 {
		t.Errorf("rules %+v", r)
	}
	r.Always[0] = "changed" // a copy: the config stays
	if g.Rules().Always[0] != "exec" {
		t.Error("Rules handed out the config's own slice")
	}
	for _, bad := range [][2]string{{" ", "always"}, {"exec", "sometimes"}} {
		if err := g.SetToolApproval(bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), "hint:") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	again := settings.Open(settings.Options{ConfigPath: st.Paths().ConfigFile, WorkspaceFlag: st.Paths().Workspace,
		Getenv: func(string) string { return "" }, Keyring: keyring{}})
	if a := again.Config().Tools.Approval; a.Mode != "ask" || !slices.Equal(a.Always, []string{"exec"}) {
		t.Errorf("saved %+v", a)
	}
}

// What the gate decides follows the config at every call: never denies without
// asking, risky asks before exec (with the sandbox note and the key masked), an
// answer of always is saved and the next call runs without asking.
func TestTheGateDecidesByTheConfig(t *testing.T) {
	g, st := newGuard(t)
	ws := st.Paths().Workspace
	ctx := context.Background()
	if err := g.SetToolApproval("exec", "never"); err != nil {
		t.Fatal(err)
	}
	var states []string
	record := func(d event.ApprovalData) { states = append(states, d.State+"/"+d.Scope) }
	if d := g.Gate.Check(ctx, call(t, ws, "ls", record)); d.Allow || d.Why.Code != "gate.refused.never" {
		t.Errorf("never: %+v", d)
	}
	if err := g.SetToolApproval("exec", ""); err != nil {
		t.Fatal(err)
	}
	// Risky mode asks: the card is answered from the approval event itself.
	var card event.ApprovalData
	var pending []Pending
	answer := func(d event.ApprovalData) {
		record(d)
		if d.State == StateRequested {
			card, pending = d, g.Gate.Pendings()
			if err := g.Gate.Approve("r1", "k1", Always); err != nil {
				t.Error(err)
			}
		}
	}
	if d := g.Gate.Check(ctx, call(t, ws, "echo "+secret, answer)); !d.Allow {
		t.Fatalf("allowed always: %+v", d)
	}
	if card.SandboxNote == nil || card.SandboxNote.Code != "test.boxed" {
		t.Errorf("the card's sandbox note: %+v", card)
	}
	if len(pending) != 1 || pending[0].Tool != "exec" || strings.Contains(string(pending[0].Args), secret) {
		t.Errorf("pending %+v", pending)
	}
	if !slices.Contains(g.Rules().Always, "exec") {
		t.Errorf("always was not saved: %+v", g.Rules())
	}
	if d := g.Gate.Check(ctx, call(t, ws, "ls", record)); !d.Allow {
		t.Errorf("after always: %+v", d)
	}
	want := []string{"denied/never", "requested/", "allowed/always", "allowed/always"}
	if !slices.Equal(states, want) {
		t.Errorf("approval events %q, want %q", states, want)
	}
	if err := g.Gate.Approve("r1", "k1", Once); err == nil {
		t.Error("an answer to a call that no longer waits was taken")
	}
}

// A call that waits for the user is answered when its run stops.
func TestAWaitingCallEndsWithItsRun(t *testing.T) {
	g, st := newGuard(t)
	if err := g.SetMode("ask"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := g.Gate.Check(ctx, call(t, st.Paths().Workspace, "ls", func(d event.ApprovalData) {
		if d.State == StateRequested {
			cancel()
		}
	}))
	if d.Allow || d.Why.Code != "gate.refused.cancelled" || len(g.Gate.Pendings()) != 0 {
		t.Errorf("stopped while waiting: %+v, pending %+v", d, g.Gate.Pendings())
	}
}

// The audit log is written in the settings' folder, keys masked, and read back.
func TestAuditIsWrittenMasked(t *testing.T) {
	g, st := newGuard(t)
	args, _ := json.Marshal(map[string]string{"command": "curl -H 'Authorization: " + secret + "' x"})
	for _, ev := range []event.Event{
		{RunID: "r1", SessionID: "c1", Type: event.ToolCall, Data: event.ToolCallData{CallID: "k1", Name: "exec", Args: args}},
		{RunID: "r1", SessionID: "c1", Type: event.Approval, Data: event.ApprovalData{CallID: "k1", State: StateRequested}},
		{RunID: "r1", SessionID: "c1", Type: event.Approval, Data: event.ApprovalData{CallID: "k1", State: "allowed", Scope: "once"}},
		{RunID: "r1", SessionID: "c1", Type: event.ToolResult, Data: event.ToolResultData{CallID: "k1", Name: "exec", Content: "failed: " + secret}},
		{RunID: "r1", SessionID: "c1", Type: event.RunFinished, Data: event.FinishedData{Status: event.StatusOK}},
	} {
		g.Audit.Observe(ev)
	}
	got, err := g.Audit.Query(audit.Filter{})
	if err != nil || len(got) != 1 {
		t.Fatalf("entries %+v %v", got, err)
	}
	if e := got[0]; e.Tool != "exec" || e.Approval != "once" || !e.Asked || e.OK || e.SessionID != "c1" {
		t.Errorf("entry %+v", e)
	}
	ents, err := os.ReadDir(st.Paths().AuditDir)
	if err != nil || len(ents) != 1 {
		t.Fatalf("audit folder: %v %v", ents, err)
	}
	b, _ := os.ReadFile(filepath.Join(st.Paths().AuditDir, ents[0].Name()))
	if strings.Contains(string(b), secret) {
		t.Errorf("the key reached the audit file: %s", b)
	}
}

// keyring keeps no key: the tests never reach the OS keyring.
type keyring struct{}

func (keyring) Get(string, string) (string, error) { return "", secrets.ErrNotFound }
func (keyring) Set(string, string, string) error   { return nil }
func (keyring) Delete(string, string) error        { return nil }
