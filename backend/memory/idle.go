package memory

import (
	"context"
	"errors"
	"unicode/utf8"

	"hearth/backend/llm"
)

// Idle compaction (docs/memory.md#compaction-while-idle). A chat left idle is
// consolidated in the background when its unconsolidated history is past a limit:
// IdleShare of the context window, or — once the budget leaves turns out of the
// chat's requests — half of the history its last request held (the turn-time
// trigger is "a message not saved yet was left out": this is a little below it).
// It is consolidated down to half the limit, so the next turns' requests, which
// keep about what the last one kept, find every message they leave out saved.
const IdleShare = 50 // percent of the window

// Idle consolidates a session that has gone quiet when its unconsolidated
// history is past the limit or holds Window messages. It runs in
// the caller's goroutine (the chat's idle timer) and returns how many messages
// it saved. It takes the session's one consolidation slot, after the
// consolidation the chat's last turn started, if that still runs. Cancelling ctx (a turn starting in the chat)
// stops it before its next write; the pieces saved stay saved, the rest stays in
// the chat. A failure is kept for the chat's next turn to tell (TakeFailure).
func (c *Consolidator) Idle(ctx context.Context, sessionID string) (int, error) {
	for {
		c.mu.Lock()
		if c.ctx.Err() != nil || c.hold {
			c.mu.Unlock()
			return 0, nil
		}
		running, busy := c.running[sessionID]
		if !busy {
			break // c.mu still held
		}
		c.mu.Unlock()
		select { // the turn's own consolidation first; then what is left of the share
		case <-running:
		case <-ctx.Done():
			return 0, nil
		}
	}
	done := make(chan struct{})
	c.running[sessionID] = done
	c.mu.Unlock()
	defer c.finish(sessionID, done)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { // Close cancels this one too
		select {
		case <-c.ctx.Done():
			stop()
		case <-ctx.Done():
		}
	}()
	s, err := c.opts.Sessions.Load(sessionID)
	if err != nil {
		return 0, nil // gone or unreadable: its own turn says why
	}
	c.mu.Lock()
	kept, seen := c.kept[sessionID]
	c.mu.Unlock()
	if !seen {
		kept = -1
	}
	upTo := c.idleUpTo(s.Messages(), s.Meta.LastConsolidated+1, kept)
	if upTo < 0 {
		return 0, nil
	}
	saved, total, err := c.run(ctx, sessionID, upTo, false)
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return saved, nil // it yielded to a turn or to shutdown: not a failure
	}
	if c.record(sessionID, total, err) {
		c.log.Warn("idle memory consolidation failed; the chat stays as it is", "session", sessionID, "err", err)
	}
	return saved, err
}

// idleUpTo is where an idle consolidation of msgs (unconsolidated from start)
// ends, or -1 when the chat is under the limit.
func (c *Consolidator) idleUpTo(msgs []llm.Message, start, kept int) int {
	if start >= len(msgs) {
		return -1
	}
	limit := max(c.opts.ContextTokens, 512) * IdleShare / 100
	if kept > 0 && kept < len(msgs) {
		limit = min(limit, tokensOf(msgs[kept:])/2)
	}
	if tokensOf(msgs[start:]) <= limit && len(msgs)-start < c.opts.Window {
		return -1
	}
	// Keep the newest messages within half the limit, and no more than Due would.
	tail, end := 0, len(msgs)
	for end > start && len(msgs)-end < c.opts.Window/2 {
		t := messageTokens(msgs[end-1])
		if 2*(tail+t) > limit {
			break
		}
		tail += t
		end--
	}
	// The consolidation ends at a turn's start; moving forward to one keeps
	// the tail inside its bound.
	for end < len(msgs) && msgs[end].Role != llm.RoleUser {
		end++
	}
	if end <= start {
		return -1
	}
	return end
}

func tokensOf(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		n += messageTokens(m)
	}
	return n
}

// messageTokens estimates a message as the request budget does before its
// calibration: about four characters a token (CJK is undercounted; the limit is
// half of what a request keeps, so the error stays inside it).
func messageTokens(m llm.Message) int {
	n := utf8.RuneCountInString(m.Content)
	for _, tc := range m.ToolCalls {
		n += len(tc.Name) + len(tc.Arguments)
	}
	return n/4 + 4
}

// sent records the first message of the session's last request (0: nothing
// was left out): the idle limit follows what the requests hold.
func (c *Consolidator) sent(sessionID string, firstKept int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil {
		c.kept = map[string]int{}
	}
	c.kept[sessionID] = firstKept
}
