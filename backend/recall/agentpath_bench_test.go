package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// The evidence benchmark asked the agent's way: each question is first
// saved into the live chat (the agent saves the user's message before it
// builds the request), then the block and memory_search are asked from that
// chat, the tool at the budget the default window gives it.

// pathRoom is about what prompt.Counter.RecallRoom gives a new chat at
// window with the app's system prompt and tools (about 1 900 tokens: app.TestFirstRequestSize).
func pathRoom(window int) int {
	slack := pathSlack(window)
	return min(slack*3/4, max(slack/2, 1024))
}

// pathSlack is about prompt.Fit.TurnRoom for the question alone.
func pathSlack(window int) int {
	avail := window - max(window/4, 256)
	return max(0, avail-avail/25-16-1900-50)
}

var pathMinScore = 0.2

type pathResult struct {
	block, search, blocks, spilled float64
}

func runAgentPath(tb testing.TB, window int, para bool) pathResult {
	convs, qs := evFixture()
	type conv struct {
		x   *Index
		reg *tools.Registry
		st  *session.Store
	}
	cs := make([]conv, len(convs))
	for i := range convs {
		ws, sdir := tb.TempDir(), tb.TempDir()
		convs[i].write(tb, ws)
		st := session.NewStore(sdir, session.Options{})
		if _, err := st.Create(session.CreateOptions{ID: "live", Title: "live"}); err != nil {
			tb.Fatal(err)
		}
		x := NewIndex(IndexOptions{Workspace: ws, SessionsDir: sdir})
		reg := tools.NewRegistry(tools.RegistryOptions{})
		if err := reg.Register(SearchTool(x, ToolOptions{Tokens: SearchTokens(window)})); err != nil {
			tb.Fatal(err)
		}
		cs[i] = conv{x: x, reg: reg, st: st}
	}
	defer func() {
		for _, c := range cs {
			c.x.Close()
		}
	}()
	ctx := context.Background()
	call := tools.WithCall(ctx, tools.CallInfo{SessionID: "live", RoomTokens: pathSlack(window)})
	var r pathResult
	for _, q := range qs {
		c := cs[q.conv]
		if para {
			q.text = q.para
		}
		if err := c.st.Append("live", session.MessageRecord("r", llm.Message{Role: llm.RoleUser, Content: q.text})); err != nil {
			tb.Fatal(err)
		}
		rc := &Recaller{Index: c.x, Block: BlockOptions{Enabled: true, MinScore: pathMinScore}}
		if b := rc.ForRoom(ctx, "live", q.text, pathRoom(window)); b != "" {
			r.blocks++
			if strings.Contains(b, q.evidence) {
				r.block++
			}
		}
		res := c.reg.Call(call, "memory_search", []byte(fmt.Sprintf(`{"query":%q}`, q.text)))
		if len(res.Content) > tools.DefaultMaxResultChars {
			r.spilled++
		}
		if strings.Contains(res.Content, q.evidence) {
			r.search++
		}
		if err := c.st.Append("live", session.MessageRecord("r", llm.Message{Role: llm.RoleAssistant, Content: "Let me look."})); err != nil {
			tb.Fatal(err)
		}
	}
	n := float64(len(qs))
	return pathResult{block: r.block / n, search: r.search / n, blocks: r.blocks / n, spilled: r.spilled / n}
}

// BenchmarkRecallAgentPath is BenchmarkRecallEvidence asked from the live
// chat holding the question, at the default 8 192-token window.
func BenchmarkRecallAgentPath(b *testing.B) {
	for _, para := range []bool{false, true} {
		b.Run(map[bool]string{false: "templated", true: "paraphrased"}[para], func(b *testing.B) {
			var r pathResult
			for b.Loop() {
				r = runAgentPath(b, 8192, para)
			}
			b.ReportMetric(r.block, "recall-block-hit")
			b.ReportMetric(r.blocks, "turns-with-block")
			b.ReportMetric(r.search, "memory_search-hit")
			b.ReportMetric(r.spilled, "spilled")
		})
	}
}
