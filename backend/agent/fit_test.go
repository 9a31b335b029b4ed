package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
	"hearth/backend/workspace"
)

// docTool is an optional tool with a long description and documented
// parameters, like many MCP tools.
type docTool struct{ testTool }

func (d *docTool) Description() string {
	return "Look things up in the " + d.name + " service. " + strings.Repeat("It explains at length when and how to use it. ", 8)
}
func (d *docTool) Parameters() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"query": {Type: "string", Description: strings.Repeat("what to look up in "+d.name+"; ", 6)}}}
}

// fitRecall is about 300 tokens: the recall step spans as many tokens of window.
var fitRecall = "[Possibly relevant history, recalled automatically; ignore it if unrelated]\n" +
	strings.Repeat("- (memory/HISTORY.md) The user keeps a shopping list and a list of calls in notes.md, updated every week.\n"+
		"- (memory/HISTORY.md) Last month the notes also held the garden plan and the dentist's number.\n", 6) +
	"[End of recalled history]"

// fitHarness is a runner on the default workspace (system prompt), every
// built-in tool and three long optional ones, with a recall block, against a
// fake model whose own window is window tokens.
func fitHarness(t *testing.T, window int, replies ...fakeollama.Reply) *harness {
	t.Helper()
	model := fakeollama.DefaultModel()
	model.ContextLength = window
	h := newHarness(t, fakeollama.Script{Models: []fakeollama.Model{model}, Replies: replies}, func(o *Options) {
		if _, err := workspace.Onboard(o.Workspace); err != nil {
			t.Fatal(err)
		}
		b, err := prompt.New(prompt.Options{Workspace: o.Workspace})
		if err != nil {
			t.Fatal(err)
		}
		est := prompt.NewEstimator()
		o.Context = &PromptContext{System: b.SystemPrompt, Estimator: est,
			Recall: func(context.Context, string, string, int) string { return fitRecall }}
		o.Estimator = est
	})
	for _, n := range []string{"weather_report", "stock_quotes", "translate_text"} {
		if err := h.reg.Register(&docTool{testTool{name: n, readOnly: true}}); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(h.ws, "notes.md"), strings.Repeat("- buy bread, milk and apples; call Lena about the weekend\n", 40))
	olderTurns(t, h, "fit")
	return h
}

// olderTurns starts session id with three older turns.
func olderTurns(t *testing.T, h *harness, id string) {
	t.Helper()
	var recs []session.Record
	for i := range 3 {
		id := fmt.Sprintf("%s-old%d", id, i)
		recs = append(recs,
			session.MessageRecord(id, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("Earlier question %d: %s", i, strings.Repeat("how was the weekend? ", 25))}),
			session.MessageRecord(id, llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("Earlier answer %d: %s", i, strings.Repeat("it was fine, thanks. ", 25))}),
			session.RunRecord(session.Run{ID: id, Status: session.StatusOK}))
	}
	if _, err := h.store.Create(session.CreateOptions{ID: id}); err != nil {
		t.Fatal(err)
	}
	if err := h.store.Append(id, recs...); err != nil {
		t.Fatal(err)
	}
}

// readNotes is the model's side of "What is in my notes?": read_file, then
// an answer. prompt_eval_count 1 is below what calibration accepts, so the
// estimate stays the same through the run.
func readNotes() []fakeollama.Reply {
	return []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("read_file", `{"path":"notes.md"}`)}, PromptEvalCount: 1},
		{Content: "Bread, milk, apples, and a call to Lena.", PromptEvalCount: 1},
	}
}

