package agent

import (
	"strings"
	"testing"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/tools"
)

// A provider error that quotes a key reaches the window, the CLI and the
// audit log masked (docs/design/safety-defaults.md#secrets): the emitter redacts error and notice texts.
func TestErrorEventsRedacted(t *testing.T) {
	const key = "sk-live-redact-me-0123456789"
	echo := fakeollama.Reply{Status: 400, Error: "invalid header Authorization: Bearer " + key}
	var observed []event.Event
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{echo, echo}}, func(o *Options) {
		o.Redact = func(s string) string { return strings.ReplaceAll(s, key, "[redacted]") }
		o.Observer = func(e event.Event) { observed = append(observed, e) }
	})
	res, evs := h.send("s", "hello")
	if res.Status != event.StatusError {
		t.Fatalf("status %s", res.Status)
	}
	errs := ofType[event.ErrorData](evs)
	if len(errs) != 1 || !strings.Contains(errs[0].Message, "[redacted]") {
		t.Fatalf("error events %+v", errs)
	}
	for _, e := range append(evs, observed...) {
		if d, ok := e.Data.(event.ErrorData); ok && strings.Contains(d.Message+d.Hint, key) {
			t.Errorf("key in the event stream: %+v", d)
		}
	}
}

// A key the model streams in pieces, split anywhere, never shows in a text
// delta: the end of a piece that may begin a key is held back until the next
// one, and the whole reply still arrives (with the key masked).
func TestStreamedKeyMaskedAcrossPieces(t *testing.T) {
	const key = "sk-live-stream-0123456789"
	m := tools.NewMasker(key)
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{Chunks: []string{"Your key is sk-", "live-str", "eam-01234", "56789 and s", "k-not-it. Bye s"}},
	}}, func(o *Options) {
		o.Redact, o.Pending = m.Mask, m.Pending
	})
	res, evs := h.send("s", "what is my key?")
	if res.Status != event.StatusOK {
		t.Fatalf("status %s", res.Status)
	}
	var text strings.Builder
	for _, d := range ofType[event.DeltaData](evs) {
		if strings.Contains(d.Text, "live") || strings.Contains(d.Text, "0123") {
			t.Errorf("a piece of the key was shown: %q", d.Text)
		}
		text.WriteString(d.Text)
	}
	if want := "Your key is [redacted] and sk-not-it. Bye s"; text.String() != want {
		t.Errorf("streamed %q, want %q", text.String(), want)
	}
	if f := ofType[event.FinishedData](evs); len(f) != 1 || strings.Contains(f[0].Final, key) {
		t.Errorf("final %+v", f)
	}
}
