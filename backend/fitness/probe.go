package fitness

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"hearth/backend/internal/clip"
	"hearth/backend/llm"
)

// The probes offer one harmless made-up tool; no tool ever runs. Its name is the
// one small local models most often saw in tool-calling examples, so a model that
// can call tools at all calls this one.
const (
	ToolName = "get_weather"
	// CallPrompt needs the tool: a model that can call tools calls it.
	CallPrompt = "What is the weather in Paris right now?"
	// PlainPrompt needs no tool: a model with restraint just answers.
	PlainPrompt = "What is 2 + 2? Reply with the number only."
	// ToolResult is the made-up result the third probe hands back.
	ToolResult = `{"city": "Paris", "temperature_c": 18, "conditions": "sunny"}`
	// systemPrompt is short on purpose: every token is paid on a slow CPU, and
	// the rule is the one Hearth's own prompt gives about tools.
	systemPrompt = "You are a helpful assistant. Use a tool when a question needs information you do not have; otherwise answer directly and briefly."
)

var toolDef = llm.ToolDef{
	Name:        ToolName,
	Description: "Get the current weather for a city.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City name, e.g. London"}},"required":["city"]}`),
}

// Options tune a check; the zero value is what Hearth uses.
type Options struct {
	// LoadTimeout bounds the first probe, which may wait for the model to load
	// from disk; 0 means 90 s.
	LoadTimeout time.Duration
	// ProbeTimeout bounds each later probe; 0 means 30 s.
	ProbeTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// ScratchDir holds the read probe's scratch folder; "" means the system's
	// temporary folder.
	ScratchDir string
}

func (o Options) withDefaults() Options {
	if o.LoadTimeout <= 0 {
		o.LoadTimeout = 90 * time.Second
	}
	if o.ProbeTimeout <= 0 {
		o.ProbeTimeout = 30 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// probe is one request of the check.
type probe struct {
	name      string // for notes and errors
	messages  []llm.Message
	maxTokens int
	tools     []llm.ToolDef // nil: the made-up get_weather
}

func callProbe() probe {
	return probe{name: "tool-call probe", maxTokens: 160, messages: []llm.Message{
		{Role: llm.RoleSystem, Content: systemPrompt},
		{Role: llm.RoleUser, Content: CallPrompt},
	}}
}

func plainProbe() probe {
	return probe{name: "restraint probe", maxTokens: 64, messages: []llm.Message{
		{Role: llm.RoleSystem, Content: systemPrompt},
		{Role: llm.RoleUser, Content: PlainPrompt},
	}}
}

func resultProbe() probe {
	call := llm.ToolCall{ID: "call_1", Name: ToolName, Arguments: json.RawMessage(`{"city":"Paris"}`)}
	return probe{name: "tool-result probe", maxTokens: 128, messages: []llm.Message{
		{Role: llm.RoleSystem, Content: systemPrompt},
		{Role: llm.RoleUser, Content: CallPrompt},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}},
		{Role: llm.RoleTool, ToolCallID: call.ID, ToolName: ToolName, Content: ToolResult},
	}}
}

// outcome is what one probe saw.
type outcome struct {
	resp llm.Response
	// failed is a model failure (empty reply, a call the server could not
	// parse): a judgement, not a reason to stop the check.
	failed *llm.Error
	wall   time.Duration
}

// called reports whether the reply asked for the offered tool.
func (o outcome) called() bool {
	for _, c := range o.resp.Message.ToolCalls {
		if !c.Unknown {
			return true
		}
	}
	// A call the server choked on is still an attempt to call.
	return o.failed != nil && strings.Contains(o.failed.Message, "tool call")
}

// Check runs the probes against model (the provider's own name) and judges the
// answers. Errors that say nothing about the model (Ollama down, model missing, a
// probe timing out) end the check and carry a hint; a model's bad reply is a finding.
func Check(ctx context.Context, p llm.Provider, model string, opts Options) (Result, error) {
	opts = opts.withDefaults()
	start := opts.Now()
	r := Result{Model: model, Version: Version, Restraint: true, StopsAfterResult: true}
	if sh, ok := p.(llm.ModelShower); ok {
		sctx, cancel := context.WithTimeout(ctx, opts.ProbeTimeout)
		d, err := sh.Show(sctx, model)
		cancel()
		if err != nil {
			return r, fmt.Errorf("check %s: %w", model, err)
		}
		r.Digest, r.ContextMax = d.Digest, d.ContextLength
		if d.Has(llm.CapEmbedding) && !d.Has(llm.CapCompletion) {
			return r, &llm.Error{Kind: llm.KindBadResponse, Message: fmt.Sprintf("%s is an embedding model: it does not chat, so there is nothing to check", model),
				Hint: "check a chat model instead; embedding models only feed the recall index"}
		}
	}
	var outs []outcome
	run := func(pr probe, timeout time.Duration) (outcome, error) {
		o, err := send(ctx, p, model, pr, timeout, opts.Now)
		if err == nil {
			outs = append(outs, o)
		}
		return o, err
	}
	// ask sends a probe once more when its reply was empty or failed: one such reply
	// says little about a model (a runner still warming up, a one-off bad sample).
	ask := func(pr probe, timeout time.Duration) (outcome, int, error) {
		o, err := run(pr, timeout)
		if err != nil || !o.inconclusive() {
			return o, 1, err
		}
		o, err = run(pr, opts.ProbeTimeout)
		return o, 2, err
	}

	first, tries, err := ask(callProbe(), opts.LoadTimeout)
	if err != nil {
		return r, err
	}
	badArgs := false
	switch {
	case first.resp.ToolsDropped:
		r.ToolCalls = CallsNone
		r.probe(ProbeWeather, OutcomeNoTools, first, tries)
		r.note("the server says the model has no tool support (its template has no tools)")
	case first.called() && !first.inconclusive():
		r.ToolCalls = CallsStructured
		if first.resp.TextToolCalls {
			r.ToolCalls = CallsText
		}
		badArgs = !namesParis(first.resp.Message.ToolCalls)
		r.probe(ProbeWeather, OutcomeCalled, first, tries)
		r.note("asked about the weather, it called %s (%s)", ToolName, first.describe())
	default:
		r.probe(ProbeWeather, first.outcome(), first, tries)
		r.note("asked about the weather with %s offered, %s: %s", ToolName, first.saw(), first.describe())
		// A made-up tool is a guess at what the model knows; Hearth's own read_file
		// on a real file is what the chat will ask of it.
		read, tries, err := readFileProbe(ctx, opts, ask, func(pr probe) (outcome, error) { return run(pr, opts.ProbeTimeout) })
		if err != nil {
			return r, err
		}
		r.Probes = append(r.Probes, read.result(tries))
		r.note("%s", read.note)
		switch {
		case read.called:
			r.ToolCalls = CallsStructured
			if read.text {
				r.ToolCalls = CallsText
			}
		case first.inconclusive() || read.inconclusive:
			r.ToolCalls = CallsUnknown
		default:
			r.ToolCalls = CallsNone
		}
	}

	if r.ToolCalls == CallsStructured || r.ToolCalls == CallsText {
		plain, err := run(plainProbe(), opts.ProbeTimeout)
		if err != nil {
			return r, err
		}
		r.Restraint = !plain.called()
		r.probe(ProbeRestraint, plain.outcome(), plain, 1)
		r.note("asked 2 + 2 with the tool offered: %s", plain.describe())

		after, err := run(resultProbe(), opts.ProbeTimeout)
		if err != nil {
			return r, err
		}
		r.StopsAfterResult = !after.called()
		r.probe(ProbeAfter, after.outcome(), after, 1)
		r.note("given the tool's result: %s", after.describe())
	}
	r.TokensPerSecond = speed(outs)
	r.CheckedAt = opts.Now()
	r.DurationMs = r.CheckedAt.Sub(start).Milliseconds()
	r.judge(badArgs)
	return r, nil
}

// thinkingMaxTokens is the reply limit of a probe sent again to a model that
// thought through the first limit although asked not to think.
const thinkingMaxTokens = 1024

// send runs one probe with its own deadline, at temperature 0 and without
// thinking (a thinking model would spend minutes of a CPU on "2 + 2"). Some
// models think anyway (gpt-oss has no "off"): a reply cut off while the model
// was still thinking is sent once more with room to finish.
func send(ctx context.Context, p llm.Provider, model string, pr probe, timeout time.Duration, now func() time.Time) (outcome, error) {
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	zero, noThink := 0.0, false
	// ContextTokens stays 0 (the configured window): a different num_ctx would
	// make Ollama reload the model, once for the check and again for the next chat.
	tools := pr.tools
	if tools == nil {
		tools = []llm.ToolDef{toolDef}
	}
	req := llm.Request{Model: model, Messages: pr.messages, Tools: tools,
		Think: &noThink, MaxTokens: pr.maxTokens, Temperature: &zero}
	t0 := now()
	resp, err := p.Chat(pctx, req, nil)
	if le, ok := llm.AsError(err); ok && le.ModelFault() && resp.FinishReason == llm.FinishLength && resp.Message.Reasoning != "" {
		req.MaxTokens = thinkingMaxTokens
		resp, err = p.Chat(pctx, req, nil)
	}
	o := outcome{resp: resp, wall: now().Sub(t0)}
	if err == nil {
		return o, nil
	}
	if ctx.Err() != nil {
		return o, fmt.Errorf("check %s: %w", model, ctx.Err())
	}
	if pctx.Err() != nil {
		return o, &llm.Error{Kind: llm.KindBadResponse,
			Message: fmt.Sprintf("check %s: the model did not finish the %s within %s", model, pr.name, timeout.Round(time.Second)),
			Hint:    "the model is too slow on this machine or still loading — try again in a minute, or pick a smaller model"}
	}
	if le, ok := llm.AsError(err); ok && le.ModelFault() {
		o.failed = le // the model's own failure: judged, not fatal
		return o, nil
	}
	return o, fmt.Errorf("check %s: %w", model, err)
}

// inconclusive: the reply failed (empty, or a call the server could not read): it
// says nothing sure about the model.
func (o outcome) inconclusive() bool { return o.failed != nil }

// outcome names the reply for the Models row.
func (o outcome) outcome() string {
	switch {
	case o.failed != nil && strings.Contains(o.failed.Message, "empty"):
		return OutcomeEmpty
	case o.failed != nil:
		return OutcomeFailed
	case o.called():
		return OutcomeCalled
	}
	return OutcomeAnswered
}

// saw says in words what the reply did without a call.
func (o outcome) saw() string {
	if o.inconclusive() {
		return "the reply failed twice (inconclusive)"
	}
	return "it answered without calling it"
}

// probe records one probe's result.
func (r *Result) probe(name, outcome string, o outcome, tries int) {
	r.Probes = append(r.Probes, ProbeResult{Probe: name, Outcome: outcome, Reply: o.describe(), Tries: tries})
}

// describe says in a few words what the reply was.
func (o outcome) describe() string {
	if o.failed != nil {
		return "failed: " + o.failed.Message
	}
	m := o.resp.Message
	var parts []string
	for _, c := range m.ToolCalls {
		how := "structured"
		if c.FromText {
			how = "from text"
		}
		name := c.Name
		if c.Unknown {
			name += " (not offered)"
		}
		parts = append(parts, fmt.Sprintf("call %s %s, %s", name, clip.Squash(string(c.Arguments), 80), how))
	}
	if t := strings.TrimSpace(m.Content); t != "" {
		parts = append(parts, fmt.Sprintf("text %q", clip.Squash(t, 80)))
	}
	if len(parts) == 0 {
		return "an empty reply"
	}
	return strings.Join(parts, "; ")
}

func (r *Result) note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

// namesParis reports whether a call's arguments carry the city asked about
// (under any key: models rename "city" to "location" often enough).
func namesParis(calls []llm.ToolCall) bool {
	return slices.ContainsFunc(calls, func(c llm.ToolCall) bool {
		return c.Name == ToolName && strings.Contains(strings.ToLower(string(c.Arguments)), "paris")
	})
}

// speed is generated tokens per second over all probes: from the provider's own
// generation time when it reports one, else from the wall time of the probes
// after the first (the first includes loading the model).
func speed(outs []outcome) float64 {
	tokens, evalTime := 0, time.Duration(0)
	for _, o := range outs {
		tokens += o.resp.Usage.CompletionTokens
		evalTime += o.resp.EvalDuration
	}
	if tokens > 0 && evalTime > 0 {
		return round1(float64(tokens) / evalTime.Seconds())
	}
	tokens, wall := 0, time.Duration(0)
	for _, o := range outs[min(1, len(outs)):] {
		tokens += o.resp.Usage.CompletionTokens
		wall += o.wall
	}
	if tokens > 0 && wall > 0 {
		return round1(float64(tokens) / wall.Seconds())
	}
	return 0
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }
