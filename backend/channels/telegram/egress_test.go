package telegram

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hearth/backend/egress"
	"hearth/backend/internal/fakebot"
)

// Through the egress guard in local-only mode, Telegram is refused before any
// dial (no DNS either), and Receive stops with the refusal instead of retrying.
func TestLocalOnlyStopsReceive(t *testing.T) {
	g := egress.New(egress.Options{LocalOnly: func() bool { return true }})
	a, err := New(Options{Token: fakebot.Token, StateDir: t.TempDir(), HTTPClient: g.Client("Telegram", 0),
		Sleep: (&sleeps{}).sleep})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	err = a.Receive(ctx, nil)
	if !errors.Is(err, egress.ErrLocalOnly) || strings.Contains(err.Error(), fakebot.Token) {
		t.Fatalf("got %v", err)
	}
	if log := g.Recent(10); len(log) == 0 || !log[0].Refused || !strings.HasPrefix(log[0].Host, "api.telegram.org") {
		t.Fatalf("egress log %+v", log)
	}
}
