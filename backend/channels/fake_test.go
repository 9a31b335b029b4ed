package channels

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeChannel is an adapter in memory: it records what Hearth sends and lets a
// test push what people do, waiting until the Service handled it.
type fakeChannel struct {
	limit int
	in    chan pushed

	mu     sync.Mutex
	calls  []call
	nextID int
	failAt map[string]error // Send to this chat fails
}

type pushed struct {
	in   Inbound
	done chan struct{}
}

// call is one call Hearth made: Op is "send", "edit", "typing" or "answer".
type call struct {
	Op, Chat, Msg, Text string
	Buttons             [][]Button
}

func newFakeChannel() *fakeChannel { return &fakeChannel{limit: 4096, in: make(chan pushed)} }

func (f *fakeChannel) Name() string { return Telegram }
func (f *fakeChannel) Limit() int   { return f.limit }

func (f *fakeChannel) Receive(ctx context.Context, handle func(context.Context, Inbound)) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case p := <-f.in:
			handle(ctx, p.in)
			close(p.done)
		}
	}
}

func (f *fakeChannel) record(c call) {
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.mu.Unlock()
}

func (f *fakeChannel) Send(_ context.Context, chatID string, m Outbound) (string, error) {
	f.mu.Lock()
	err := f.failAt[chatID]
	f.nextID++
	id := fmt.Sprint(f.nextID)
	f.mu.Unlock()
	if err != nil {
		return "", err
	}
	f.record(call{Op: "send", Chat: chatID, Msg: id, Text: m.Text, Buttons: m.Buttons})
	return id, nil
}

func (f *fakeChannel) Edit(_ context.Context, chatID, messageID string, m Outbound) error {
	f.record(call{Op: "edit", Chat: chatID, Msg: messageID, Text: m.Text, Buttons: m.Buttons})
	return nil
}

func (f *fakeChannel) Typing(_ context.Context, chatID string) error {
	f.record(call{Op: "typing", Chat: chatID})
	return nil
}

func (f *fakeChannel) Answer(_ context.Context, p Press, text string) error {
	f.record(call{Op: "answer", Msg: p.ID, Text: text})
	return nil
}

// push hands an Inbound to the Service and waits until it was handled.
func (f *fakeChannel) push(t *testing.T, in Inbound) {
	t.Helper()
	p := pushed{in: in, done: make(chan struct{})}
	select {
	case f.in <- p:
	case <-time.After(10 * time.Second):
		t.Fatal("the Service is not receiving")
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the Service did not handle the update")
	}
}

// got are the calls of op ("" for all but typing).
func (f *fakeChannel) got(op string) []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []call
	for _, c := range f.calls {
		if (op == "" && c.Op != "typing") || c.Op == op {
			out = append(out, c)
		}
	}
	return out
}

// texts are the texts of the calls of op.
func (f *fakeChannel) texts(op string) []string {
	var out []string
	for _, c := range f.got(op) {
		out = append(out, c.Text)
	}
	return out
}

func (f *fakeChannel) reset() {
	f.mu.Lock()
	f.calls = nil
	f.mu.Unlock()
}

// waitFor waits until cond holds (the followers send from their own goroutine).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func joined(ss []string) string { return strings.Join(ss, "\n---\n") }
