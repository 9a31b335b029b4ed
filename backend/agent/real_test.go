//go:build unix

package agent

import (
	"context"
	"os"
	"path/filepath"
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

// weatherTool is the tool the tiny model calls; it reads the answer from a
// file in the workspace, so the test sees the tool really ran there.
type weatherTool struct{ ws string }

func (w weatherTool) Name() string        { return testmodel.ToolName }
func (w weatherTool) Description() string { return "Current weather for a city" }
func (w weatherTool) Parameters() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Required: []string{"city"},
		Properties: map[string]*jsonschema.Schema{"city": {Type: "string"}}}
}
func (w weatherTool) ReadOnly() bool  { return true }
func (w weatherTool) Exclusive() bool { return false }
func (w weatherTool) Execute(_ context.Context, a tools.Args) (tools.Result, error) {
	b, err := os.ReadFile(filepath.Join(w.ws, "weather", a.String("city")+".txt"))
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Text(string(b)), nil
}

// TestRealOllama drives the Runner against the real server and the tiny
// bigram model: a plain answer, then a tool call that runs in the workspace
// followed by the answer.
func TestRealOllama(t *testing.T) {
	host := realollama.StartWithModels(t)
	root := isolate(t)
	ws := filepath.Join(root, "ws")
	writeFile(t, filepath.Join(ws, "weather", "Paris.txt"), "sunny, 21°C")
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: host, Retry: llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	store := session.NewStore(filepath.Join(root, "sessions"), session.Options{})
	newRunner := func(reg *tools.Registry) *Runner {
		// A window larger than the model's own: the usage must report the cap.
		r, err := New(Options{Tools: reg, Store: store, Workspace: ws, DefaultModel: "ollama/" + testmodel.ChatModelName,
			ContextTokens: 2 * testmodel.ContextLength,
			Resolve:       func(name string) (llm.Provider, string, error) { return prov, strings.TrimPrefix(name, "ollama/"), nil }})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	t.Run("plain answer", func(t *testing.T) {
		rec := newRecorder()
		res, err := newRunner(tools.NewRegistry(tools.RegistryOptions{})).Send(ctx, Request{Text: "Say hello"}, rec.sink)
		if err != nil {
			t.Fatal(err)
		}
		evs := rec.all()
		checkEvents(t, evs)
		if res.Status != event.StatusOK || res.Final != testmodel.ChatReply || text(evs) != testmodel.ChatReply {
			t.Fatalf("result %+v %s", res, describe(evs))
		}
		u := ofType[event.UsageData](evs)
		if len(u) != 1 || u[0].PromptTokens <= 0 || u[0].ContextLimit != testmodel.ContextLength {
			t.Errorf("usage %+v (limit must be the model's own %d)", u, testmodel.ContextLength)
		}
	})

	t.Run("tool call runs in the workspace", func(t *testing.T) {
		reg := tools.NewRegistry(tools.RegistryOptions{})
		if err := reg.Register(weatherTool{ws: ws}); err != nil {
			t.Fatal(err)
		}
		rec := newRecorder()
		res, err := newRunner(reg).Send(ctx, Request{Text: "Weather in Paris?"}, rec.sink)
		if err != nil {
			t.Fatal(err)
		}
		evs := rec.all()
		checkEvents(t, evs)
		calls, results := ofType[event.ToolCallData](evs), ofType[event.ToolResultData](evs)
		if len(calls) != 1 || calls[0].Name != testmodel.ToolName || !strings.Contains(string(calls[0].Args), "Paris") {
			t.Fatalf("tool calls %+v", calls)
		}
		if len(results) != 1 || !results[0].OK || results[0].Content != "sunny, 21°C" {
			t.Fatalf("tool results %+v", results)
		}
		if res.Status != event.StatusOK || res.Final != testmodel.ChatReply {
			t.Fatalf("result %+v", res)
		}
		sess, _ := store.Load(res.SessionID)
		if len(sess.Entries) != 4 || sess.Entries[2].Content != "sunny, 21°C" || len(sess.Runs) != 1 {
			t.Errorf("session %+v", sess.Entries)
		}
	})
}
