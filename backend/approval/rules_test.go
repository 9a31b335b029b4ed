package approval

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/tools"
)

func TestParseMode(t *testing.T) {
	for _, s := range []string{"all", "risky", "ask"} {
		if m, err := ParseMode(s); err != nil || string(m) != s {
			t.Errorf("%s: %v %v", s, m, err)
		}
	}
	if _, err := ParseMode("sometimes"); err == nil || !strings.Contains(err.Error(), "hint") {
		t.Errorf("bad mode: %v", err)
	}
	if r := RulesFrom(config.Approval{Mode: "bogus"}); r.Mode != ModeRisky {
		t.Errorf("unknown mode from config: %s", r.Mode)
	}
	if _, err := ParseDecision("maybe"); err == nil {
		t.Error("bad decision accepted")
	}
}

func TestRisk(t *testing.T) {
	ws := t.TempDir()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "memory", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A link that looks like a memory file but points out of the workspace.
	if err := os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(ws, "memory", "evil.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws, "memory"), filepath.Join(ws, "mem")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool, args string
		risky      bool
	}{
		{"exec", `{"command":"ls"}`, true},
		{"mcp_github_create_issue", `{}`, true},
		{"write_file", `{"path":"memory/MEMORY.md","content":"x"}`, false},
		{"edit_file", `{"path":"memory/2026-11-23.md","old_text":"a","new_text":"b"}`, false},
		{"write_file", `{"path":"` + filepath.Join(ws, "memory", "HISTORY.md") + `","content":""}`, false},
		{"write_file", `{"path":"mem/MEMORY.md","content":""}`, false}, // through a symlinked folder
		{"write_file", `{"path":"notes.md","content":""}`, true},
		{"write_file", `{"path":"memory/../AGENTS.md","content":""}`, true},
		{"write_file", `{"path":"memory/sub/x.md","content":""}`, true},
		{"write_file", `{"path":"memory/script.sh","content":""}`, true},
		{"write_file", `{"path":"memory/evil.md","content":""}`, true},
		{"write_file", `{}`, true},
		{"write_file", `not json`, true},
		// The gate reads the decoded value, so a second spelling of the key
		// cannot show it a memory file while the tool writes another.
		{"write_file", `{"path":"AGENTS.md","Path":"memory/MEMORY.md","content":""}`, true},
		{"write_file", `{"Path":"memory/MEMORY.md","path":"AGENTS.md","content":""}`, true},
		{"write_file", `{"path":"memory/MEMORY.md","path":"AGENTS.md","content":""}`, true},
		{"read_file", `{"path":"/etc/passwd"}`, false},
		{"web_fetch", `{"url":"http://x"}`, false},
	}
	for _, c := range cases {
		if got := Risk(ws, c.tool, argsFor(t, ws, c.tool, c.args)).Code != ""; got != c.risky {
			t.Errorf("%s %s: risky %v, want %v", c.tool, c.args, got, c.risky)
		}
	}
}

// argsFor decodes a call the way the agent loop does before it asks the
// gate: built-in tools through a Registry (zero Args when the arguments are
// refused); the gate reads no arguments of other tools (MCP, web), so they get none.
func argsFor(t *testing.T, ws, tool, raw string) tools.Args {
	t.Helper()
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: ws}})...); err != nil {
		t.Fatal(err)
	}
	if _, builtin := reg.Get(tool); !builtin {
		return tools.Args{}
	}
	return reg.Prepare(tool, json.RawMessage(raw)).Args
}

