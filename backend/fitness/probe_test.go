package fitness_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"hearth/backend/fitness"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

var (
	weatherCall = fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}},
		EvalCount: 12, EvalDurationMS: 400}
	four     = fakeollama.Reply{Content: "4", EvalCount: 2, EvalDurationMS: 100}
	sunny    = fakeollama.Reply{Content: "It is 18 °C and sunny in Paris.", EvalCount: 16, EvalDurationMS: 500}
	noWay    = fakeollama.Reply{Content: "I cannot check the weather, sorry.", EvalCount: 9, EvalDurationMS: 300}
	empty    = fakeollama.Reply{Chunks: []string{""}}
	parseErr = fakeollama.Reply{Error: "error parsing tool call: invalid character"}
	asText   = fakeollama.Reply{Content: `{"name": "get_weather", "arguments": {"city": "Paris"}}`, EvalCount: 12, EvalDurationMS: 400}
)

// toolModel is a 4096-token chat model with tool support.
func toolModel() fakeollama.Model {
	m := fakeollama.DefaultModel()
	m.ContextLength = 4096
	return m
}

func provider(t *testing.T, m fakeollama.Model, replies ...fakeollama.Reply) (*llm.Ollama, *fakeollama.Server) {
	t.Helper()
	srv, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{m, fakeollama.EmbedModel()}, Replies: replies})
	o, err := llm.NewOllama(llm.OllamaConfig{Host: url, Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return o, srv
}

func check(t *testing.T, p llm.Provider, model string) fitness.Result {
	t.Helper()
	r, err := fitness.Check(context.Background(), p, model, fitness.Options{})
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	t.Logf("%+v", r)
	return r
}

// Each probe's judgement, from scripted replies of a model with tool support.
func TestProbeJudgements(t *testing.T) {
	for _, tt := range []struct {
		name      string
		replies   []fakeollama.Reply
		calls     fitness.CallStyle
		restraint bool
		stops     bool
		verdict   fitness.Verdict
		caveats   []fitness.Caveat
		requests  int
	}{
		{"calls, refrains, stops", []fakeollama.Reply{weatherCall, four, sunny}, fitness.CallsStructured, true, true, fitness.VerdictGood, nil, 3},
		{"prints its call", []fakeollama.Reply{asText, four, sunny}, fitness.CallsText, true, true, fitness.VerdictTextFallback, nil, 3},
		{"never calls", []fakeollama.Reply{noWay}, fitness.CallsNone, true, true, fitness.VerdictChatOnly, nil, 2},
		{"calls for 2 + 2", []fakeollama.Reply{weatherCall, weatherCall, sunny}, fitness.CallsStructured, false, true, fitness.VerdictGood,
			[]fitness.Caveat{fitness.CaveatEager}, 3},
		{"calls again after the result", []fakeollama.Reply{weatherCall, four, weatherCall}, fitness.CallsStructured, true, false, fitness.VerdictGood,
			[]fitness.Caveat{fitness.CaveatRepeats}, 3},
		{"asks for another city", []fakeollama.Reply{{ToolCalls: []fakeollama.ToolCall{{Name: "get_weather", Arguments: json.RawMessage(`{"city":"London"}`)}}}, four, sunny},
			fitness.CallsStructured, true, true, fitness.VerdictGood, []fitness.Caveat{fitness.CaveatBadArgs}, 3},
		{"calls a tool it was not offered", []fakeollama.Reply{{ToolCalls: []fakeollama.ToolCall{{Name: "search_web", Arguments: json.RawMessage(`{"q":"Paris weather"}`)}}}},
			fitness.CallsNone, true, true, fitness.VerdictChatOnly, nil, 2},
		// Failed and empty replies, twice (the provider retries each once): the check
		// cannot tell, and tools stay on.
		{"writes a call the server cannot parse", []fakeollama.Reply{parseErr, parseErr, parseErr, parseErr},
			fitness.CallsUnknown, true, true, fitness.VerdictCheckFailed, nil, 5},
		{"answers nothing", []fakeollama.Reply{empty, empty, empty, empty},
			fitness.CallsUnknown, true, true, fitness.VerdictCheckFailed, nil, 5},
		{"chokes on its call for 2 + 2", []fakeollama.Reply{asText, {Error: "error parsing tool call"}, {Error: "error parsing tool call"}, sunny},
			fitness.CallsText, false, true, fitness.VerdictTextFallback, []fitness.Caveat{fitness.CaveatEager}, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, srv := provider(t, fakeollama.DefaultModel(), tt.replies...)
			r := check(t, p, "qwen3:4b")
			if r.ToolCalls != tt.calls || r.Restraint != tt.restraint || r.StopsAfterResult != tt.stops || r.Verdict != tt.verdict {
				t.Errorf("got calls %s restraint %v stops %v verdict %s; want %s %v %v %s", r.ToolCalls, r.Restraint, r.StopsAfterResult, r.Verdict,
					tt.calls, tt.restraint, tt.stops, tt.verdict)
			}
			if strings.Join(caveatStrings(r.Caveats), ",") != strings.Join(caveatStrings(tt.caveats), ",") {
				t.Errorf("caveats %v, want %v", r.Caveats, tt.caveats)
			}
			if n := len(srv.ChatRequests()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			if len(r.Notes) == 0 || r.Advice == "" || r.Version != fitness.Version || r.CheckedAt.IsZero() {
				t.Errorf("notes %q advice %q version %d checkedAt %v", r.Notes, r.Advice, r.Version, r.CheckedAt)
			}
		})
	}
}

func caveatStrings(cs []fitness.Caveat) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

// What the probes send: one made-up tool, temperature 0, no thinking, a small reply
// limit; the restraint probe asks a plain question and the last one hands back a result.
func TestProbesAreShortAndDeterministic(t *testing.T) {
	p, srv := provider(t, toolModel(), weatherCall, four, sunny)
	check(t, p, "qwen3:4b")
	reqs := srv.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, rq := range reqs {
		var tool struct {
			Function struct{ Name string } `json:"function"`
		}
		if len(rq.Tools) != 1 || json.Unmarshal(rq.Tools[0], &tool) != nil || tool.Function.Name != fitness.ToolName {
			t.Errorf("request %d tools %s", i, rq.Tools)
		}
		if rq.Options["temperature"] != 0.0 || rq.Options["num_predict"].(float64) > 200 || string(rq.Think) != "false" {
			t.Errorf("request %d options %v think %s", i, rq.Options, rq.Think)
		}
	}
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; last.Content != fitness.PlainPrompt {
		t.Errorf("restraint probe asks %q", last.Content)
	}
	last := reqs[2].Messages
	if n := len(last); n != 4 || last[n-1].Role != "tool" || last[n-1].Content != fitness.ToolResult || len(last[n-2].ToolCalls) == 0 {
		t.Errorf("result probe messages %+v", last)
	}
}

// A model that thinks although asked not to (gpt-oss has no "off") and runs out
// of reply tokens mid-thought gets the probe again with room to finish.
func TestModelThatThinksAnyway(t *testing.T) {
	thinking := fakeollama.Reply{Thinking: "The user asks about the weather in Paris. I should call the tool.", DoneReason: "length"}
	p, srv := provider(t, fakeollama.DefaultModel(), thinking, weatherCall, four, sunny)
	r := check(t, p, "qwen3:4b")
	if r.ToolCalls != fitness.CallsStructured || r.Verdict != fitness.VerdictGood {
		t.Errorf("%+v", r)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 4 || reqs[0].Options["num_predict"] != 160.0 || reqs[1].Options["num_predict"] != 1024.0 {
		t.Errorf("%d requests; reply limits %v then %v", len(reqs), reqs[0].Options["num_predict"], reqs[1].Options["num_predict"])
	}
}

// The model's own numbers: its context maximum and digest from /api/show and
// /api/tags, its speed from the reported eval counts and durations.
func TestContextMaxDigestAndSpeed(t *testing.T) {
	m := toolModel()
	m.Digest = "sha256:abc"
	p, _ := provider(t, m, weatherCall, four, sunny)
	r := check(t, p, "qwen3:4b")
	if r.ContextMax != 4096 || r.Digest != "sha256:abc" {
		t.Errorf("contextMax %d digest %q", r.ContextMax, r.Digest)
	}
	// (12 + 2 + 16) tokens in (400 + 100 + 500) ms.
	if r.TokensPerSecond != 30 {
		t.Errorf("tokens/s %v, want 30", r.TokensPerSecond)
	}
	if !r.Has(fitness.CaveatSmallWindow) || !strings.Contains(r.Advice, "4096 tokens") {
		t.Errorf("a 4096-token model without the small-window caveat: %v %q", r.Caveats, r.Advice)
	}
}

func TestSlowModelCaveat(t *testing.T) {
	slow := func(r fakeollama.Reply) fakeollama.Reply { r.EvalDurationMS *= 20; return r }
	p, _ := provider(t, fakeollama.DefaultModel(), slow(weatherCall), slow(four), slow(sunny))
	r := check(t, p, "qwen3:4b")
	if r.TokensPerSecond != 1.5 || !r.Has(fitness.CaveatSlow) || !strings.Contains(r.Advice, "slow on this machine (1.5 tokens/s)") {
		t.Errorf("tokens/s %v caveats %v advice %q", r.TokensPerSecond, r.Caveats, r.Advice)
	}
}

// A model whose template has no tools: the server gets no tool schemas, the check
// stops after one request and says why.
func TestModelWithoutToolSupport(t *testing.T) {
	plain := fakeollama.Model{Name: "gemma:2b", Family: "gemma", ContextLength: 8192, Capabilities: []string{"completion"}}
	p, srv := provider(t, plain, noWay)
	r := check(t, p, "gemma:2b")
	if r.ToolCalls != fitness.CallsNone || r.Verdict != fitness.VerdictChatOnly || !strings.Contains(r.Advice, "chat only") {
		t.Errorf("%+v", r)
	}
	if reqs := srv.ChatRequests(); len(reqs) != 1 || len(reqs[0].Tools) != 0 {
		t.Errorf("requests %+v", reqs)
	}
	if !strings.Contains(strings.Join(r.Notes, " "), "no tool support") {
		t.Errorf("notes %q", r.Notes)
	}
}

// Failures that say nothing about the model end the check with a hint.
func TestCheckErrorsHaveHints(t *testing.T) {
	t.Run("Ollama down", func(t *testing.T) {
		o, err := llm.NewOllama(llm.OllamaConfig{Host: "127.0.0.1:9", Retry: llm.RetryPolicy{MaxAttempts: 1}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = fitness.Check(context.Background(), o, "qwen3:4b", fitness.Options{})
		if le, ok := llm.AsError(err); !ok || le.Kind != llm.KindUnreachable || !strings.Contains(le.Hint, "ollama serve") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("model missing", func(t *testing.T) {
		p, _ := provider(t, toolModel())
		_, err := fitness.Check(context.Background(), p, "llama9:70b", fitness.Options{})
		if le, ok := llm.AsError(err); !ok || le.Kind != llm.KindModelNotFound || !strings.Contains(le.Hint, "hearth models pull llama9:70b") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("Ollama fails", func(t *testing.T) {
		p, _ := provider(t, toolModel(), fakeollama.Reply{Status: 500, Error: "llama runner process has terminated"})
		_, err := fitness.Check(context.Background(), p, "qwen3:4b", fitness.Options{})
		if le, ok := llm.AsError(err); !ok || le.ModelFault() || !strings.Contains(le.Hint, "server log") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("embedding model", func(t *testing.T) {
		p, srv := provider(t, toolModel())
		_, err := fitness.Check(context.Background(), p, "nomic-embed-text:latest", fitness.Options{})
		if le, ok := llm.AsError(err); !ok || !strings.Contains(le.Message, "embedding model") || le.Hint == "" {
			t.Errorf("err %v", err)
		}
		if len(srv.ChatRequests()) != 0 {
			t.Error("an embedding model was sent a chat")
		}
	})
	t.Run("a probe times out", func(t *testing.T) {
		p, _ := provider(t, toolModel(), weatherCall, fakeollama.Reply{Hang: true})
		start := time.Now()
		_, err := fitness.Check(context.Background(), p, "qwen3:4b", fitness.Options{ProbeTimeout: 300 * time.Millisecond})
		le, ok := llm.AsError(err)
		if !ok || !strings.Contains(le.Message, "did not finish the restraint probe within") || !strings.Contains(le.Hint, "smaller model") {
			t.Errorf("err %v", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %v", d)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		p, _ := provider(t, toolModel(), fakeollama.Reply{Hang: true})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		if _, err := fitness.Check(ctx, p, "qwen3:4b", fitness.Options{}); err == nil || ctx.Err() == nil {
			t.Errorf("err %v", err)
		}
	})
}

// With fitness.HTTPClientOver the requests carry fitness.Header, and the scripted
// server answers them as a model of the declared tool style would, leaving its
// reply queue alone: the same judgements end to end.
func TestMarkedRequestsAndTheFakeModelStyles(t *testing.T) {
	if fitness.Header != fakeollama.CheckHeader {
		t.Fatalf("fakeollama.CheckHeader %q differs from fitness.Header %q", fakeollama.CheckHeader, fitness.Header)
	}
	for style, want := range map[string]fitness.Verdict{
		"": fitness.VerdictGood, "text": fitness.VerdictTextFallback, "none": fitness.VerdictChatOnly, "eager": fitness.VerdictGood, "reads": fitness.VerdictGood,
	} {
		m := fakeollama.DefaultModel()
		m.ToolStyle = style
		srv, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{m}, Replies: []fakeollama.Reply{{Content: "scripted for a chat"}}})
		o, err := llm.NewOllama(llm.OllamaConfig{Host: url, HTTPClient: fitness.HTTPClientOver(http.DefaultTransport)})
		if err != nil {
			t.Fatal(err)
		}
		r := check(t, o, m.Name)
		if r.Verdict != want || r.Restraint != (style != "eager") || r.TokensPerSecond != 25 {
			t.Errorf("style %q: verdict %s restraint %v tokens/s %v", style, r.Verdict, r.Restraint, r.TokensPerSecond)
		}
		if len(srv.ChatRequests()) != 0 || len(srv.ProbeRequests()) == 0 {
			t.Errorf("style %q: %d chats, %d probes", style, len(srv.ChatRequests()), len(srv.ProbeRequests()))
		}
	}
}
