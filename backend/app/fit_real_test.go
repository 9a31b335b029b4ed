//go:build unix

package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/internal/realollama"
	"hearth/backend/internal/testmodel"
)

// Small local models on the default settings (a 2048-token reply limit, an
// 8192-token window asked for, every tool, the recall block on, an
// embedding model that is not installed): the request is made to fit the
// model's own window instead of failing.
func TestRealOllamaSmallWindows(t *testing.T) {
	setXDG(t)
	host := realollama.Start(t)
	u, _ := url.Parse(host)
	client := api.NewClient(u, http.DefaultClient)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// The 2048-token model's vocabulary holds the words of what Hearth sends
	// (about four characters a token, like a trained tokenizer on English):
	// capture the first request of a fresh install on a fake server first.
	firstRequest := func() []string {
		fake, furl := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{
			{Name: "hearth-window-2k:latest", Capabilities: []string{"completion", "tools"}, ContextLength: 40960}}})
		writeConfig(t, `{"agents":{"defaults":{"model":"ollama/hearth-window-2k:latest"}}}`)
		svc := open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": furl})})
		run, err := svc.Chat.Start(ctx, agent.Request{SessionID: "capture", Text: "hello"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		run.Wait()
		_ = svc.Close(ctx)
		var texts []string
		for _, m := range fake.ChatRequests()[0].Messages {
			texts = append(texts, m.Content)
		}
		for _, tl := range fake.ChatRequests()[0].Tools {
			texts = append(texts, string(tl))
		}
		return texts
	}()
	for _, m := range []struct {
		name string
		w    testmodel.Window
	}{
		{"hearth-window-4k:latest", testmodel.Window{Name: "window-4k", ContextLength: 4096, Tool: "read_file", Args: `{"path": "notes.md"}`}},
		{"hearth-window-2k:latest", testmodel.Window{Name: "window-2k", ContextLength: 2048, Words: firstRequest}},
	} {
		gguf, err := m.w.Model()
		if err != nil {
			t.Fatal(err)
		}
		if err := testmodel.Create(ctx, client, m.name, gguf, testmodel.WindowTemplate); err != nil {
			t.Fatal(err)
		}
	}

	openModel := func(model string) *App {
		writeConfig(t, `{"agents":{"defaults":{"model":"ollama/`+model+`"}}}`)
		svc := open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": host})})
		if err := svc.Settings.ConfigError(); err != nil {
			t.Fatal(err)
		}
		return svc
	}
	send := func(svc *App, text string) (agent.Result, []event.Event) {
		var ev events
		run, err := svc.Chat.Start(ctx, agent.Request{Text: text}, ev.sink)
		if err != nil {
			t.Fatal(err)
		}
		res := run.Wait()
		ev.mu.Lock()
		defer ev.mu.Unlock()
		return res, append([]event.Event(nil), ev.evs...)
	}

	t.Run("4096 window, a token per byte: read the file and answer", func(t *testing.T) {
		svc := openModel("hearth-window-4k:latest")
		ws := svc.Settings.Paths().Workspace
		if err := os.WriteFile(filepath.Join(ws, "notes.md"), []byte("- buy bread\n- call Lena\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		// A history entry makes the recall block search before each turn.
		if err := os.WriteFile(filepath.Join(ws, "memory", "HISTORY.md"), []byte("[2026-03-01 10:00] Talked about notes.\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		res, evs := send(svc, "What is in my notes?")
		var calls, results int
		for _, e := range evs {
			switch d := e.Data.(type) {
			case event.ToolCallData:
				calls++
				if d.Name != "read_file" {
					t.Errorf("tool call %+v", d)
				}
			case event.ToolResultData:
				results++
				if !d.OK || !strings.Contains(d.Content, "call Lena") {
					t.Errorf("tool result %+v", d)
				}
			}
		}
		if res.Status != event.StatusOK || res.Final != testmodel.ChatReply || calls != 1 || results != 1 {
			t.Fatalf("result %+v (%d calls, %d results)\n%s", res, calls, results, describeEvents(evs))
		}
		// The tokenizer really is dense: the ~2 400 bytes of system prompt
		// and message cost about as many tokens.
		if u := usages(evs); len(u) == 0 || u[0].PromptTokens < 2000 || u[0].ContextLimit != 4096 {
			t.Errorf("usage %+v: want a token per byte of a ~2 400-byte prompt in a 4096 window", u)
		}
		t.Logf("usage %+v", usages(evs))
	})

	t.Run("2048 window: a plain answer, saying what was left out", func(t *testing.T) {
		svc := openModel("hearth-window-2k:latest")
		res, evs := send(svc, "What is the capital of France?")
		if res.Status != event.StatusOK || res.Final != testmodel.ChatReply {
			t.Fatalf("result %+v\n%s", res, describeEvents(evs))
		}
		// About four characters a token: the same prompt costs a quarter.
		if u := usages(evs); len(u) != 1 || u[0].PromptTokens > 1000 || u[0].ContextLimit != 2048 {
			t.Errorf("usage %+v: want about four characters a token in a 2048 window", u)
		}
		var notices []string
		for _, e := range evs {
			if n, ok := e.Data.(event.NoticeData); ok {
				notices = append(notices, n.Message)
			}
		}
		if len(notices) != 1 || !strings.Contains(strings.ToLower(notices[0]), "left out") {
			t.Fatalf("want one notice saying what was left out, got %q", notices)
		}
		t.Logf("usage %+v; notice: %s", usages(evs), notices[0])
	})
}

func usages(evs []event.Event) []event.UsageData {
	var out []event.UsageData
	for _, e := range evs {
		if u, ok := e.Data.(event.UsageData); ok {
			out = append(out, u)
		}
	}
	return out
}

func describeEvents(evs []event.Event) string {
	var b strings.Builder
	for _, e := range evs {
		js, _ := json.Marshal(e)
		b.WriteString("  ")
		b.Write(js)
		b.WriteString("\n")
	}
	return b.String()
}
