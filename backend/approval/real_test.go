//go:build unix

package approval

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// weather is the tool the tiny model calls.
type weather struct{ ran *int }

func (weather) Name() string        { return testmodel.ToolName }
func (weather) Description() string { return "Current weather for a city" }
func (weather) Parameters() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"city": {Type: "string"}}}
}
func (weather) ReadOnly() bool  { return true }
func (weather) Exclusive() bool { return false }
func (w weather) Execute(context.Context, tools.Args) (tools.Result, error) {
	*w.ran++
	return tools.Text("sunny"), nil
}

// TestRealOllamaApproval: the real server's parsed tool call waits at the
// gate; allowed it runs, denied the model reads the denial and still answers.
func TestRealOllamaApproval(t *testing.T) {
	host := realollama.StartWithModels(t)
	root := t.TempDir()
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: host, Retry: llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(weather{ran: &ran}); err != nil {
		t.Fatal(err)
	}
	gate := New(Options{Rules: func() Rules { return Rules{Mode: ModeAll, Ask: []string{testmodel.ToolName}} }})
	store := session.NewStore(filepath.Join(root, "sessions"), session.Options{})
	runner, err := agent.New(agent.Options{Tools: reg, Store: store, Gate: gate, DefaultModel: "ollama/" + testmodel.ChatModelName,
		Resolve: func(name string) (llm.Provider, string, error) { return prov, strings.TrimPrefix(name, "ollama/"), nil }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, c := range []struct {
		d      Decision
		ok     bool
		states string
	}{{Once, true, "requested: allowed:once"}, {Deny, false, "requested: denied:user"}} {
		w := newWatcher(gate, c.d)
		res, err := runner.Send(ctx, agent.Request{Text: "Weather in Paris?"}, w.sink)
		if err != nil {
			t.Fatal(err)
		}
		rs := w.results()
		if res.Status != event.StatusOK || res.Final != testmodel.ChatReply || len(rs) != 1 || rs[0].OK != c.ok || states(w.approvals()) != c.states {
			t.Errorf("%s: result %+v, tool results %+v, approvals %q", c.d, res, rs, states(w.approvals()))
		}
	}
	if ran != 1 {
		t.Errorf("the tool ran %d times, want 1 (allowed once, then denied)", ran)
	}
}