// wireStage is how far down the fit order a request on the wire went, by
// what it lacks compared with the full request.
func wireStage(t *testing.T, h *harness, r fakeollama.ChatRequest) int {
	t.Helper()
	long := map[string]string{}
	for _, d := range h.reg.Definitions() {
		long[d.Name] = d.Description
	}
	users := 0
	recall := false
	cut := false
	for _, m := range r.Messages {
		if m.Role == "user" {
			users++
			recall = recall || strings.Contains(m.Content, "Possibly relevant history")
		}
		if m.Role == "tool" && (strings.Contains(m.Content, "cut from the middle") || strings.Contains(m.Content, "omitted —")) {
			cut = true
		}
	}
	short := false
	for _, td := range toolsFromWire(t, r.Tools) {
		short = short || td.Description != long[td.Name]
	}
	switch {
	case cut:
		return 6
	case len(r.Tools) < len(long):
		return 5
	case short:
		return 4
	case !recall:
		return 3
	case users < 4:
		return 2
	case int(r.Options["num_predict"].(float64)) < DefaultMaxTokens:
		return 1
	}
	return 0
}

// fitNotices are a run's notices about the context window.
func fitNotices(evs []event.Event) []string {
	var out []string
	for _, n := range ofType[event.NoticeData](evs) {
		if strings.Contains(n.Message, "context window") {
			out = append(out, n.Message)
		}
	}
	return out
}

// TestFitOrderOnTheWire asks "What is in my notes?" (read_file, then an
// answer) of models with ever smaller windows, on the default settings
// (a 2048-token reply limit): every step of the fit order shows on the wire
// in turn, each run goes on with one notice saying what was left out, and
// only when even the core cannot fit does the run fail, with advice.
func TestFitOrderOnTheWire(t *testing.T) {
	if testing.Short() {
		t.Skip("scans many windows")
	}
	reached := map[int]int{}
	last := 0
	var failure *event.ErrorData
	h := fitHarness(t, 8192)
	for window := 8192; window >= 768; window -= 192 {
		model := fakeollama.DefaultModel()
		model.ContextLength = window
		h.fake.SetModels(model)
		h.fake.Enqueue(readNotes()...)
		id := fmt.Sprintf("fit%d", window)
		olderTurns(t, h, id)
		before := len(h.fake.ChatRequests())
		res, evs := h.send(id, "What is in my notes?")
		if res.Status != event.StatusOK {
			e := ofType[event.ErrorData](evs)
			if len(e) != 1 || e[0].Code != string(llm.KindContextOverflow) {
				t.Fatalf("window %d: %+v %s", window, res, describe(evs))
			}
			failure = &e[0]
			t.Logf("window %d fails: %s (hint: %s)", window, e[0].Message, e[0].Hint)
			break
		}
		reqs := h.fake.ChatRequests()[before:]
		if len(reqs) != 2 || res.Final != "Bread, milk, apples, and a call to Lena." {
			t.Fatalf("window %d: %d requests, result %+v %s", window, len(reqs), res, describe(evs))
		}
		first, second := wireStage(t, h, reqs[0]), wireStage(t, h, reqs[1])
		if second < first {
			t.Errorf("window %d: the second request (stage %d) sheds less than the first (stage %d)", window, second, first)
		}
		if second < last {
			t.Fatalf("window %d: stage %d after stage %d in a wider window", window, second, last)
		}
		last = second
		if _, ok := reached[second]; !ok {
			reached[second] = window
		}
		for i, r := range reqs {
			if np := int(r.Options["num_predict"].(float64)); np < prompt.ReplyFloor(window, DefaultMaxTokens) || np > DefaultMaxTokens {
				t.Errorf("window %d request %d: reply limit %d outside [floor, maxTokens]", window, i, np)
			}
		}
		// One notice for the run, naming everything its requests left out.
		notices := fitNotices(evs)
		want := 0
		if second >= 2 || first >= 2 || second == 4 {
			want = 1
		}
		if len(notices) != want {
			t.Errorf("window %d (stages %d, %d): notices %q, want %d", window, first, second, notices, want)
		}
		if len(notices) > 0 {
			n := notices[0]
			if second >= 5 && !strings.Contains(n, "tool (") && !strings.Contains(n, "tools (") || second >= 2 && !strings.Contains(n, "older turn") ||
				second >= 3 && !strings.Contains(n, "recalled memory") || second == 6 && !strings.Contains(n, "this turn") {
				t.Errorf("window %d (stage %d): notice %q does not say what was left out", window, second, n)
			}
		}
	}
	t.Logf("widest window per stage: %v", reached)
	for s := 1; s <= 6; s++ {
		if _, ok := reached[s]; !ok {
			t.Errorf("stage %d never reached on the wire: %v", s, reached)
		}
	}
	if failure == nil {
		t.Fatal("even the smallest window fitted: the scan does not reach the failure")
	}
	if !strings.Contains(failure.Hint, "use a model with a context window of at least") || strings.Contains(failure.Hint, "contextTokens") {
		t.Errorf("the failure's hint must name a window that would work, never a contextTokens beyond the model's: %q", failure.Hint)
	}
}

