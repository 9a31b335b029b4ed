package agent

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/clip"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// loopLimit is how many times the same failing call (name + arguments +
// error) may happen in one run before the loop stops (docs/design/agent-loop.md#loop-guard).
const loopLimit = 3

// deniedText is what the model reads for a denied call: worded so that small models
// stop asking rather than retry (docs/design/safety-defaults.md#approval).
const deniedText = "Error: denied by the user — do not retry this call"

// runTools runs one response's tool calls: consecutive read-only calls
// concurrently, every other call alone in the model's order (docs/design/agent-loop.md#parallel-read-only-tools).
// The batch (assistant message + results) is checkpointed when complete.
func (l *loop) runTools(msg llm.Message) error {
	calls := append([]llm.ToolCall(nil), msg.ToolCalls...)
	names := make([]string, len(calls))
	prepared := make([]tools.Prepared, len(calls))
	for i := range calls {
		// Providers number calls per reply (call_1, …); spill files and the
		// UI need ids unique in the session.
		l.callSeq++
		calls[i].ID = fmt.Sprintf("%s-%d", l.run.ID, l.callSeq)
		names[i] = calls[i].Name
		if calls[i].Unknown || calls[i].ArgsError != "" {
			names[i] = "" // not a registry tool: its own batch
			continue
		}
		// Decoded once, here: the gate, the tool_call event (and so the
		// audit log) and the tool all get this same value.
		prepared[i] = l.r.opts.Tools.Prepare(calls[i].Name, calls[i].Arguments)
		if prepared[i].Err != nil {
			names[i] = ""
		}
	}
	msg.ToolCalls = calls
	results := make([]llm.Message, len(calls))
	failed := make([]bool, len(calls))
	for _, batch := range l.r.opts.Tools.Batches(names) {
		if l.ctx.Err() != nil {
			for _, i := range batch {
				results[i] = toolMessage(calls[i], "Error: not run: the run was stopped")
				failed[i] = true
			}
			continue
		}
		for _, i := range batch {
			args := tools.Faithful(calls[i].Arguments) // what the model sent, when nothing was decoded
			if names[i] != "" {
				args = prepared[i].Args.JSON()
			}
			l.em.emit(event.ToolCall, event.ToolCallData{CallID: calls[i].ID, Name: calls[i].Name, Args: args})
		}
		if len(batch) == 1 {
			results[batch[0]], failed[batch[0]] = l.callOne(calls[batch[0]], prepared[batch[0]])
			continue
		}
		var wg sync.WaitGroup
		for _, i := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], failed[i] = l.callOne(calls[i], prepared[i])
			}()
		}
		wg.Wait()
	}
	if l.shuttingDown() {
		// Left out on purpose: Continue after a restart asks the model again
		// from the last complete batch instead of reading "cancelled".
		return l.ctx.Err()
	}
	recs := make([]session.Record, 0, len(calls)+1)
	recs = append(recs, session.MessageRecord(l.run.ID, msg))
	for _, m := range results {
		recs = append(recs, session.MessageRecord(l.run.ID, m))
	}
	if err := l.r.opts.Store.Append(l.run.SessionID, recs...); err != nil {
		return &runError{code: event.CodeStorage, why: storageProblem(i18n.M("error.storage.toolResults", "detail", err.Error())), err: err}
	}
	l.history = append(l.history, msg)
	l.history = append(l.history, results...)
	if l.ctx.Err() != nil {
		return l.ctx.Err()
	}
	return l.checkLoop(calls, results, failed)
}

