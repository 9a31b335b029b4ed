package memory

import (
	"context"
	"errors"
	"unicode/utf8"

	"hearth/backend/llm"
)

// Idle compaction (docs/memory.md#compaction-while-idle): a chat left idle
// whose unconsolidated history holds more than IdleShare of the context
// window is consolidated in the background, down to a tail of at most
// IdleTail of the window, so the next turns' own consolidation trigger (the
// turns the budget leaves out) finds them saved already.
const (
	// IdleShare is the share of the window, in percent, unconsolidated history
	// must pass: below the history a request holds once the system prompt, the
	// tools and the reply's room are taken (about 40% of 4 096 tokens, half of
	// 8 192), so a chat whose last turn consolidated what it left out is
	// compacted further, and the next turns do not need to.
	IdleShare = 30
	// IdleTail is the share of the window, in percent, of newest history left
	// unconsolidated: well inside what the next request keeps, so several
	// turns pass before the budget leaves out a message not saved yet.
	IdleTail = 15
)

// Idle consolidates a session that has gone quiet when its unconsolidated
// history is past IdleShare of the window or holds Window messages; it runs in
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
	upTo := c.idleUpTo(s.Messages(), s.Meta.LastConsolidated+1)
	if upTo < 0 {
		return 0, nil
	}
	saved, total, err := c.run(ctx, sessionID, upTo, false)
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return saved, nil // it yielded to a turn or to shutdown: not a failure
	}
	c.mu.Lock()
	if err != nil {
		c.failed[sessionID] = failure{err: err, messages: total}
	} else {
		delete(c.failed, sessionID)
	}
	c.mu.Unlock()
	if err != nil {
		c.log.Warn("idle memory consolidation failed; the chat stays as it is", "session", sessionID, "err", err)
	}
	return saved, err
}

// idleUpTo is where an idle consolidation of msgs (unconsolidated from start)
// ends, or -1 when the chat is not past the threshold.
func (c *Consolidator) idleUpTo(msgs []llm.Message, start int) int {
	if start >= len(msgs) {
		return -1
	}
	window := max(c.opts.ContextTokens, 512)
	tokens := 0
	for _, m := range msgs[start:] {
		tokens += messageTokens(m)
	}
	if tokens*100 <= window*IdleShare && len(msgs)-start < c.opts.Window {
		return -1
	}
	// Keep the newest messages that fit in IdleTail of the window, and no more
	// than Due would keep.
	tail, end := 0, len(msgs)
	for end > start && len(msgs)-end < c.opts.Window/2 {
		t := messageTokens(msgs[end-1])
		if (tail+t)*100 > window*IdleTail {
			break
		}
		tail += t
		end--
	}
	// The consolidation ends at a turn's start; moving forward to one keeps
	// the tail inside its share.
	for end < len(msgs) && msgs[end].Role != llm.RoleUser {
		end++
	}
	if end <= start {
		return -1
	}
	return end
}

// messageTokens estimates a message as the request budget does: about four
// characters a token (CJK is undercounted; the tail is a quarter of the window,
// so the error stays inside what the request keeps).
func messageTokens(m llm.Message) int {
	n := utf8.RuneCountInString(m.Content)
	for _, tc := range m.ToolCalls {
		n += len(tc.Name) + len(tc.Arguments)
	}
	return n/4 + 4
}

// CompactIdle is the chat's idle consolidation (Consolidator.Idle) in the current
// workspace.
func (s *Service) CompactIdle(ctx context.Context, sessionID string) (int, error) {
	_, _, c := s.parts()
	return c.Idle(ctx, sessionID)
}
