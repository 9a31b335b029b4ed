package memory

import (
	"context"
	"strings"
	"testing"

	"hearth/backend/llm"
	"hearth/backend/session"
)

// An idle chat under the share is left alone: no model call, no cursor move.
func TestIdleUnderShareDoesNothing(t *testing.T) {
	f := newConsFixture(t, 1) // two short messages, Window 4
	n, err := f.c.Idle(context.Background(), f.id)
	if err != nil || n != 0 || len(f.fake.ChatRequests()) != 0 || f.cursor(t) != session.NoneConsolidated {
		t.Fatalf("idle under the share: saved %d, err %v, %d requests, cursor %d", n, err, len(f.fake.ChatRequests()), f.cursor(t))
	}
}

// Past the share, the older messages are saved and a tail inside the window
// stays unconsolidated; every message stays in the chat.
func TestIdleConsolidatesPastShare(t *testing.T) {
	f := newConsFixture(t, 0)
	long := strings.Repeat("a sentence about the sourdough starter and its feeding. ", 20) // ~280 tokens
	for range 12 {
		if err := f.sessions.Append(f.id,
			session.MessageRecord("r", llm.Message{Role: llm.RoleUser, Content: long}),
			session.MessageRecord("r", llm.Message{Role: llm.RoleAssistant, Content: "noted"})); err != nil {
			t.Fatal(err)
		}
	}
	f.c.opts.Window = 1000 // only the share triggers
	f.fake.Enqueue(saveCall("Talked about the starter.", "- Lives in Porto.\n"), saveCall("More on the starter.", "- Lives in Porto.\n"))
	n, err := f.c.Idle(context.Background(), f.id)
	if err != nil || n == 0 {
		t.Fatalf("saved %d, err %v", n, err)
	}
	cur := f.cursor(t)
	if cur < 0 || cur >= 23 || cur%2 != 1 {
		t.Errorf("cursor %d: want a turn boundary before the tail", cur)
	}
	s, _ := f.sessions.Load(f.id)
	if len(s.Messages()) != 24 {
		t.Errorf("messages %d, want all 24 kept", len(s.Messages()))
	}
	tail := 0
	for _, m := range s.Messages()[cur+1:] {
		tail += messageTokens(m)
	}
	if 2*tail > 4096*IdleShare/100 {
		t.Errorf("tail of %d tokens left unconsolidated", tail)
	}
	if !strings.Contains(f.read(t, HistoryFile), "Talked about the starter.") {
		t.Error("no HISTORY.md entry")
	}
	// Done once, the next idle period finds nothing to do.
	if n, err := f.c.Idle(context.Background(), f.id); n != 0 || err != nil {
		t.Errorf("second idle: %d %v", n, err)
	}
}

// A cancelled idle consolidation (a turn started) is not a failure and writes
// nothing; a running consolidation of the chat goes first.
func TestIdleYields(t *testing.T) {
	f := newConsFixture(t, 8)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := f.c.Idle(ctx, f.id); n != 0 || err != nil {
		t.Fatalf("cancelled: %d %v", n, err)
	}
	if f.c.TakeFailure(f.id) != nil || f.cursor(t) != session.NoneConsolidated {
		t.Error("a yielded idle consolidation counted as a failure or moved the cursor")
	}
	// A consolidation of the chat running: Idle waits for it, and gives up with
	// its context.
	busy := make(chan struct{})
	f.c.mu.Lock()
	f.c.running[f.id] = busy
	f.c.mu.Unlock()
	ctx, cancel = context.WithCancel(context.Background())
	go cancel()
	if n, err := f.c.Idle(ctx, f.id); n != 0 || err != nil || len(f.fake.ChatRequests()) != 0 {
		t.Fatalf("busy: %d %v", n, err)
	}
	f.fake.Enqueue(saveCall("Starter talk.", "- Lives in Porto.\n"))
	go func() {
		f.c.mu.Lock()
		delete(f.c.running, f.id)
		f.c.mu.Unlock()
		close(busy)
	}()
	if n, err := f.c.Idle(context.Background(), f.id); n == 0 || err != nil {
		t.Fatalf("after the running one: %d %v", n, err)
	}
}

// A model that will not save is a failure the chat's next turn tells.
func TestIdleFailureIsTold(t *testing.T) {
	f := newConsFixture(t, 8) // 16 messages ≥ Window 4
	if _, err := f.c.Idle(context.Background(), f.id); err == nil {
		t.Fatal("no error from a model that does not call save_memory")
	}
	if f.c.TakeFailure(f.id) == nil {
		t.Error("failure not kept for the next turn")
	}
}

// Where an idle consolidation ends: under the share nothing; once the budget
// left turns out, past half of what the last request held, down to a quarter.
func TestIdleUpTo(t *testing.T) {
	c := &Consolidator{opts: ConsolidatorOptions{ContextTokens: 8192, Window: 100}}
	turnMsgs := func(n int) []llm.Message { // each turn about 100 tokens
		var out []llm.Message
		for range n {
			out = append(out, llm.Message{Role: llm.RoleUser, Content: strings.Repeat("q", 180)},
				llm.Message{Role: llm.RoleAssistant, Content: strings.Repeat("a", 200)})
		}
		return out
	}
	msgs := turnMsgs(30) // ~3 000 tokens: under half of 8 192
	if got := c.idleUpTo(msgs, 0, -1); got != -1 {
		t.Errorf("under the share, no request seen: %d", got)
	}
	if got := c.idleUpTo(msgs, 0, 0); got != -1 {
		t.Errorf("under the share, nothing left out: %d", got)
	}
	// The last request kept the newest 20 turns (40 messages, ~2 000 tokens): the
	// unconsolidated 2 000 are past half of them; consolidated down to ~500.
	got := c.idleUpTo(msgs, 20, 20)
	if got <= 20 || got%2 != 0 || tokensOf(msgs[got:])*2 > tokensOf(msgs[20:])/2 {
		t.Errorf("past half of the kept history: up to %d", got)
	}
	// Unconsolidated but few: under half of what the request held.
	if got := c.idleUpTo(msgs, 52, 20); got != -1 {
		t.Errorf("a short tail: %d", got)
	}
	// Window messages unconsolidated: consolidated whatever their size.
	c.opts.Window = 10
	if got := c.idleUpTo(turnMsgs(6), 0, -1); got <= 0 {
		t.Errorf("Window messages: %d", got)
	}
}
