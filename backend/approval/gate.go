package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/tools"
)

// Decision is the user's answer to an approval request.
type Decision string

// Decisions (the buttons of the approval card; the CLI's y/a/n).
const (
	Once   Decision = "once"   // allow this call
	Chat   Decision = "chat"   // allow this tool for the rest of this chat
	Always Decision = "always" // allow this tool from now on (saved to tools.approval.always)
	Deny   Decision = "deny"   // deny this call; the model is told not to retry
)

// ParseDecision checks a decision name.
func ParseDecision(s string) (Decision, error) {
	switch d := Decision(s); d {
	case Once, Chat, Always, Deny:
		return d, nil
	}
	return "", fmt.Errorf("unknown approval decision %q (hint: use \"once\", \"chat\", \"always\" or \"deny\")", s)
}

// Approval event values: state is agent's requested/allowed/denied, scope says
// which grant or rule decided.
const (
	StateRequested = "requested"
	StateAllowed   = "allowed"
	StateDenied    = "denied"

	ScopeOnce       = string(Once)
	ScopeChat       = string(Chat)
	ScopeAlways     = string(Always)
	ScopeJob        = "job"        // in the unattended run's own allow-list
	ScopeUser       = "user"       // denied by the user
	ScopeNever      = "never"      // tools.approval.never
	ScopeUnattended = "unattended" // nobody could be asked
	ScopeCancelled  = "cancelled"  // the run stopped while waiting
)

// ErrNoPending is returned by Approve when no call waits for that answer.
var ErrNoPending = errors.New("no approval is waiting for that call")

// Pending is a tool call waiting for the user.
type Pending struct {
	RunID     string          `json:"runId"`
	SessionID string          `json:"sessionId"`
	CallID    string          `json:"callId"`
	Tool      string          `json:"tool"`
	Args      json.RawMessage `json:"args"` // secrets masked
	// Why says why the call needs approval (a gate.why.* message the window words in
	// its language); Reason is its English ("It runs a shell command on this computer.").
	Why    i18n.Message `json:"why"`
	Reason string       `json:"reason"`
	Since  time.Time    `json:"since"`
	// Dir is where the call runs (exec's working directory); Destructive marks a
	// call that deletes or overwrites data; Sandbox says what the call may do once
	// allowed. The approval card shows them.
	Dir         string `json:"dir,omitempty"`
	Destructive bool   `json:"destructive,omitempty"`
	// Sandbox is the English of SandboxNote, which the window words in its language.
	Sandbox     string        `json:"sandbox,omitempty"`
	SandboxNote *i18n.Message `json:"sandboxNote,omitempty"`
}

