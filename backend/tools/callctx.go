package tools

import "context"

// CallInfo says which run and session a tool call belongs to. Tools that act
// on the conversation itself (spawn reports back into its session) read it
// from their context.
type CallInfo struct {
	SessionID string
	RunID     string
	CallID    string
	// Unattended is set for runs no human watches (cron, heartbeat, subagents).
	Unattended bool
	// Channel is the run's channel ("desktop", "cli", "cron", "heartbeat", …).
	Channel string
	// RoomTokens is what the window leaves this turn's tool results (the last
	// request's prompt.Fit.TurnRoom), 0 when unknown; MaxResultChars the size
	// above which a result is spilled to a file (0: DefaultMaxResultChars). A
	// tool whose answer can be cut (memory_search) sizes it to both.
	RoomTokens     int
	MaxResultChars int
}

type callKey struct{}

// WithCall returns ctx carrying info; the agent sets it on every call.
func WithCall(ctx context.Context, info CallInfo) context.Context {
	return context.WithValue(ctx, callKey{}, info)
}

// CallFrom returns the CallInfo of ctx, if any.
func CallFrom(ctx context.Context) (CallInfo, bool) {
	info, ok := ctx.Value(callKey{}).(CallInfo)
	return info, ok
}
