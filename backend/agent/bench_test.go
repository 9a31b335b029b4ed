package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/backend/agent/prompt"
	"hearth/backend/event"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
	"hearth/backend/workspace"
)

// instantProvider answers at once: a call of the no-op tool until calls
// reaches zero, then a plain answer. Only for the benchmark (tests go through
// the fake Ollama and the real client).
type instantProvider struct{ calls atomic.Int64 }

func (p *instantProvider) Chat(_ context.Context, req llm.Request, fn func(llm.Chunk)) (llm.Response, error) {
	msg := llm.Message{Role: llm.RoleAssistant}
	if p.calls.Add(-1) >= 0 {
		msg.ToolCalls = []llm.ToolCall{{ID: "call_1", Name: "noop", Arguments: json.RawMessage(`{"n":1}`)}}
	} else {
		msg.Content = "done"
		if fn != nil {
			fn(llm.Chunk{Kind: llm.ChunkText, Text: "done"})
		}
	}
	return llm.Response{Message: msg, Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 5}, ContextTokens: 8192}, nil
}

// BenchmarkLoopIteration measures the agent's own overhead per loop
// iteration (build the context, call the model, run one tool, checkpoint the
// batch, emit the events) with an instant provider, at 100 and 1 000
// history messages, with the bare PlainContext and with the real
// PromptContext (system prompt, compaction, Fit). Target: < 1 ms per iteration, growing no worse than
// linearly with the history. The reported ns/iter is (T(21 rounds) − T(1
// round)) / 20, so per-run costs (loading the session, fsync at the turn's
// ends) cancel out.
func BenchmarkLoopIteration(b *testing.B) {
	for _, c := range []struct {
		n      int
		prompt bool
	}{{100, false}, {1000, false}, {100, true}, {1000, true}} {
		name := fmt.Sprintf("history=%d/context=plain", c.n)
		if c.prompt {
			name = fmt.Sprintf("history=%d/context=prompt", c.n)
		}
		n := c.n
		b.Run(name, func(b *testing.B) {
			isolate(b)
			dir := b.TempDir()
			store := session.NewStore(filepath.Join(dir, "sessions"), session.Options{})
			if _, err := store.Create(session.CreateOptions{ID: "bench"}); err != nil {
				b.Fatal(err)
			}
			var recs []session.Record
			for i := range n {
				role := llm.RoleUser
				if i%2 == 1 {
					role = llm.RoleAssistant
				}
				recs = append(recs, session.MessageRecord("old", llm.Message{Role: role, Content: strings.Repeat("word ", 40)}))
			}
			recs = append(recs, session.RunRecord(session.Run{ID: "old", Status: session.StatusOK}))
			if err := store.Append("bench", recs...); err != nil {
				b.Fatal(err)
			}
			path, _ := store.Path("bench")
			snapshot, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			reg := tools.NewRegistry(tools.RegistryOptions{})
			_ = reg.Register(&testTool{name: "noop", readOnly: true, run: func(context.Context, tools.Args) (tools.Result, error) {
				return tools.Text("ok"), nil
			}})
			prov := &instantProvider{}
			var builder ContextBuilder
			if c.prompt {
				ws := filepath.Join(dir, "ws")
				if _, err := workspace.Onboard(ws); err != nil {
					b.Fatal(err)
				}
				pb, err := prompt.New(prompt.Options{Workspace: ws})
				if err != nil {
					b.Fatal(err)
				}
				builder = &PromptContext{System: pb.SystemPrompt, Estimator: prompt.NewEstimator()}
			}
			r, err := New(Options{Tools: reg, Store: store, DefaultModel: "x/y", MaxToolIterations: 100, Context: builder,
				Resolve: func(string) (llm.Provider, string, error) { return prov, "y", nil }})
			if err != nil {
				b.Fatal(err)
			}
			runOnce := func(rounds int) time.Duration {
				if err := os.WriteFile(path, snapshot, 0o600); err != nil {
					b.Fatal(err)
				}
				prov.calls.Store(int64(rounds))
				start := time.Now()
				res, err := r.Send(context.Background(), Request{SessionID: "bench", Text: "go"}, func(event.Event) {})
				if err != nil || res.Status != event.StatusOK {
					b.Fatalf("run: %+v %v", res, err)
				}
				return time.Since(start)
			}
			var short, long time.Duration
			b.ResetTimer()
			for range b.N {
				short += runOnce(1)
				long += runOnce(21)
			}
			per := (long - short) / time.Duration(b.N*20)
			b.ReportMetric(float64(per.Nanoseconds()), "ns/iter")
			b.ReportMetric(float64(short.Nanoseconds())/float64(b.N), "ns/run1")
		})
	}
}
