package app

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// fallbackRig is an App over a fake Ollama with qwen3:4b and small:1b installed and
// the given config.json.
func fallbackRig(t *testing.T, cfg string, replies ...fakeollama.Reply) (*App, *fakeollama.Server) {
	t.Helper()
	setXDG(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel(),
		{Name: "small:1b", Capabilities: []string{"completion", "tools"}, ContextLength: 4096}}, Replies: replies})
	p := config.DefaultConfigFile()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	svc := open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err := svc.Settings.ConfigError(); err != nil {
		t.Fatal(err)
	}
	return svc, fake
}

// fallbackRun sends one message and returns its events, its result and the model its
// run line records.
func fallbackRun(t *testing.T, svc *App) (*events, agent.Result, string) {
	t.Helper()
	var ev events
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "fb", Text: "hello"}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	res := run.Wait()
	sess, err := svc.Sessions.Load("fb")
	if err != nil {
		t.Fatal(err)
	}
	model := ""
	if n := len(sess.Runs); n > 0 {
		model = sess.Runs[n-1].Model
	}
	return &ev, res, model
}

// notices are the codes of a run's notices.
func (e *events) notices() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.evs {
		if d, ok := ev.Data.(event.NoticeData); ok && d.Code != "" {
			out = append(out, d.Code)
		}
	}
	return out
}

func wantFallback(t *testing.T, ev *events, res agent.Result, model, wantModel, code, answer string) {
	t.Helper()
	if res.Status != event.StatusOK || res.Final != answer {
		t.Fatalf("run %+v, want %q", res, answer)
	}
	if model != wantModel {
		t.Errorf("run line's model %q, want %q", model, wantModel)
	}
	if n := ev.notices(); !strings.Contains(strings.Join(n, " "), code) {
		t.Errorf("notices %v, want %s", n, code)
	}
}

func TestFallbackMissingModel(t *testing.T) {
	svc, fake := fallbackRig(t, `{"agents":{"defaults":{"model":"ollama/gone:7b","fallbacks":["ollama/small:1b"]}}}`,
		fakeollama.Reply{Content: "Small here."})
	ev, res, model := fallbackRun(t, svc)
	wantFallback(t, ev, res, model, "ollama/small:1b", "notice.fallback.missing", "Small here.")
	if reqs := fake.ChatRequests(); len(reqs) != 1 || reqs[0].Model != "small:1b" {
		t.Errorf("chat requests %+v", reqs)
	}
}

func TestFallbackLoadFailure(t *testing.T) {
	svc, fake := fallbackRig(t, `{"agents":{"defaults":{"fallbacks":["ollama/small:1b"]}}}`,
		fakeollama.Reply{Status: 500, Error: "llama runner process has terminated: failed to load model"},
		fakeollama.Reply{Content: "Small here."})
	ev, res, model := fallbackRun(t, svc)
	wantFallback(t, ev, res, model, "ollama/small:1b", "notice.fallback.load", "Small here.")
	if reqs := fake.ChatRequests(); len(reqs) != 2 || reqs[0].Model != "qwen3:4b" || reqs[1].Model != "small:1b" {
		t.Errorf("chat requests %+v", reqs)
	}
}

// A model that says nothing within firstTokenSeconds is cut off and the next answers.
func TestFallbackFirstTokenTimeout(t *testing.T) {
	svc, _ := fallbackRig(t, `{"agents":{"defaults":{"fallbacks":["ollama/small:1b"],"firstTokenSeconds":1}}}`,
		fakeollama.Reply{Hang: true}, fakeollama.Reply{Content: "Small here."})
	ev, res, model := fallbackRun(t, svc)
	wantFallback(t, ev, res, model, "ollama/small:1b", "notice.fallback.timeout", "Small here.")
}

// After the first token, a failing model is never swapped: the user already saw it.
func TestFallbackNeverAfterFirstToken(t *testing.T) {
	svc, fake := fallbackRig(t, `{"agents":{"defaults":{"fallbacks":["ollama/small:1b"]}}}`,
		fakeollama.Reply{Content: "Half an", Error: "llama runner crashed"}, fakeollama.Reply{Content: "Small here."})
	ev, res, model := fallbackRun(t, svc)
	if res.Status != event.StatusError || model != "ollama/qwen3:4b" || len(fake.ChatRequests()) != 1 {
		t.Errorf("run %+v model %q requests %d", res, model, len(fake.ChatRequests()))
	}
	if n := ev.notices(); strings.Contains(strings.Join(n, " "), "notice.fallback") {
		t.Errorf("notices %v", n)
	}
}

