package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
)

// maxFirstRequestTokens is a standing target for every change: the first
// request for "hello" on a fresh install, with every tool, stays at or below
// 2 000 tokens (chars/4), so it fits a small local model's window with room
// to spare.
const maxFirstRequestTokens = 2000

// firstRequest sends "hello" on a fresh install with config cfgJSON ("" for
// the defaults) and measures the request Ollama receives: chars/4 over the
// message contents and the tool definitions' JSON.
func firstRequest(tb testing.TB, cfgJSON string) (tokens int, tools []string) {
	tb.Helper()
	svc, fake := chatService(tb, cfgJSON, fakeollama.Reply{Content: "Hello!"})
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "size", Text: "hello"}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		tb.Fatalf("run: %+v", res)
	}
	reqs := fake.ChatRequests()
	if len(reqs) == 0 {
		tb.Fatal("no chat request reached the fake Ollama")
	}
	req := reqs[0]
	var msgChars, toolChars int
	for _, m := range req.Messages {
		msgChars += len([]rune(m.Content))
	}
	for _, tl := range req.Tools {
		toolChars += len([]rune(string(tl)))
		tools = append(tools, toolName(tb, tl))
	}
	return (msgChars + toolChars) / 4, tools
}

// offlineConfig turns the web off (tools.web.offline).
const offlineConfig = `{"tools":{"web":{"offline":true}}}`

// TestFirstRequestSize measures the first request on the wire — the default
// workspace files and every tool the default config offers — against the
// target, and with the web off: then web_search and web_fetch are not sent.
func TestFirstRequestSize(t *testing.T) {
	for _, tc := range []struct{ name, cfg string }{{"every tool", ""}, {"web offline", offlineConfig}} {
		t.Run(tc.name, func(t *testing.T) {
			tokens, tools := firstRequest(t, tc.cfg)
			t.Logf("first request %d tokens (chars/4), %d tools: %s", tokens, len(tools), strings.Join(tools, " "))
			if len(tools) == 0 {
				t.Fatal("the first request offered no tools; the measure would be meaningless")
			}
			if tokens > maxFirstRequestTokens {
				t.Fatalf("first request for \"hello\" is %d tokens, over the target of %d", tokens, maxFirstRequestTokens)
			}
			web := strings.Contains(" "+strings.Join(tools, " ")+" ", " web_")
			if web == (tc.cfg == offlineConfig) {
				t.Errorf("web tools sent: %v, with the web offline: %v", web, tc.cfg == offlineConfig)
			}
		})
	}
}

// BenchmarkFirstRequestSize reports the size of the first "hello" request
// (tokens/first-request, chars/4) with every tool and with the web offline.
// Target: at most 2 000 with every tool.
func BenchmarkFirstRequestSize(b *testing.B) {
	for _, tc := range []struct{ name, cfg string }{{"every-tool", ""}, {"web-offline", offlineConfig}} {
		b.Run(tc.name, func(b *testing.B) {
			tokens, tools := 0, []string(nil)
			for b.Loop() {
				tokens, tools = firstRequest(b, tc.cfg)
			}
			b.ReportMetric(float64(tokens), "tokens/first-request")
			b.ReportMetric(float64(len(tools)), "tools")
		})
	}
}

// toolName is the name of a tool definition as Ollama receives it.
func toolName(tb testing.TB, raw json.RawMessage) string {
	tb.Helper()
	var w struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		tb.Fatal(err)
	}
	return w.Function.Name
}

// Every built-in tool has a short form of its description for small
// windows, and it is shorter than the long one.
func TestEveryBuiltinToolHasAShortForm(t *testing.T) {
	svc, _ := chatService(t, "")
	defs := svc.Chat.Registries()[0].Definitions()
	if len(defs) < 14 {
		t.Fatalf("%d tools", len(defs))
	}
	for _, d := range defs {
		if d.Short == "" || len(d.Short) >= len(d.Description) && len(d.Description) > 40 || len(d.Short) > 60 {
			t.Errorf("%s: short form %q for %q", d.Name, d.Short, d.Description)
		}
	}
}
