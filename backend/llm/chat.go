package llm

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"hearth/backend/i18n"
)

// attemptFunc performs one provider call, sending raw chunks to emit: text
// may still contain <think> blocks and calls printed as text; tool calls are
// structured calls as the provider parsed them. Its Response reports all but
// the message, which runChat assembles from the chunks.
type attemptFunc func(ctx context.Context, emit func(Chunk)) (Response, error)

// runChat is the provider-neutral part of Chat: it applies the text fallback,
// normalises tool calls, assembles the Response and retries per policy.
func runChat(ctx context.Context, policy RetryPolicy, req Request, fn func(Chunk), attempt attemptFunc) (Response, error) {
	offered := toolSet(toolNames(req.Tools))
	var resp Response
	err := withRetry(ctx, policy, func(ctx context.Context) (bool, error) {
		a := newAssembly(offered, fn)
		res, err := attempt(ctx, a.raw)
		if err != nil {
			// Keep what the user already saw (a cancelled or broken stream);
			// text still held back by the filter was never shown.
			resp = a.response(res)
			return a.streamed, err
		}
		a.finish()
		resp = a.response(res)
		if strings.TrimSpace(resp.Message.Content) == "" && len(resp.Message.ToolCalls) == 0 {
			msg := i18n.M("error.emptyReply")
			if resp.FinishReason == FinishLength {
				msg = i18n.M("error.cutOffReply")
			}
			return a.streamed, modelFailure(badReply(nil, msg))
		}
		return a.streamed, nil
	})
	return resp, err
}

// assembly collects one attempt's output while forwarding it to the caller.
type assembly struct {
	filter   *textFilter
	offered  map[string]bool
	fn       func(Chunk)
	streamed bool
	content  strings.Builder
	thinking strings.Builder
	calls    []ToolCall
}

func newAssembly(offered map[string]bool, fn func(Chunk)) *assembly {
	return &assembly{filter: newTextFilter(offered), offered: offered, fn: fn}
}

// raw takes one provider chunk.
func (a *assembly) raw(c Chunk) {
	switch c.Kind {
	case ChunkText:
		a.deliverAll(a.filter.write(c.Text))
	case ChunkReasoning:
		a.deliver(c)
	case ChunkToolCall:
		if c.ToolCall == nil {
			return
		}
		tc := *c.ToolCall
		tc.Unknown = !a.offered[tc.Name]
		a.deliver(Chunk{Kind: ChunkToolCall, ToolCall: &tc})
	}
}

func (a *assembly) finish() { a.deliverAll(a.filter.flush()) }

func (a *assembly) deliverAll(cs []Chunk) {
	for _, c := range cs {
		a.deliver(c)
	}
}

func (a *assembly) deliver(c Chunk) {
	if c.Kind != ChunkToolCall && c.Text == "" {
		return
	}
	switch c.Kind {
	case ChunkText:
		a.content.WriteString(c.Text)
	case ChunkReasoning:
		a.thinking.WriteString(c.Text)
	case ChunkToolCall:
		tc := *c.ToolCall
		if tc.ID == "" || a.hasID(tc.ID) {
			tc.ID = fmt.Sprintf("call_%d", len(a.calls)+1)
		}
		if len(tc.Arguments) == 0 {
			tc.Arguments = []byte("{}")
		}
		a.calls = append(a.calls, tc)
		c.ToolCall = &tc
	}
	a.streamed = true
	if a.fn != nil {
		a.fn(c)
	}
}

func (a *assembly) hasID(id string) bool {
	return slices.ContainsFunc(a.calls, func(c ToolCall) bool { return c.ID == id })
}

func (a *assembly) response(r Response) Response {
	r.Message = Message{
		Role:      RoleAssistant,
		Content:   strings.TrimSpace(a.content.String()),
		Reasoning: strings.TrimSpace(a.thinking.String()),
		ToolCalls: a.calls,
	}
	for _, c := range a.calls {
		r.TextToolCalls = r.TextToolCalls || c.FromText
	}
	if len(a.calls) > 0 && (r.FinishReason == "" || r.FinishReason == FinishStop) {
		r.FinishReason = FinishToolCalls
	}
	r.FinishReason = cmp.Or(r.FinishReason, FinishStop)
	return r
}
