//go:build unix

package agent

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// logged is a Provider that keeps every request it is handed: the request log the
// steer is looked for in.
type logged struct {
	llm.Provider
	mu   sync.Mutex
	reqs []llm.Request
}

func (l *logged) Chat(ctx context.Context, req llm.Request, fn func(llm.Chunk)) (llm.Response, error) {
	l.mu.Lock()
	l.reqs = append(l.reqs, req)
	l.mu.Unlock()
	return l.Provider.Chat(ctx, req, fn)
}

func (l *logged) all() []llm.Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]llm.Request(nil), l.reqs...)
}

// heldWeather is the tiny model's tool, held in its first call until released: the
// run sits in a tool call for as long as the test needs.
type heldWeather struct {
	weatherTool
	ran     chan struct{}
	release chan struct{}
}

func (h heldWeather) Execute(ctx context.Context, _ tools.Args) (tools.Result, error) {
	select {
	case h.ran <- struct{}{}:
		select {
		case <-h.release:
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		}
	default: // a later call runs at once
	}
	return tools.Text("sunny, 21°C"), nil
}

// TestRealOllamaSteerDuringAToolCall: against the real server and the generated model
// (which calls its tool whenever tools are offered and the last message is not a tool
// result), a steer submitted while the tool runs is in the very next request, as the
// user's words right after the tool result.
func TestRealOllamaSteerDuringAToolCall(t *testing.T) {
	host := realollama.StartWithModels(t)
	root := isolate(t)
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: host, Retry: llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 50 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	log := &logged{Provider: prov}
	reg := tools.NewRegistry(tools.RegistryOptions{})
	held := heldWeather{ran: make(chan struct{}, 1), release: make(chan struct{})}
	if err := reg.Register(held); err != nil {
		t.Fatal(err)
	}
	store := session.NewStore(filepath.Join(root, "sessions"), session.Options{})
	r, err := New(Options{Tools: reg, Store: store, Workspace: filepath.Join(root, "ws"), DefaultModel: "ollama/" + testmodel.ChatModelName,
		Resolve: func(name string) (llm.Provider, string, error) { return log, strings.TrimPrefix(name, "ollama/"), nil }})
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder()
	run, err := r.Start(context.Background(), Request{SessionID: "s1", Text: "Weather in Paris?"}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-held.ran:
	case <-run.Done():
		t.Fatalf("the model called no tool: %+v %s", run.Wait(), describe(rec.all()))
	case <-time.After(2 * time.Minute):
		t.Fatal("the tool never ran")
	}
	const steer = "Use Celsius, please."
	p, started, err := r.Submit(context.Background(), Message{SessionID: "s1", Text: steer, Mode: ModeSteer}, rec.sink)
	close(held.release)
	if err != nil || p == nil || started != nil {
		t.Fatalf("a steer during the tool call: %+v %v %v", p, started, err)
	}
	var res Result
	select {
	case <-run.Done():
		res = run.Wait()
	case <-time.After(2 * time.Minute):
		t.Fatal("the run never ended")
	}
	if res.Status != event.StatusOK || res.Final != testmodel.ChatReply {
		t.Fatalf("result %+v %s", res, describe(rec.all()))
	}
	reqs := log.all()
	if len(reqs) < 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	n := len(msgs)
	if n < 2 || msgs[n-2].Role != llm.RoleTool || msgs[n-2].Content != "sunny, 21°C" || msgs[n-1].Role != llm.RoleUser ||
		!strings.HasPrefix(msgs[n-1].Content, steer) {
		t.Fatalf("the request after the tool call ends with %+v", msgs[max(0, n-2):])
	}
	for _, m := range reqs[0].Messages {
		if strings.Contains(m.Content, steer) {
			t.Fatal("the steer was in the request before it was sent")
		}
	}
	s, err := store.Load("s1")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range s.Messages() {
		found = found || (m.Role == llm.RoleUser && m.Content == steer)
	}
	if !found {
		t.Fatalf("the chat does not hold the steer: %+v", s.Messages())
	}
}