// closedPort is a loopback address nobody listens at.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// A cloud model that cannot be reached hands over only when the user opted in.
func TestFallbackCloudDown(t *testing.T) {
	cfg := `{"agents":{"defaults":{"model":"custom.cloud/big","fallbacks":["ollama/small:1b"],"fallbackOnCloudDown":%v}},
	  "providers":{"custom":{"cloud":{"apiBase":"http://` + closedPort(t) + `/v1"}}}}`
	svc, fake := fallbackRig(t, strings.Replace(cfg, "%v", "true", 1), fakeollama.Reply{Content: "Small here."})
	ev, res, model := fallbackRun(t, svc)
	wantFallback(t, ev, res, model, "ollama/small:1b", "notice.fallback.unreachable", "Small here.")
	if reqs := fake.ChatRequests(); len(reqs) != 1 {
		t.Errorf("chat requests %+v", reqs)
	}
}

func TestFallbackCloudDownNeedsOptIn(t *testing.T) {
	cfg := `{"agents":{"defaults":{"model":"custom.cloud/big","fallbacks":["ollama/small:1b"]}},
	  "providers":{"custom":{"cloud":{"apiBase":"http://` + closedPort(t) + `/v1"}}}}`
	svc, fake := fallbackRig(t, cfg, fakeollama.Reply{Content: "Small here."})
	_, res, _ := fallbackRun(t, svc)
	if res.Status != event.StatusError || !llm.IsKind(res.Err, llm.KindUnreachable) || len(fake.ChatRequests()) != 0 {
		t.Errorf("run %+v, requests %d", res, len(fake.ChatRequests()))
	}
}

// In local-only mode no fallback reaches a cloud provider: it is skipped before
// anything is dialled (the egress log has no attempt), and the notice says so.
func TestFallbackLocalOnlySkipsCloud(t *testing.T) {
	var cloudHits atomic.Int32
	cloud := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cloudHits.Add(1)
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	t.Cleanup(cloud.Close)
	// The cloud is named by a host that is not this machine (local-only mode allows
	// loopback servers: a llama.cpp server here is not a cloud).
	cfg := `{"localOnly": true, "agents":{"defaults":{"model":"ollama/gone:7b",
	    "fallbacks":["openai/gpt-test","custom.cloud/big","ollama/small:1b"]}},
	  "providers":{"openai":{"apiBase":"https://api.cloud.invalid/v1","apiKey":"sk-fallback-test-0000000"},
	    "custom":{"cloud":{"apiBase":"http://cloud.invalid:` + cloud.URL[strings.LastIndex(cloud.URL, ":")+1:] + `/v1"}}}}`
	svc, _ := fallbackRig(t, cfg, fakeollama.Reply{Content: "Small here."})
	ev, res, model := fallbackRun(t, svc)
	wantFallback(t, ev, res, model, "ollama/small:1b", "notice.fallback.missing", "Small here.")
	if n := strings.Join(ev.notices(), " "); strings.Count(n, "notice.fallback.skipped") != 2 {
		t.Errorf("notices %s, want two skipped", n)
	}
	for _, e := range svc.Egress.Recent(0) {
		if strings.Contains(e.Host, "cloud.invalid") {
			t.Errorf("egress log has %+v", e)
		}
	}
	if cloudHits.Load() != 0 {
		t.Errorf("the cloud got %d requests", cloudHits.Load())
	}
}

// A cloud model refused by local-only mode hands over to a local one (opt-in).
func TestFallbackLocalOnlyCloudModel(t *testing.T) {
	cfg := `{"localOnly": true, "agents":{"defaults":{"model":"openai/gpt-test","fallbacks":["ollama/small:1b"],
	    "fallbackOnCloudDown":true}},
	  "providers":{"openai":{"apiBase":"https://api.cloud.invalid/v1","apiKey":"sk-fallback-test-0000000"}}}`
	svc, _ := fallbackRig(t, cfg, fakeollama.Reply{Content: "Small here."})
	ev, res, model := fallbackRun(t, svc)
	wantFallback(t, ev, res, model, "ollama/small:1b", "notice.fallback.localOnly", "Small here.")
}

// Stop is never a failure: the run ends cancelled, no fallback answers.
func TestFallbackNotOnStop(t *testing.T) {
	svc, fake := fallbackRig(t, `{"agents":{"defaults":{"fallbacks":["ollama/small:1b"]}}}`,
		fakeollama.Reply{Hang: true}, fakeollama.Reply{Content: "Small here."})
	var ev events
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "fb", Text: "hello"}, ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	for len(fake.ChatRequests()) == 0 {
		time.Sleep(5 * time.Millisecond) // the request is on its way
	}
	svc.Chat.Stop("fb")
	if res := run.Wait(); res.Status != event.StatusCancelled || len(fake.ChatRequests()) != 1 {
		t.Errorf("run %+v, requests %d", res, len(fake.ChatRequests()))
	}
}
