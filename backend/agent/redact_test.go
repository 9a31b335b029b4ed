package agent

import (
	"strings"
	"testing"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
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
