package mcp

import (
	"context"
	"strings"
	"testing"

	"hearth/backend/config"
)

// A call that waits for a reconnect fails only with the error of an attempt that
// ended after it asked, never with the news of the loss it is waiting to recover
// from: the connection loop records the loss and announces it a moment later, and a
// call could begin waiting in between (TestCrashMidCallAndReconnect failed so, once).
// Here no attempt ends, so the call must end by its own deadline; before the fix it
// ended on the announcement whenever that woke it first (each round about one in two).
func TestWaitSessionIgnoresALateLossNotice(t *testing.T) {
	m := New(Options{})
	t.Cleanup(m.Close)
	for i := 0; i < 20; i++ {
		s := newServer(m, "s", config.MCPServer{Command: "unused"})
		s.lastErr = "connection lost: exit status 3" // recorded, not yet announced
		ctx, cancel := context.WithCancel(context.Background())
		got := make(chan error, 1)
		go func() { _, err := s.waitSession(ctx); got <- err }()
		<-s.wake   // the call has looked at the state and asked the loop for an attempt
		s.notify() // the late announcement of the loss
		cancel()   // the call's deadline
		err := <-got
		if err == nil || !strings.Contains(err.Error(), "is not connected (connection lost") {
			t.Fatalf("round %d: waitSession returned %v; want the end of its deadline, not the loss it waits to recover from", i, err)
		}
	}
}