// Options configure a Gate. The zero value asks in risky mode, keeps "always"
// in memory only and masks nothing.
type Options struct {
	// Rules returns the current settings (read at every call, so a changed
	// config applies at once); nil means risky mode without overrides.
	Rules func() Rules
	// Grant saves "always allow tool" (to config tools.approval.always); nil
	// keeps it in memory only.
	Grant func(tool string) error
	// Workspace locates the memory files, which risky mode lets the agent write
	// (read at every call: the workspace can move while Hearth runs).
	Workspace func() string
	// Mask hides secrets in the arguments shown by Pendings.
	Mask func(string) string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Gate implements tools.Gate. It is safe for concurrent use; grants "for this
// chat" and pending calls live in memory only, so neither survives a restart
// (a continued run asks again).
type Gate struct {
	opts Options

	mu      sync.Mutex
	pending map[string]*waiter // by runID + "\x00" + callID
	chat    map[string]set     // session id → tools allowed for the chat
	always  set                // granted always without a Grant func
}

type set map[string]bool

type waiter struct {
	info Pending
	ch   chan Decision // buffered: Approve never blocks
}

// New returns a Gate.
func New(opts Options) *Gate {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Gate{opts: opts, pending: map[string]*waiter{}, chat: map[string]set{}, always: set{}}
}

func (g *Gate) rules() Rules {
	if g.opts.Rules == nil {
		return Rules{Mode: ModeRisky}
	}
	return g.opts.Rules()
}

// Verdict is what the rules say about a call before anyone is asked.
type Verdict int

const (
	// Run: the call needs no approval.
	Run Verdict = iota
	// Ask: the call needs approval.
	Ask
	// AllowedAlways: it would need approval, but tools.approval.always allows it.
	AllowedAlways
	// Never: tools.approval.never denies it.
	Never
)

// Judge applies the current rules to a call of tool with its decoded args;
// why says why the call needs approval (also for AllowedAlways).
func (g *Gate) Judge(tool string, args tools.Args) (v Verdict, why i18n.Message) {
	r := g.rules()
	if slices.Contains(r.Never, tool) {
		return Never, why
	}
	switch {
	case slices.Contains(r.Ask, tool):
		why = i18n.M("gate.why.toolAsk")
	case r.Mode == ModeAsk:
		why = i18n.M("gate.why.ask")
	case r.Mode == ModeRisky:
		why = Risk(g.workspace(), tool, args)
	}
	switch {
	case why.Code == "":
		return Run, why
	case slices.Contains(r.Always, tool):
		return AllowedAlways, why
	}
	return Ask, why
}

// Check implements tools.Gate.
func (g *Gate) Check(ctx context.Context, c tools.GateCall) tools.GateDecision {
	emit := func(state, scope string) {
		if c.Emit != nil {
			d := event.ApprovalData{CallID: c.CallID, State: state, Scope: scope}
			if state == StateRequested {
				d.Dir, d.Destructive = c.Preview.Dir, c.Preview.Destructive
				if n := c.Preview.Sandbox; n != nil {
					d.Sandbox, d.SandboxNote = n.String(), &event.Line{Code: n.Code, Args: n.Args}
				}
			}
			c.Emit(d)
		}
	}
	verdict, why := g.Judge(c.Name, c.Args)
	switch verdict {
	case Never:
		emit(StateDenied, ScopeNever)
		return tools.GateDecision{Reason: fmt.Sprintf("the user does not allow %s (tools.approval.never) — do not retry this call", c.Name),
			Why: i18n.M("gate.refused.never", "tool", c.Name)}
	case Run:
		return tools.GateDecision{Allow: true}
	case AllowedAlways:
		emit(StateAllowed, ScopeAlways)
		return tools.GateDecision{Allow: true}
	}
	g.mu.Lock()
	byChat, byAlways := g.chat[c.SessionID][c.Name], g.always[c.Name]
	g.mu.Unlock()
	switch {
	case byChat:
		emit(StateAllowed, ScopeChat)
		return tools.GateDecision{Allow: true}
	case byAlways:
		emit(StateAllowed, ScopeAlways)
		return tools.GateDecision{Allow: true}
	case c.Unattended:
		if slices.Contains(c.AllowTools, c.Name) {
			emit(StateAllowed, ScopeJob)
			return tools.GateDecision{Allow: true}
		}
		emit(StateDenied, ScopeUnattended)
		if c.Notice != nil {
			c.Notice(i18n.M("gate.notice.unattended", "tool", c.Name))
		}
		return tools.GateDecision{Reason: fmt.Sprintf("%s needs the user's approval and this run is unattended, so it was denied — do not retry this call", c.Name),
			Why: i18n.M("gate.refused.unattended", "tool", c.Name)}
	}
	return g.wait(ctx, c, why, emit)
}

// wait registers the call, announces it and blocks until Approve answers or
// the run stops.
func (g *Gate) wait(ctx context.Context, c tools.GateCall, why i18n.Message, emit func(state, scope string)) tools.GateDecision {
	args := string(c.Args.JSON())
	if g.opts.Mask != nil {
		args = g.opts.Mask(args)
	}
	if !json.Valid([]byte(args)) {
		b, _ := json.Marshal(args)
		args = string(b)
	}
	w := &waiter{ch: make(chan Decision, 1), info: Pending{RunID: c.RunID, SessionID: c.SessionID, CallID: c.CallID,
		Tool: c.Name, Args: json.RawMessage(args), Why: why, Reason: why.String(), Since: g.opts.Now(),
		Dir: c.Preview.Dir, Destructive: c.Preview.Destructive, SandboxNote: c.Preview.Sandbox}}
	if w.info.SandboxNote != nil {
		w.info.Sandbox = w.info.SandboxNote.String()
	}
	key := c.RunID + "\x00" + c.CallID
	g.mu.Lock()
	g.pending[key] = w
	g.mu.Unlock()
	// Registered before the event: a sink may answer from inside Emit.
	emit(StateRequested, "")
	select {
	case d := <-w.ch:
		if d == Deny {
			emit(StateDenied, ScopeUser)
			return tools.GateDecision{Why: i18n.M("gate.refused.user")}
		}
		emit(StateAllowed, string(d))
		return tools.GateDecision{Allow: true}
	case <-ctx.Done():
		g.mu.Lock()
		delete(g.pending, key)
		g.mu.Unlock()
		if errors.Is(context.Cause(ctx), tools.ErrDeniedInstead) {
			// The person said no and wrote instead: their denial, not a stop.
			emit(StateDenied, ScopeUser)
			return tools.GateDecision{Why: i18n.M("gate.refused.user")}
		}
		emit(StateDenied, ScopeCancelled)
		return tools.GateDecision{Reason: "not run: the run was stopped while the call waited for approval",
			Why: i18n.M("gate.refused.cancelled")}
	}
}

// Approve answers a pending call. Chat and Always also answer the other
// pending calls they cover. Always is saved first: if saving fails, the call
// keeps waiting and the error says why.
func (g *Gate) Approve(runID, callID string, d Decision) error {
	if _, err := ParseDecision(string(d)); err != nil {
		return err
	}
	key := runID + "\x00" + callID
	g.mu.Lock()
	w, ok := g.pending[key]
	g.mu.Unlock()
	if !ok {
		return fmt.Errorf("approve call %s of run %s: %w (hint: it was answered already or its run ended; a continued run asks again)", callID, runID, ErrNoPending)
	}
	tool, sess := w.info.Tool, w.info.SessionID
	if d == Always {
		if g.opts.Grant != nil {
			if err := g.opts.Grant(tool); err != nil {
				return fmt.Errorf("always allow %s: %w (hint: the call still waits; allow it once or for this chat)", tool, err)
			}
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	switch d {
	case Chat:
		if g.chat[sess] == nil {
			g.chat[sess] = set{}
		}
		g.chat[sess][tool] = true
	case Always:
		if g.opts.Grant == nil {
			g.always[tool] = true
		}
	}
	if _, still := g.pending[key]; !still {
		return fmt.Errorf("approve call %s of run %s: %w (hint: the run stopped meanwhile)", callID, runID, ErrNoPending)
	}
	g.answer(key, d)
	if d == Chat || d == Always {
		for k, o := range g.pending {
			if o.info.Tool == tool && (d == Always || o.info.SessionID == sess) {
				g.answer(k, d)
			}
		}
	}
	return nil
}

// answer delivers d to a waiter; g.mu is held.
func (g *Gate) answer(key string, d Decision) {
	w := g.pending[key]
	delete(g.pending, key)
	w.ch <- d
}

// Pendings lists the calls waiting for the user, oldest first.
func (g *Gate) Pendings() []Pending {
	g.mu.Lock()
	out := make([]Pending, 0, len(g.pending))
	for _, w := range g.pending {
		out = append(out, w.info)
	}
	g.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Since.Equal(out[j].Since) {
			return out[i].Since.Before(out[j].Since)
		}
		return out[i].CallID < out[j].CallID
	})
	return out
}

// ForgetChat drops the "for this chat" grants of a session (a deleted or
// archived chat).
func (g *Gate) ForgetChat(sessionID string) {
	g.mu.Lock()
	delete(g.chat, sessionID)
	g.mu.Unlock()
}

func (g *Gate) workspace() string {
	if g.opts.Workspace == nil {
		return ""
	}
	return g.opts.Workspace()
}
