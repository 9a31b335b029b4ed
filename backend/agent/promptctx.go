package agent

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"hearth/backend/agent/prompt"
	"hearth/backend/llm"
)

// PromptContext is the one ContextBuilder of the app: it puts each request together
// from explicit inputs, each given as a plain function when it is made —
//
//   - System: the persona files, MEMORY.md and the skills (the cached system prompt);
//   - Window: how many recent turns a session's requests keep (the heartbeat's
//     chat keeps few; 0 keeps all, the budget decides);
//   - Recall: the recalled-history block for the turn's user message (put before
//     it when there is room: it is the first thing a small window leaves out);
//   - the runtime line (time, channel) on the current user message;
//
// then compacts old tool results and fits the whole to the window with the
// estimator. Building has no side effects: nothing is started, nothing is written.
type PromptContext struct {
	System    func() (string, error)
	Estimator *prompt.Estimator
	// Window returns the turns kept for a session (0: all); nil keeps all.
	Window func(sessionID string) int
	// Recall returns the block to put before the turn's user message ("" for none);
	// nil recalls nothing.
	Recall func(ctx context.Context, sessionID, text string) string
	// TZ is the zone of the runtime context's clock; nil means Local.
	TZ *time.Location
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Keep is how many recent tool results stay in full (default 10).
	Keep int
}

// Build implements ContextBuilder. The stored history stays as the user typed it;
// the recall block and the runtime line go on the copy sent, on the current turn's
// user message only.
func (p *PromptContext) Build(ctx context.Context, in ContextInput) (ContextOutput, error) {
	var out ContextOutput
	system, err := p.System()
	if err != nil {
		// One unreadable file is left out of the prompt; chat goes on.
		out.Notices = append(out.Notices, fmt.Sprintf("Part of the system prompt could not be read: %v", err))
	}
	cut := 0
	if p.Window != nil {
		cut = windowStart(in.History, p.Window(in.SessionID))
	}
	hist := make([]llm.Message, len(in.History)-cut)
	copy(hist, in.History[cut:])
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	recall := ""
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role != llm.RoleUser {
			continue
		}
		if p.Recall != nil {
			recall = p.Recall(ctx, in.SessionID, hist[i].Content)
		}
		hist[i].Content = prompt.AppendRuntimeContext(hist[i].Content, now(), p.TZ, in.Channel)
		break
	}
	keep := p.Keep
	if keep <= 0 {
		keep = prompt.KeepToolResults
	}
	msgs := prompt.CompactToolResults(hist, keep)
	fit, err := p.Estimator.Counter(in.Model).Fit(prompt.Request{System: system, Tools: in.Tools, History: msgs,
		Recall: recall, Window: in.ContextLimit, Reply: in.ReplyTokens})
	if err != nil {
		return out, OverflowError(err, "this message does not fit the model's context window", in)
	}
	out.Messages = make([]llm.Message, 0, len(fit.Messages)+1)
	if system != "" {
		out.Messages = append(out.Messages, llm.Message{Role: llm.RoleSystem, Content: system})
	}
	out.Messages = append(out.Messages, fit.Messages...)
	out.EstimatedTokens, out.FirstKept = fit.RawTokens, cut+fit.FirstKept
	out.Tokens = fit.Tokens
	out.LeftOutTurns = fit.Shed.Turns
	out.Tools, out.ReplyTokens, out.Shed = fit.Tools, fit.Reply, fit.Shed
	return out, nil
}

// windowStart is the index of the first message of the last turns user turns
// (0 when turns is 0 or the history is shorter).
func windowStart(history []llm.Message, turns int) int {
	if turns <= 0 {
		return 0
	}
	users := 0
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == llm.RoleUser {
			if users++; users == turns {
				return i
			}
		}
	}
	return 0
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
