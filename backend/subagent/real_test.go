//go:build unix

package subagent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"hearth/backend/event"
	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

type weather struct{ calls chan string }

func (weather) Name() string        { return testmodel.ToolName }
func (weather) Description() string { return "Weather for a city" }
func (weather) Parameters() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"city": {Type: "string"}}}
}
func (weather) ReadOnly() bool  { return true }
func (weather) Exclusive() bool { return false }
func (w weather) Execute(_ context.Context, a tools.Args) (tools.Result, error) {
	w.calls <- a.String("city")
	return tools.Text("sunny"), nil
}

// TestRealOllamaSubagent runs subagents on the real server with the tiny
// model: the helper calls its tool and answers, and the answer is delivered
// into the parent session; the cap holds; a cancel ends a helper as stopped.
func TestRealOllamaSubagent(t *testing.T) {
	host := realollama.StartWithModels(t)
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: host, Retry: llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, func(name string) (llm.Provider, string, error) {
		return prov, strings.TrimPrefix(name, "ollama/"), nil
	}, "ollama/"+testmodel.ChatModelName)
	w := weather{calls: make(chan string, 8)}
	if err := e.subReg.Register(w); err != nil {
		t.Fatal(err)
	}
	if _, err := e.parents.Create(session.CreateOptions{ID: "chat"}); err != nil {
		t.Fatal(err)
	}

	if _, err := e.mgr.Spawn("chat", "What is the weather in Paris?", "weather"); err != nil {
		t.Fatal(err)
	}
	rep := e.wait(t)
	if rep.Status != event.StatusOK || rep.Result != testmodel.ChatReply {
		t.Fatalf("report %+v", rep)
	}
	select {
	case city := <-w.calls:
		if city != "Paris" {
			t.Errorf("tool called with %q", city)
		}
	default:
		t.Error("the subagent never called its tool")
	}
	sess, _ := e.parents.Load("chat")
	if last := sess.Entries[len(sess.Entries)-1]; last.Content != "Background task \"weather\" finished:\n\n"+testmodel.ChatReply {
		t.Errorf("parent's last message %q", last.Content)
	}

	// Cap: three start, the fourth is refused; then cancel them all.
	for _, l := range []string{"a", "b", "c"} {
		if _, err := e.mgr.Spawn("chat", "weather in Paris", l); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.mgr.Spawn("chat", "one more", "d"); err == nil || !strings.Contains(err.Error(), "3 are running already") {
		t.Fatalf("fourth spawn: %v", err)
	}
	e.mgr.Cancel("chat")
	for range 3 {
		rep := e.wait(t)
		if rep.Status != event.StatusCancelled {
			t.Errorf("report %+v", rep)
		}
	}
	for deadline := time.Now().Add(20 * time.Second); len(e.mgr.Running()) > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d still running", len(e.mgr.Running()))
		}
	}
}
