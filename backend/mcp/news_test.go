package mcp

import (
	"slices"
	"testing"

	"hearth/backend/event"
)

// A server added or removed is news (as is one that connects or fails): the MCP view
// reloads on it instead of polling.
func TestManagerPublishesStateChanges(t *testing.T) {
	news := event.NewBroker[event.MCPChanged](0)
	defer news.Close()
	ch := news.Subscribe(t.Context())
	m := New(Options{News: news})
	t.Cleanup(m.Close)
	m.Set("echo", stdioServer(nil)) // not started: nothing connects
	m.Remove("gone")                // never configured: nothing changed
	m.Remove("echo")
	var got []string
	for len(ch) > 0 {
		got = append(got, (<-ch).Server)
	}
	// Added, removed (and, as it stops, the server's own state change).
	if len(got) < 2 || slices.ContainsFunc(got, func(s string) bool { return s != "echo" }) {
		t.Errorf("news %v, want echo added and removed", got)
	}
}
