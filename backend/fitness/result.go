// Package fitness checks how well a model works as Hearth's agent: a few short
// requests to the real model find whether it makes structured tool calls, needs the
// text fallback or cannot call tools at all, whether it leaves a tool alone when none
// is needed, whether it stops after a tool result, how fast it writes and how large
// its context window is. Results are kept per model and digest in a small JSON file
// (Store), so a model is checked again only when it changed. See docs/local-models.md.
package fitness

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Version numbers the probe set: results of an older set are checked again (2: an
// empty or failed probe no longer makes a model chat only; the read_file probe).
const Version = 2

// CallStyle is how a model calls tools.
type CallStyle string

// Call styles.
const (
	// CallsStructured: the server returned the call as structured tool_calls.
	CallsStructured CallStyle = "structured"
	// CallsText: the model printed the call as text and Hearth's fallback turned
	// it into a call.
	CallsText CallStyle = "text"
	// CallsNone: no call came back (or the model has no tool support).
	CallsNone CallStyle = "none"
	// CallsUnknown: the probes failed or came back empty, twice: the check cannot
	// tell, and tools stay on.
	CallsUnknown CallStyle = "unknown"
)

// Verdict is how Hearth uses the model.
type Verdict string

// Verdicts.
const (
	// VerdictGood: it calls tools the way the server expects.
	VerdictGood Verdict = "good"
	// VerdictTextFallback: it works through the text fallback.
	VerdictTextFallback Verdict = "text-fallback"
	// VerdictChatOnly: Hearth chats with it without offering tools.
	VerdictChatOnly Verdict = "chat-only"
	// VerdictCheckFailed: the check could not tell; Hearth keeps offering tools.
	VerdictCheckFailed Verdict = "check-failed"
)

// Caveat is a weakness worth knowing; the verdict still stands.
type Caveat string

// Caveats.
const (
	CaveatEager       Caveat = "calls-without-need"   // called the tool for "2 + 2"
	CaveatRepeats     Caveat = "repeats-after-result" // called again after the result
	CaveatBadArgs     Caveat = "wrong-arguments"      // the call's arguments did not name Paris
	CaveatSlow        Caveat = "slow"                 // under SlowTokensPerSecond
	CaveatSmallWindow Caveat = "small-context"        // under SmallContext tokens
)

// Thresholds of the caveats.
const (
	// SlowTokensPerSecond: below this a 300-token answer takes over a minute.
	SlowTokensPerSecond = 5
	// SmallContext: below this the system prompt and tools take most of the window.
	SmallContext = 8192
)

// Result is one model's check.
type Result struct {
	// Model is the configured name, "<provider>/<model>".
	Model string `json:"model"`
	// Digest identifies the model's files (Ollama); a changed digest means a
	// changed model, checked again.
	Digest    string    `json:"digest,omitempty"`
	ToolCalls CallStyle `json:"toolCalls"`
	// Restraint: no tool call for a question that needs none.
	Restraint bool `json:"restraint"`
	// StopsAfterResult: after a tool result it answered instead of calling again.
	StopsAfterResult bool `json:"stopsAfterResult"`
	// ContextMax is the model's own maximum context in tokens, 0 when unknown.
	ContextMax int `json:"contextMax"`
	// TokensPerSecond is the generation speed measured over the probes.
	TokensPerSecond float64  `json:"tokensPerSecond"`
	Verdict         Verdict  `json:"verdict"`
	Caveats         []Caveat `json:"caveats,omitempty"`
	// Advice is the verdict and caveats as one English sentence (the window
	// translates Verdict and Caveats itself).
	Advice string `json:"advice"`
	// Notes say what each probe saw, for the curious and for bug reports.
	Notes []string `json:"notes,omitempty"`
	// Probes are the probes' results one by one, for the Models row (the window
	// words Probe and Outcome; Reply is the model's own).
	Probes     []ProbeResult `json:"probes,omitempty"`
	CheckedAt  time.Time     `json:"checkedAt"`
	DurationMs int64         `json:"durationMs"`
	Version    int           `json:"version"`
}

// ProbeResult is what one probe (or the user's chat) showed.
type ProbeResult struct {
	// Probe: ProbeWeather, ProbeRead, ProbeRestraint, ProbeAfter or ProbeChat.
	Probe string `json:"probe"`
	// Outcome: OutcomeCalled, OutcomeAnswered, OutcomeEmpty, OutcomeFailed,
	// OutcomeNoTools.
	Outcome string `json:"outcome"`
	// Reply says in a few words what the model replied (its own words quoted).
	Reply string `json:"reply,omitempty"`
	// Tries is how often the probe was sent (an inconclusive one is sent twice).
	Tries int `json:"tries,omitempty"`
}

// Probe names.
const (
	ProbeWeather   = "weather"   // the made-up get_weather tool
	ProbeRead      = "read"      // Hearth's read_file on a scratch file
	ProbeRestraint = "restraint" // "2 + 2" with a tool offered
	ProbeAfter     = "result"    // a tool's result handed back
	ProbeChat      = "chat"      // the user's own chat (Evidence)
)

// Probe outcomes.
const (
	OutcomeCalled   = "called"   // it called the tool
	OutcomeAnswered = "answered" // it answered without a call
	OutcomeEmpty    = "empty"    // an empty reply, twice
	OutcomeFailed   = "failed"   // a failed reply, twice
	OutcomeNoTools  = "no-tools" // the server says its template has no tools
)

// OffersTools reports whether Hearth should send this model tool schemas: only a
// model that answered the probes without calling is chat only.
func (r Result) OffersTools() bool { return r.ToolCalls != CallsNone }

// Overrule lays a user's chat over a probe that saw no call: the model made a valid
// structured call for the user with the same digest, so it is not demoted.
func (r *Result) Overrule(e Evidence) {
	if r.ToolCalls != CallsNone && r.ToolCalls != CallsUnknown {
		return
	}
	r.ToolCalls = CallsStructured
	r.Probes = append(r.Probes, ProbeResult{Probe: ProbeChat, Outcome: OutcomeCalled, Reply: "call " + e.Tool})
	r.note("in a chat on %s it made a structured call of %s: it keeps its tools", e.At.Format("2006-01-02"), e.Tool)
	r.judge(r.Has(CaveatBadArgs))
}

// Has reports whether the result carries caveat c.
func (r Result) Has(c Caveat) bool {
	return slices.Contains(r.Caveats, c)
}

// judge fills Verdict, Caveats and Advice from the measured fields.
func (r *Result) judge(badArgs bool) {
	switch r.ToolCalls {
	case CallsNone:
		r.Verdict = VerdictChatOnly
	case CallsUnknown:
		r.Verdict = VerdictCheckFailed
	case CallsText:
		r.Verdict = VerdictTextFallback
	default:
		r.Verdict = VerdictGood
	}
	r.Caveats = nil
	if r.ToolCalls != CallsNone && r.ToolCalls != CallsUnknown {
		if !r.Restraint {
			r.Caveats = append(r.Caveats, CaveatEager)
		}
		if !r.StopsAfterResult {
			r.Caveats = append(r.Caveats, CaveatRepeats)
		}
		if badArgs {
			r.Caveats = append(r.Caveats, CaveatBadArgs)
		}
	}
	if r.TokensPerSecond > 0 && r.TokensPerSecond < SlowTokensPerSecond {
		r.Caveats = append(r.Caveats, CaveatSlow)
	}
	if r.ContextMax > 0 && r.ContextMax < SmallContext {
		r.Caveats = append(r.Caveats, CaveatSmallWindow)
	}
	r.Advice = r.advice()
}

// advice is the verdict and its caveats in words.
func (r Result) advice() string {
	but := r.CaveatTexts()
	if len(but) == 0 {
		return r.Headline()
	}
	return r.Headline() + "; but " + strings.Join(but, "; ")
}

// Headline says what the verdict means for the user.
func (r Result) Headline() string {
	switch r.Verdict {
	case VerdictChatOnly:
		return "chat only — Hearth will not offer it tools, so it cannot read files or run commands; pick a model with tool support for that"
	case VerdictCheckFailed:
		return "check failed — its replies were empty or failed, so the check cannot tell whether it calls tools; Hearth keeps offering them"
	case VerdictTextFallback:
		return "works with the text fallback — it prints its tool calls and Hearth turns them into calls"
	default:
		return "good for tools"
	}
}

// CaveatTexts says each caveat in words.
func (r Result) CaveatTexts() []string {
	var out []string
	for _, c := range r.Caveats {
		switch c {
		case CaveatEager:
			out = append(out, "it also calls a tool when none is needed, which costs an extra round")
		case CaveatRepeats:
			out = append(out, "it calls the tool again after getting the result (Hearth stops repeats, but answers take longer)")
		case CaveatBadArgs:
			out = append(out, "it passed unexpected arguments to the tool")
		case CaveatSlow:
			out = append(out, fmt.Sprintf("it is slow on this machine (%.1f tokens/s); a smaller model answers faster", r.TokensPerSecond))
		case CaveatSmallWindow:
			out = append(out, fmt.Sprintf("its context window is small (%d tokens), so long chats and files are cut to fit", r.ContextMax))
		}
	}
	return out
}
