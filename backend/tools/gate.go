package tools

// The gate is the question the agent loop asks before every tool call and its answer.
// It lives here, beside the calls it judges, so that the approval gate (a leaf) and the
// loop share it without approval importing the loop.

import (
	"context"
	"errors"

	"hearth/backend/event"
	"hearth/backend/i18n"
)

// Gate is consulted before every tool call. It is the hook for approval
// (human in the loop, docs/design/safety-defaults.md#approval): an approval gate emits approval events through
// GateCall.Emit, waits for the user and answers. The default allows all.
type Gate interface {
	Check(ctx context.Context, call GateCall) GateDecision
}

// GateCall describes a tool call about to run.
type GateCall struct {
	RunID     string
	SessionID string
	CallID    string
	Name      string
	// Args are the call's arguments as decoded once (tools.Registry.Prepare):
	// exactly what the tool will run with.
	Args Args
	// Preview is what the tool says of the call for the person asked (where it
	// runs, whether it destroys data).
	Preview Preview
	// Unattended is set for runs nobody watches (cron, heartbeat, subagents):
	// they must never wait for a human.
	Unattended bool
	// AllowTools are the tools the user allowed for this unattended run.
	AllowTools []string
	// Emit sends an approval event into the run's stream.
	Emit func(event.ApprovalData)
	// Notice tells the user something about the call (a warning notice in the
	// run's stream), e.g. why an unattended run denied it.
	Notice func(m i18n.Message)
}

// GateDecision is a Gate's answer.
type GateDecision struct {
	Allow bool
	// Reason is what the model reads when the call is denied; empty means
	// "denied by the user — do not retry this call".
	Reason string
	// Why is what the user reads of a denial (the window words it in its language).
	Why i18n.Message
}

// AllowAll is the default Gate.
type AllowAll struct{}

// Check implements Gate.
func (AllowAll) Check(context.Context, GateCall) GateDecision { return GateDecision{Allow: true} }

// ErrDeniedInstead is the cause of a run ended by DenyInstead: the person declined the
// calls waiting for approval and wrote something else instead. The gate answers those
// calls as denied by the user; the run ends as stopped without asking the model again.
var ErrDeniedInstead = errors.New("denied by the user, who wrote something else instead")