// The core tools and a tool the model already called in this turn stay,
// however many optional tools go; the run's notice names the tools left out.
func TestFitKeepsCoreAndUsedTools(t *testing.T) {
	h := fitHarness(t, 2048,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{call("weather_report", `{"query":"Paris"}`)}, PromptEvalCount: 1},
		readNotes()[0], readNotes()[1])
	_ = h.reg.Register(&docTool{testTool{name: "weather_report", readOnly: true, run: func(context.Context, tools.Args) (tools.Result, error) {
		return tools.Text("sunny"), nil
	}}})
	res, evs := h.send("fit", "What is in my notes?")
	if res.Status != event.StatusOK {
		t.Fatalf("%+v %s", res, describe(evs))
	}
	reqs := h.fake.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	var left []string
	for i, r := range reqs {
		sent := map[string]bool{}
		for _, td := range toolsFromWire(t, r.Tools) {
			sent[td.Name] = true
		}
		for _, n := range h.reg.Names() {
			if prompt.IsCoreTool(n) && !sent[n] {
				t.Errorf("request %d left out core tool %s", i, n)
			}
		}
		if i > 0 && !sent["weather_report"] {
			t.Errorf("request %d left out weather_report, which the model called in this turn", i)
		}
		for _, n := range h.reg.Names() {
			if !sent[n] {
				left = append(left, n)
			}
		}
	}
	if len(left) == 0 {
		t.Fatal("no tool was left out in a 2048-token window: the test shows nothing")
	}
	n := fitNotices(evs)
	if len(n) != 1 || !strings.Contains(n[0], left[0]) || !strings.Contains(n[0], "2048 tokens") {
		t.Fatalf("notices %q; tools left out %v", n, left)
	}
}

// A provider report much larger than the estimate mid-run (a tokenizer far
// denser than four characters a token) raises the calibration between two
// requests of the same run. Before, the raised estimate of the system prompt
// and every tool overran the budget and the run failed after its tool call;
// now the next request sheds and the run finishes.
func TestCalibrationJumpMidRunSheds(t *testing.T) {
	const window = 4096
	est := prompt.NewEstimator()
	h := newHarness(t, fakeollama.Script{Models: []fakeollama.Model{{Name: "qwen3:4b", ContextLength: window,
		Capabilities: []string{"completion", "tools"}}}}, func(o *Options) {
		if _, err := workspace.Onboard(o.Workspace); err != nil {
			t.Fatal(err)
		}
		b, err := prompt.New(prompt.Options{Workspace: o.Workspace})
		if err != nil {
			t.Fatal(err)
		}
		o.Context = &PromptContext{System: b.SystemPrompt, Estimator: est}
		o.Estimator = est
	})
	for _, n := range []string{"weather_report", "stock_quotes", "translate_text", "calendar", "contacts"} {
		if err := h.reg.Register(&docTool{testTool{name: n, readOnly: true}}); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(h.ws, "notes.md"), "- buy bread\n- call Lena\n")
	// The first request fits by the estimate; the provider says it took
	// almost the whole window.
	h.fake.Enqueue(
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{call("read_file", `{"path":"notes.md"}`)}, PromptEvalCount: window - 200},
		fakeollama.Reply{Content: "Bread, and call Lena.", PromptEvalCount: 1},
	)
	res, evs := h.send("", "What is in my notes?")
	if res.Status != event.StatusOK || res.Final != "Bread, and call Lena." {
		t.Fatalf("the run failed after the calibration jump: %+v %s", res, describe(evs))
	}
	reqs := h.fake.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	ratio := est.Ratio("ollama/qwen3:4b")
	// The jump is real: at the new ratio the system prompt and every tool
	// would not fit beside the full reply limit (the old failure).
	system, _ := fromWire(t, reqs[0].Messages)
	all := toolsFromWire(t, reqs[0].Tools)
	fixed := prompt.Counter{Ratio: ratio}.Request(system, all, nil)
	if fixed <= window-DefaultMaxTokens-(window-DefaultMaxTokens)/25-16 {
		t.Fatalf("ratio %.2f: fixed part %d fits beside the full reply; the test does not jump far enough", ratio, fixed)
	}
	np := int(reqs[1].Options["num_predict"].(float64))
	if len(reqs[1].Tools) >= len(reqs[0].Tools) && np >= DefaultMaxTokens {
		t.Errorf("the second request shed nothing (%d tools, reply %d) at ratio %.2f", len(reqs[1].Tools), np, ratio)
	}
	t.Logf("ratio %.2f after the first report; second request: %d of %d tools, reply limit %d", ratio, len(reqs[1].Tools), len(reqs[0].Tools), np)
}

