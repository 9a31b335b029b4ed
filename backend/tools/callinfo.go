package tools

import "context"

// CallInfo tells a tool which run called it: tools that act on the caller's
// chat (message, cron) need the session, and unattended runs behave
// differently from chats a person watches.
type CallInfo struct {
	RunID      string
	SessionID  string
	Unattended bool
	// Channel is the run's channel ("desktop", "cli", "cron", "heartbeat", …).
	Channel string
}

type callInfoKey struct{}

// WithCallInfo returns ctx carrying info; the agent sets it for every call.
func WithCallInfo(ctx context.Context, info CallInfo) context.Context {
	return context.WithValue(ctx, callInfoKey{}, info)
}

// CallInfoFrom returns the CallInfo in ctx, if any.
func CallInfoFrom(ctx context.Context) (CallInfo, bool) {
	info, ok := ctx.Value(callInfoKey{}).(CallInfo)
	return info, ok
}
