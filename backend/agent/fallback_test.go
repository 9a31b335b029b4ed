package agent

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// cloud is a provider local-only mode refuses; it counts what reaches it.
type cloud struct{ calls atomic.Int32 }

func (c *cloud) Chat(context.Context, llm.Request, func(llm.Chunk)) (llm.Response, error) {
	c.calls.Add(1)
	return llm.Response{}, errors.New("the cloud must not be asked")
}
func (c *cloud) Cloud() bool            { return true }
func (c *cloud) LocalOnlyBlocked() bool { return true }

// fallbackHarness resolves "cloud/…" to c and the rest as newHarness does, with fallbacks.
func fallbackHarness(t *testing.T, c *cloud, fallbacks []string, replies ...fakeollama.Reply) *harness {
	return newHarness(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel(),
		{Name: "small:1b", Capabilities: []string{"completion", "tools"}}}, Replies: replies}, func(o *Options) {
		local := o.Resolve
		o.Resolve = func(name string) (llm.Provider, string, error) {
			if m, ok := strings.CutPrefix(name, "cloud/"); ok {
				return c, m, nil
			}
			return local(name)
		}
		o.Tune = func() Tuning { return Tuning{DefaultModel: "ollama/gone:1b", Fallbacks: fallbacks} }
	})
}

func noticeCodes(evs []event.Event) string {
	var out []string
	for _, n := range ofType[event.NoticeData](evs) {
		out = append(out, n.Code)
	}
	return strings.Join(out, " ")
}

// A fallback local-only mode refuses is skipped: nothing reaches it, the next answers.
func TestFallbackSkipsBlockedCloud(t *testing.T) {
	c := &cloud{}
	h := fallbackHarness(t, c, []string{"ollama/gone:1b", "cloud/big", "ollama/small:1b", "cloud/big"},
		fakeollama.Reply{Content: "small answers"})
	res, evs := h.send("s1", "hi")
	if res.Status != event.StatusOK || res.Final != "small answers" {
		t.Fatalf("run %+v", res)
	}
	if n := c.calls.Load(); n != 0 {
		t.Errorf("the cloud was asked %d times", n)
	}
	if got := noticeCodes(evs); got != "notice.fallback.skipped notice.fallback.missing" {
		t.Errorf("notices %q", got)
	}
}

// After a reply with tool calls the user saw the answer start: a later failure ends
// the run, no fallback answers.
func TestFallbackNotAfterAToolRound(t *testing.T) {
	h := fallbackHarness(t, &cloud{}, []string{"ollama/small:1b"})
	h.runner.opts.Tune = func() Tuning { return Tuning{DefaultModel: "ollama/qwen3:4b", Fallbacks: []string{"ollama/small:1b"}} }
	h.fake.Enqueue(fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{call("list_dir", `{"path":"."}`)}},
		fakeollama.Reply{Status: 500, Error: "failed to load"}, fakeollama.Reply{Status: 500, Error: "failed to load"},
		fakeollama.Reply{Content: "small answers"})
	res, evs := h.send("s1", "hi")
	if res.Status != event.StatusError || strings.Contains(noticeCodes(evs), "notice.fallback") {
		t.Errorf("run %+v notices %q", res, noticeCodes(evs))
	}
	for _, r := range h.fake.ChatRequests() {
		if r.Model != "qwen3:4b" {
			t.Errorf("asked %s", r.Model)
		}
	}
}