// A window too small for even the system prompt and the core tools fails
// with what would work: never a contextTokens the model cannot reach, but a
// larger window when the model allows one.
func TestFitFailureAdvice(t *testing.T) {
	for _, tc := range []struct {
		name         string
		modelMax     int
		configured   int
		want, reject string
	}{
		{"the model's own window is too small", 1024, 0, "use a model with a context window of at least", "contextTokens"},
		{"the configured window is too small", 32768, 1024, "raise agents.defaults.contextTokens to", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, fakeollama.Script{Models: []fakeollama.Model{{Name: "qwen3:4b", ContextLength: tc.modelMax,
				Capabilities: []string{"completion", "tools"}}}}, func(o *Options) {
				if _, err := workspace.Onboard(o.Workspace); err != nil {
					t.Fatal(err)
				}
				b, err := prompt.New(prompt.Options{Workspace: o.Workspace})
				if err != nil {
					t.Fatal(err)
				}
				o.Context = &PromptContext{System: b.SystemPrompt, Estimator: prompt.NewEstimator()}
				o.ContextTokens = tc.configured
			})
			res, evs := h.send("", "hello")
			e := ofType[event.ErrorData](evs)
			if res.Status != event.StatusError || len(e) != 1 || e[0].Code != string(llm.KindContextOverflow) {
				t.Fatalf("%+v %s", res, describe(evs))
			}
			if !strings.Contains(e[0].Hint, tc.want) || tc.reject != "" && strings.Contains(e[0].Hint, tc.reject) {
				t.Errorf("hint %q: want %q, never %q", e[0].Hint, tc.want, tc.reject)
			}
			if len(h.fake.ChatRequests()) != 0 {
				t.Error("a request that cannot fit was sent")
			}
		})
	}
}

var _ tools.Tool = (*docTool)(nil)

// An answer cut off at a reply limit that was lowered to fit the window
// says so, instead of advising a larger maxTokens that cannot help.
func TestCutOffAtLoweredReplyLimit(t *testing.T) {
	h := fitHarness(t, 3072, fakeollama.Reply{Content: "The notes say", DoneReason: "length", PromptEvalCount: 1})
	res, evs := h.send("fit", "hi")
	if res.Status != event.StatusOK {
		t.Fatalf("%+v %s", res, describe(evs))
	}
	np := int(h.fake.ChatRequests()[0].Options["num_predict"].(float64))
	var cut string
	for _, n := range ofType[event.NoticeData](evs) {
		if strings.Contains(n.Message, "cut off") {
			cut = n.Message
		}
	}
	if np >= DefaultMaxTokens || !strings.Contains(cut, fmt.Sprintf("reply limit of %d tokens (lowered from maxTokens %d", np, DefaultMaxTokens)) ||
		strings.Contains(cut, "raise maxTokens") {
		t.Fatalf("reply limit %d, notice %q", np, cut)
	}
}