// callOne runs one prepared call through the Gate and the Registry and
// reports it.
func (l *loop) callOne(tc llm.ToolCall, p tools.Prepared) (llm.Message, bool) {
	start := time.Now()
	var res tools.Result
	reg := l.r.opts.Tools
	offWhy, off := l.toolOff(tc.Name)
	switch {
	case off:
		// A setting turned it off: the model and the person read which, and how to
		// turn it back on; no approval is asked (none could make it run).
		res = tools.Result{Content: "Error: " + offWhy.String(), IsError: true, Why: offWhy}
	case tc.Unknown:
		// The model named a tool the request did not offer (Ollama's qwen3
		// parser lets these through): answer like any unknown tool.
		res = tools.Errorf("unknown tool %q. Valid tools: %s. Call one of these by its exact name.",
			tc.Name, strings.Join(reg.Names(), ", "))
	case tc.ArgsError != "":
		res = tools.Errorf("could not read the arguments of %s: %s. Send the arguments as one JSON object. Valid tools: %s.",
			tc.Name, tc.ArgsError, strings.Join(reg.Names(), ", "))
	case p.Err != nil:
		// Refused before anyone is asked: arguments that could be read two
		// ways (or not at all) are never judged, let alone run; a call the
		// tool's own safety rules refuse is never offered for approval (an
		// approval could not make it run).
		scope := event.ScopeInvalid
		if p.Refused {
			scope = event.ScopeRule
		}
		l.em.emit(event.Approval, event.ApprovalData{CallID: tc.ID, State: event.ApprovalDenied, Scope: scope})
		res = reg.Run(l.ctx, p)
	default:
		asked := l.r.opts.Now()
		d := l.r.opts.Gate.Check(l.ctx, tools.GateCall{RunID: l.run.ID, SessionID: l.run.SessionID, CallID: tc.ID,
			Name: p.Name, Args: p.Args, Preview: p.Preview, Unattended: l.req.Unattended, AllowTools: l.req.AllowTools,
			Emit:   func(a event.ApprovalData) { a.CallID = tc.ID; l.em.emit(event.Approval, a) },
			Notice: func(m i18n.Message) { l.em.say(event.LevelWarning, m) }})
		l.waited.Add(int64(l.r.opts.Now().Sub(asked))) // the person's time is not the turn's (budget.go)
		if !d.Allow {
			res = tools.Result{Content: deniedText, IsError: true, Why: d.Why}
			if d.Reason != "" {
				res.Content = "Error: " + d.Reason
			}
			break
		}
		start = time.Now() // the duration is the tool's, not the time the user took to approve
		res = reg.Run(tools.WithCall(l.ctx, tools.CallInfo{SessionID: l.run.SessionID, RunID: l.run.ID, CallID: tc.ID,
			Unattended: l.req.Unattended, Channel: cmp.Or(l.req.Channel, l.r.opts.Channel),
			RoomTokens: l.turnRoom, MaxResultChars: l.t.MaxToolResultChars}), p)
		if l.t.Workspace != "" {
			if spilled, err := tools.SpillResult(l.t.Workspace, l.run.SessionID, tc.ID, res, l.t.MaxToolResultChars); err == nil {
				res = spilled
			} else {
				l.em.say(event.LevelWarning, i18n.M("notice.spillFailed", "tool", tc.Name, "error", err.Error()))
				res.Content = clip.Bytes(res.Content, l.t.MaxToolResultChars)
			}
		}
	}
	l.em.emit(event.ToolResult, event.ToolResultData{CallID: tc.ID, Name: tc.Name, OK: res.OK(), Content: res.Content,
		DurationMs: time.Since(start).Milliseconds(), Code: res.Why.Code, Args: res.Why.Args})
	return toolMessage(tc, res.Content), !res.OK()
}

// toolOff reports a call of a tool that is not registered because a setting turned it
// off (Options.ToolOff).
func (l *loop) toolOff(name string) (i18n.Message, bool) {
	if l.r.opts.ToolOff == nil {
		return i18n.Message{}, false
	}
	if _, ok := l.r.opts.Tools.Get(name); ok {
		return i18n.Message{}, false
	}
	return l.r.opts.ToolOff(strings.TrimSpace(name))
}

func toolMessage(tc llm.ToolCall, content string) llm.Message {
	return llm.Message{Role: llm.RoleTool, Content: content, ToolCallID: tc.ID, ToolName: tc.Name}
}

// checkLoop stops the run when the same call failed the same way loopLimit
// times (docs/design/agent-loop.md#loop-guard): the model is stuck and more rounds only cost time.
func (l *loop) checkLoop(calls []llm.ToolCall, results []llm.Message, failed []bool) error {
	for i, tc := range calls {
		if !failed[i] {
			continue
		}
		key := tc.Name + "\x00" + canonicalArgs(tc.Arguments) + "\x00" + results[i].Content
		l.guard[key]++
		if l.guard[key] < loopLimit {
			continue
		}
		text := fmt.Sprintf("I stopped because the same call to %s failed %d times in a row with the same error:\n%s\nPlease rephrase the request or fix what the tool complained about, then try again.",
			tc.Name, loopLimit, clip.Bytes(results[i].Content, 500))
		l.finalMsg = &llm.Message{Role: llm.RoleAssistant, Content: text}
		l.em.emit(event.TextDelta, event.DeltaData{Text: text})
		return &runError{code: event.CodeLoopDetected, why: i18n.P("error.loop", "tool", tc.Name, "n", strconv.Itoa(loopLimit))}
	}
	return nil
}

func canonicalArgs(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		var b bytes.Buffer
		if json.Compact(&b, raw) == nil {
			return b.String()
		}
		return string(raw)
	}
	b, _ := json.Marshal(v) // map keys come out sorted
	return string(b)
}
