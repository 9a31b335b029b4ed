package agent

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"hearth/backend/agent/prompt"
	"hearth/backend/llm"
)

// PromptContext is the ContextBuilder over backend/agent/prompt: the cached
// system prompt (F-PROMPT), the runtime context on the current user message
// (F-RUNTIMECTX), old tool results compacted (F-COMPACT) and the whole fitted
// to the window by the calibrated estimator (F-BUDGET).
type PromptContext struct {
	Prompt    *prompt.Builder
	Estimator *prompt.Estimator
	// TZ is the zone of the runtime context's clock; nil means Local.
	TZ *time.Location
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Keep is how many recent tool results stay in full (default 10).
	Keep int

	mu      sync.Mutex
	systems map[string]runSystem // by session id (one run per session at a time)
}

// runSystem is the system prompt a run was given.
type runSystem struct {
	runID, text string
	err         error
}

// maxRunSystems bounds the runs whose system prompt is kept; a session's
// next run replaces its entry, so only many sessions at once reach it.
const maxRunSystems = 64

// system is the run's system prompt: built for its first request and kept
// for the others. A run sees one persona and one MEMORY.md from start to end
// (what the agent writes to memory during the run is in its history, and
// the next turn's prompt shows it), the server's prompt cache keeps the
// unchanged prefix, and a tool round does not stat every workspace file.
func (p *PromptContext) system(sessionID, runID string) (string, error) {
	if runID == "" {
		return p.Prompt.SystemPrompt()
	}
	p.mu.Lock()
	rs, ok := p.systems[sessionID]
	p.mu.Unlock()
	if ok && rs.runID == runID {
		return rs.text, rs.err
	}
	text, err := p.Prompt.SystemPrompt()
	p.mu.Lock()
	if p.systems == nil || len(p.systems) >= maxRunSystems {
		p.systems = map[string]runSystem{}
	}
	p.systems[sessionID] = runSystem{runID: runID, text: text, err: err}
	p.mu.Unlock()
	return text, err
}

var _ Calibrator = (*PromptContext)(nil)

// Build implements ContextBuilder. The stored history stays as the user
// typed it; the runtime block is added to the copy sent, on the current
// turn's user message only.
func (p *PromptContext) Build(_ context.Context, in ContextInput) (ContextOutput, error) {
	var out ContextOutput
	system, err := p.system(in.SessionID, in.RunID)
	if err != nil {
		// One unreadable file is left out of the prompt; chat goes on.
		out.Notices = append(out.Notices, fmt.Sprintf("Part of the system prompt could not be read: %v", err))
	}
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	keep := p.Keep
	if keep <= 0 {
		keep = prompt.KeepToolResults
	}
	counter := p.Estimator.Counter(in.Model)
	// Only the part of a long chat that could still fit is copied and
	// compacted: what a turn costs follows what it sends, not the chat's length.
	reach := counter.Reach(in.History, in.ContextLimit)
	msgs := prompt.CompactToolResults(in.History[reach:], keep) // a copy
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleUser {
			msgs[i].Content = prompt.AppendRuntimeContext(msgs[i].Content, now(), p.TZ, in.Channel)
			break
		}
	}
	fit, err := counter.Fit(prompt.Request{System: system, Tools: in.Tools, History: msgs,
		Recall: in.Recall, Window: in.ContextLimit, Reply: in.ReplyTokens})
	if err != nil {
		return out, OverflowError(err, "this message does not fit the model's context window", in)
	}
	out.Messages = make([]llm.Message, 0, len(fit.Messages)+1)
	if system != "" {
		out.Messages = append(out.Messages, llm.Message{Role: llm.RoleSystem, Content: system})
	}
	out.Messages = append(out.Messages, fit.Messages...)
	for _, m := range in.History[:reach] {
		if m.Role == llm.RoleUser {
			fit.Shed.Turns++
		}
	}
	out.EstimatedTokens, out.FirstKept = fit.RawTokens, reach+fit.FirstKept
	out.Tokens = fit.Tokens
	out.LeftOutTurns = fit.Shed.Turns
	out.Tools, out.ReplyTokens, out.Shed = fit.Tools, fit.Reply, fit.Shed
	return out, nil
}

// OverflowError turns prompt.Fit's failure into the run's context_overflow
// error (msg says what did not fit), with what would work with this model
// as the hint. Other errors pass through.
func OverflowError(err error, msg string, in ContextInput) error {
	var nr *prompt.NoRoomError
	if !errors.As(err, &nr) {
		return err
	}
	return &llm.Error{Kind: llm.KindContextOverflow, Message: msg + " (" + strconv.Itoa(in.ContextLimit) + " tokens)", Err: err,
		Hint: strings.Join(nr.Advice(in.ModelContext), "; ")}
}

// Calibrate implements Calibrator.
func (p *PromptContext) Calibrate(model string, estimated, reported int) {
	p.Estimator.Observe(model, estimated, reported)
}
