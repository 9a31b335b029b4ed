package approval

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/audit"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/tools"
)

// recordingGate is the real Gate, remembering the arguments it judged.
type recordingGate struct {
	*Gate
	mu     sync.Mutex
	judged []json.RawMessage
}

func (g *recordingGate) Check(ctx context.Context, c tools.GateCall) tools.GateDecision {
	g.mu.Lock()
	g.judged = append(g.judged, c.Args.JSON())
	g.mu.Unlock()
	return g.Gate.Check(ctx, c)
}

type noteArgs struct {
	Path  string `json:"path"`
	Count int    `json:"count,omitempty"`
}

func (a noteArgs) WritePath() string { return a.Path }

// auditedRunner is a Runner over the built-in tools plus extra, with the
// real audit log observing its events.
func auditedRunner(t *testing.T, r *rig, g tools.Gate, extra ...tools.Tool) *audit.Log {
	t.Helper()
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(append(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: r.ws}}), extra...)...); err != nil {
		t.Fatal(err)
	}
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: r.url, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	log := audit.New(audit.Options{Dir: filepath.Join(t.TempDir(), "audit")})
	r.runner, err = agent.New(agent.Options{
		Resolve: func(string) (llm.Provider, string, error) { return prov, "qwen3:4b", nil },
		Tools:   reg, Store: r.store, Gate: g, DefaultModel: "ollama/qwen3:4b", Workspace: r.ws,
		Observer: log.Observe,
	})
	if err != nil {
		t.Fatal(err)
	}
	return log
}

func auditEntries(t *testing.T, log *audit.Log) []audit.Entry {
	t.Helper()
	es, err := log.Query(audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// The walk-around of issue 19: the gate read "Path" (a memory file, so no
// question) while the tool wrote "path" (AGENTS.md). Now the arguments are
// refused before the gate is asked, the model reads why, nothing is written
// and the audit log says "invalid".
func TestCaseVariantKeyIsRefusedBeforeTheGate(t *testing.T) {
	attack := json.RawMessage(`{"path": "AGENTS.md", "Path": "memory/MEMORY.md", "content": "pwned"}`)
	r := newRig(t, Rules{Mode: ModeRisky},
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "write_file", Arguments: attack}}},
		fakeollama.Reply{Content: "I will send one path."})
	agents := filepath.Join(r.ws, "AGENTS.md")
	if err := os.WriteFile(agents, []byte("persona"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := &recordingGate{Gate: r.gate}
	log := auditedRunner(t, r, g)
	w := newWatcher(r.gate)
	if res := r.send(agent.Request{SessionID: "s", Text: "save this"}, w); res.Status != event.StatusOK {
		t.Fatalf("run: %+v", res)
	}
	if data, _ := os.ReadFile(agents); string(data) != "persona" {
		t.Fatalf("AGENTS.md was overwritten: %q", data)
	}
	if _, err := os.Stat(filepath.Join(r.ws, "memory", "MEMORY.md")); err == nil {
		t.Fatal("MEMORY.md was written")
	}
	if len(g.judged) != 0 {
		t.Errorf("the gate judged refused arguments: %s", g.judged)
	}
	if got := states(w.approvals()); got != "denied:invalid" {
		t.Errorf("approval events %q, want denied:invalid", got)
	}
	const why = `differ only in case`
	rs := w.results()
	if len(rs) != 1 || rs[0].OK || !strings.Contains(rs[0].Content, why) || !strings.Contains(rs[0].Content, `"Path"`) {
		t.Fatalf("tool results %+v", rs)
	}
	msgs := r.fake.ChatRequests()[1].Messages
	if last := msgs[len(msgs)-1]; last.Role != "tool" || !strings.Contains(last.Content, why) {
		t.Errorf("the model did not read the refusal: %+v", last)
	}
	es := auditEntries(t, log)
	if len(es) != 1 {
		t.Fatalf("audit entries %+v", es)
	}
	e := es[0]
	if e.Approval != audit.Invalid || e.OK || !strings.Contains(e.Error, why) ||
		!strings.HasPrefix(string(e.Args), "{") || !strings.Contains(string(e.Args), `"Path"`) || !strings.Contains(string(e.Args), `"AGENTS.md"`) {
		t.Errorf("audit entry %+v (args %s)", e, e.Args)
	}
}

// The gate, the audit log and the tool see one decoded value: repaired,
// cast ("7" → 7) and nothing else.
func TestGateAuditAndToolSeeOneValue(t *testing.T) {
	r := newRig(t, Rules{Mode: ModeRisky},
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{
			{Name: "note", Arguments: json.RawMessage(`{"path": "memory/notes.md", "count": "7"}`)},
			{Name: "write_file", Arguments: json.RawMessage(`{"path": "memory/today.md", "content": 42}`)}}},
		fakeollama.Reply{Content: "Noted."})
	var ran []json.RawMessage
	note := tools.New(tools.Def[noteArgs]{Name: "note", Run: func(_ context.Context, a noteArgs) (tools.Result, error) {
		b, _ := json.Marshal(a)
		ran = append(ran, b)
		return tools.Text("ok"), nil
	}})
	g := &recordingGate{Gate: r.gate}
	log := auditedRunner(t, r, g, note)
	w := newWatcher(r.gate)
	if res := r.send(agent.Request{SessionID: "s", Text: "note"}, w); res.Final != "Noted." {
		t.Fatalf("run: %+v", res)
	}
	const want = `{"path":"memory/notes.md","count":7}`
	es := auditEntries(t, log)
	if len(g.judged) != 2 || len(es) != 2 || len(ran) != 1 {
		t.Fatalf("judged %s, audit %+v, ran %s", g.judged, es, ran)
	}
	// The audit log stores keys sorted; the value is the same.
	if string(g.judged[0]) != want || !sameJSON(es[0].Args, want) || string(ran[0]) != want {
		t.Errorf("gate %s, audit %s, tool %s; want all %s", g.judged[0], es[0].Args, ran[0], want)
	}
	const wrote = `{"path":"memory/today.md","content":"42"}`
	if string(g.judged[1]) != wrote || !sameJSON(es[1].Args, wrote) || es[1].Approval != audit.Auto {
		t.Errorf("write_file: gate %s, audit %+v", g.judged[1], es[1])
	}
	if data, err := os.ReadFile(filepath.Join(r.ws, "memory", "today.md")); err != nil || string(data) != "42" {
		t.Errorf("written %q %v", data, err)
	}
}

func sameJSON(got json.RawMessage, want string) bool {
	var a, b any
	return json.Unmarshal(got, &a) == nil && json.Unmarshal([]byte(want), &b) == nil && reflect.DeepEqual(a, b)
}