// Every mode and override, checked through Check itself. Unattended calls
// never wait, so "needs approval" shows as denied with scope unattended.
func TestModesAndOverrides(t *testing.T) {
	ws := t.TempDir()
	cases := []struct {
		name  string
		rules Rules
		tool  string
		args  string
		want  string // allowed | always (allowed by the always list) | asks | never
	}{
		{"all runs exec", Rules{Mode: ModeAll}, "exec", `{"command":"ls"}`, "allowed"},
		{"all runs mcp", Rules{Mode: ModeAll}, "mcp_x_y", `{}`, "allowed"},
		{"risky asks exec", Rules{Mode: ModeRisky}, "exec", `{"command":"ls"}`, "asks"},
		{"risky asks mcp", Rules{Mode: ModeRisky}, "mcp_fs_write", `{}`, "asks"},
		{"risky asks write", Rules{Mode: ModeRisky}, "write_file", `{"path":"a.txt","content":""}`, "asks"},
		{"risky lets memory writes", Rules{Mode: ModeRisky}, "write_file", `{"path":"memory/MEMORY.md","content":""}`, "allowed"},
		{"risky lets reads", Rules{Mode: ModeRisky}, "read_file", `{"path":"a.txt"}`, "allowed"},
		{"ask asks reads", Rules{Mode: ModeAsk}, "read_file", `{"path":"a.txt"}`, "asks"},
		{"ask asks memory writes", Rules{Mode: ModeAsk}, "write_file", `{"path":"memory/MEMORY.md","content":""}`, "asks"},
		{"always beats ask mode", Rules{Mode: ModeAsk, Always: []string{"read_file"}}, "read_file", `{}`, "always"},
		{"always beats risky", Rules{Mode: ModeRisky, Always: []string{"exec"}}, "exec", `{}`, "always"},
		{"always on a harmless tool", Rules{Mode: ModeRisky, Always: []string{"read_file"}}, "read_file", `{}`, "allowed"},
		{"ask override in all mode", Rules{Mode: ModeAll, Ask: []string{"read_file"}}, "read_file", `{}`, "asks"},
		{"always beats ask override", Rules{Mode: ModeAll, Always: []string{"exec"}, Ask: []string{"exec"}}, "exec", `{}`, "always"},
		{"never in all mode", Rules{Mode: ModeAll, Never: []string{"exec"}}, "exec", `{}`, "never"},
		{"never beats always", Rules{Mode: ModeAll, Always: []string{"exec"}, Never: []string{"exec"}}, "exec", `{}`, "never"},
		{"never for a harmless tool", Rules{Mode: ModeRisky, Never: []string{"read_file"}}, "read_file", `{}`, "never"},
		{"override names only that tool", Rules{Mode: ModeAll, Never: []string{"exec"}}, "read_file", `{}`, "allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := New(Options{Rules: func() Rules { return c.rules }, Workspace: func() string { return ws }})
			var evs []event.ApprovalData
			var notices []string
			d := g.Check(context.Background(), tools.GateCall{RunID: "r", SessionID: "s", CallID: "c", Name: c.tool,
				Args: argsFor(t, ws, c.tool, c.args), Unattended: true,
				Emit: func(a event.ApprovalData) { evs = append(evs, a) }, Notice: func(m i18n.Message) { notices = append(notices, m.String()) }})
			var got string
			switch {
			case d.Allow && len(evs) == 1 && evs[0].State == StateAllowed && evs[0].Scope == ScopeAlways:
				got = "always"
			case d.Allow:
				got = "allowed"
			case len(evs) == 1 && evs[0].Scope == ScopeNever:
				got = "never"
				if !strings.Contains(d.Reason, "do not retry") || len(notices) != 0 || d.Why.Code != "gate.refused.never" || d.Why.Args["tool"] != c.tool {
					t.Errorf("never: reason %q, why %+v, notices %v", d.Reason, d.Why, notices)
				}
			case len(evs) == 1 && evs[0].Scope == ScopeUnattended:
				got = "asks"
				if len(notices) != 1 || !strings.Contains(notices[0], c.tool) || !strings.Contains(d.Reason, "do not retry") || d.Why.Code != "gate.refused.unattended" {
					t.Errorf("unattended: reason %q, why %+v, notices %v", d.Reason, d.Why, notices)
				}
			default:
				got = "?"
			}
			if got != c.want {
				t.Errorf("got %s (%+v, events %+v), want %s", got, d, evs, c.want)
			}
			if got == "allowed" && len(evs) != 0 {
				t.Errorf("a call that needs no approval emitted %+v", evs)
			}
		})
	}
}

// Unattended runs never wait: a call that needs approval runs only when it
// is in tools.approval.always or the run's own allow-list.
func TestUnattended(t *testing.T) {
	g := New(Options{Rules: func() Rules { return Rules{Mode: ModeRisky, Always: []string{"mcp_x_y"}} }})
	check := func(tool string, allow []string) (tools.GateDecision, []event.ApprovalData) {
		var evs []event.ApprovalData
		d := g.Check(context.Background(), tools.GateCall{RunID: "r", CallID: "c", Name: tool, Unattended: true, AllowTools: allow,
			Emit: func(a event.ApprovalData) { evs = append(evs, a) }})
		return d, evs
	}
	if d, evs := check("exec", []string{"exec"}); !d.Allow || len(evs) != 1 || evs[0].Scope != ScopeJob {
		t.Errorf("job allow-list: %+v %+v", d, evs)
	}
	if d, _ := check("mcp_x_y", nil); !d.Allow {
		t.Errorf("always list: %+v", d)
	}
	if d, evs := check("exec", []string{"read_file"}); d.Allow || len(evs) != 1 || evs[0].State != StateDenied {
		t.Errorf("not allowed: %+v %+v", d, evs)
	}
	if len(g.Pendings()) != 0 {
		t.Errorf("an unattended call waits: %+v", g.Pendings())
	}
}
