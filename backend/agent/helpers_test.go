package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"
	"github.com/google/jsonschema-go/jsonschema"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// isolate points every XDG directory into the test's temp dir.
func isolate(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	t.Cleanup(xdg.Reload) // before the variables are set: it runs after t.Setenv puts them back
	for _, v := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"} {
		t.Setenv(v, filepath.Join(root, strings.ToLower(v)))
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	xdg.Reload()
	return root
}

// harness is a real Runner against a fake Ollama, with the built-in tools on
// a temp workspace and a temp session store.
type harness struct {
	t      testing.TB
	fake   *fakeollama.Server
	url    string
	ws     string
	store  *session.Store
	reg    *tools.Registry
	runner *Runner
}

type harnessOpt func(*Options)

func newHarness(t testing.TB, script fakeollama.Script, mods ...harnessOpt) *harness {
	t.Helper()
	root := isolate(t)
	if len(script.Models) == 0 {
		script.Models = []fakeollama.Model{fakeollama.DefaultModel()}
	}
	fake, url := fakeollama.Start(t, script)
	h := &harness{t: t, fake: fake, url: url, ws: filepath.Join(root, "workspace")}
	h.store = session.NewStore(filepath.Join(root, "sessions"), session.Options{})
	h.reg = tools.NewRegistry(tools.RegistryOptions{})
	if err := h.reg.Register(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: h.ws}})...); err != nil {
		t.Fatal(err)
	}
	mustMkdir(t, h.ws)
	prov, err := llm.NewOllama(llm.OllamaConfig{Host: url, Retry: llm.RetryPolicy{MaxAttempts: 2, BaseDelay: 10 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{
		Resolve: func(name string) (llm.Provider, string, error) {
			p, m, ok := strings.Cut(name, "/")
			if !ok || p != "ollama" {
				return nil, "", fmt.Errorf("unknown provider in %q", name)
			}
			return prov, m, nil
		},
		Tools: h.reg, Store: h.store, DefaultModel: "ollama/qwen3:4b", Workspace: h.ws, Channel: "test",
	}
	for _, m := range mods {
		m(&opts)
	}
	h.runner, err = New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// recorder collects a run's events.
type recorder struct {
	mu     sync.Mutex
	events []event.Event
	seen   chan event.Type // every event type, for tests that wait for one
}

func newRecorder() *recorder { return &recorder{seen: make(chan event.Type, 1024)} }

func (r *recorder) sink(e event.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	select {
	case r.seen <- e.Type:
	default:
	}
}

func (r *recorder) all() []event.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]event.Event(nil), r.events...)
}

// waitText blocks until the text deltas so far read want.
func (r *recorder) waitText(t testing.TB, want string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var got strings.Builder
		for _, e := range r.all() {
			if d, ok := e.Data.(event.DeltaData); ok && e.Type == event.TextDelta {
				got.WriteString(d.Text)
			}
		}
		if got.String() == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the text streamed is %q, not %q", got.String(), want)
		}
	}
}

// waitFor blocks until an event of type t arrives.
func (r *recorder) waitFor(t testing.TB, typ event.Type, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case got := <-r.seen:
			if got == typ {
				return
			}
		case <-deadline:
			t.Fatalf("no %s event within %v; got %s", typ, within, describe(r.all()))
		}
	}
}

// send runs one turn to the end and checks its event stream.
func (h *harness) send(sessionID, text string) (Result, []event.Event) {
	h.t.Helper()
	rec := newRecorder()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := h.runner.Send(ctx, Request{SessionID: sessionID, Text: text}, rec.sink)
	if err != nil {
		h.t.Fatalf("send %q: %v", text, err)
	}
	evs := rec.all()
	checkEvents(h.t, evs)
	return res, evs
}

// checkEvents is the shared check of every run's stream (docs/design/events.md#one-stream-per-run):
// run_started first, exactly one run_finished last, seq 1, 2, 3, … on one
// run and session, and every event survives a JSON round trip with its
// camelCase envelope.
func checkEvents(t testing.TB, evs []event.Event) {
	t.Helper()
	if len(evs) < 2 {
		t.Fatalf("a run emitted %d events: %s", len(evs), describe(evs))
	}
	if evs[0].Type != event.RunStarted {
		t.Errorf("first event is %s, want run_started", evs[0].Type)
	}
	finished := 0
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Errorf("event %d (%s) has seq %d: not strictly increasing from 1", i, e.Type, e.Seq)
		}
		if e.RunID != evs[0].RunID || e.SessionID != evs[0].SessionID {
			t.Errorf("event %d belongs to run %s/%s, the run is %s/%s", i, e.RunID, e.SessionID, evs[0].RunID, evs[0].SessionID)
		}
		if e.Type == event.RunFinished {
			finished++
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("marshal %s: %v", e.Type, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("event JSON %s: %v", b, err)
		}
		for _, k := range []string{"runId", "sessionId", "seq", "type"} {
			if _, ok := m[k]; !ok {
				t.Errorf("event JSON %s lacks %q", b, k)
			}
		}
		// Every field of the payload is in the flat object, unchanged.
		pb, _ := json.Marshal(e.Data)
		var pm map[string]any
		_ = json.Unmarshal(pb, &pm)
		for k, v := range pm {
			if !reflect.DeepEqual(m[k], v) {
				t.Errorf("event %s: payload field %s is %v, want %v", b, k, m[k], v)
			}
		}
	}
	if finished != 1 || evs[len(evs)-1].Type != event.RunFinished {
		t.Errorf("want exactly one run_finished, last: %d of them, last is %s", finished, evs[len(evs)-1].Type)
	}
}

func describe(evs []event.Event) string {
	var b strings.Builder
	for _, e := range evs {
		js, _ := json.Marshal(e)
		b.WriteString("\n  ")
		b.Write(js)
	}
	return b.String()
}

func ofType[T any](evs []event.Event) []T {
	var out []T
	for _, e := range evs {
		if d, ok := e.Data.(T); ok {
			out = append(out, d)
		}
	}
	return out
}

func finished(evs []event.Event) event.FinishedData {
	return evs[len(evs)-1].Data.(event.FinishedData)
}

func text(evs []event.Event) string {
	var b strings.Builder
	for _, e := range evs {
		if e.Type == event.TextDelta {
			b.WriteString(e.Data.(event.DeltaData).Text)
		}
	}
	return b.String()
}

func call(name, args string) fakeollama.ToolCall {
	return fakeollama.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

// testTool is a registry tool with behaviour given by a function.
type testTool struct {
	name      string
	readOnly  bool
	exclusive bool
	run       func(ctx context.Context, args tools.Args) (tools.Result, error)
}

func (t *testTool) Name() string        { return t.name }
func (t *testTool) Description() string { return "test tool " + t.name }
func (t *testTool) Parameters() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"n": {Type: "integer"}}}
}
func (t *testTool) ReadOnly() bool  { return t.readOnly }
func (t *testTool) Exclusive() bool { return t.exclusive }
func (t *testTool) Execute(ctx context.Context, args tools.Args) (tools.Result, error) {
	return t.run(ctx, args)
}
