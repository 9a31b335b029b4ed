package prompt

import (
	"strings"
	"time"
)

// Channels a run can come from (docs/design/prompt-size.md#runtime-context); gateways may add more later.
const (
	ChannelDesktop   = "desktop"
	ChannelCLI       = "cli"
	ChannelCron      = "cron"
	ChannelHeartbeat = "heartbeat"
)

// RuntimeContext is the block that tells the model the current time and where
// the message came from. It goes at the end of the user message, never into
// the system prompt: a clock in the system prompt would change it every
// minute and defeat the provider's prompt cache (docs/design/prompt-size.md#stable-order). A nil tz means
// now's own location; an empty channel is left out.
func RuntimeContext(now time.Time, tz *time.Location, channel string) string {
	if tz != nil {
		now = now.In(tz)
	}
	var b strings.Builder
	b.Grow(96)
	b.WriteString("[Runtime Context]\nCurrent time: ")
	// Weekday and zone both: small models get "next Monday" and "in 2 hours"
	// wrong without them.
	b.WriteString(now.Format("2006-01-02 15:04 (Monday) MST -07:00"))
	if channel != "" {
		b.WriteString("\nChannel: ")
		b.WriteString(channel)
	}
	return b.String()
}

// AppendRuntimeContext returns the user message content with the runtime
// context block appended after a blank line.
func AppendRuntimeContext(content string, now time.Time, tz *time.Location, channel string) string {
	block := RuntimeContext(now, tz, channel)
	if strings.TrimSpace(content) == "" {
		return block
	}
	return strings.TrimRight(content, "\n") + "\n\n" + block
}
