package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// BenchmarkToolRoundInProcess is bench/agent_test.go's 80-round turn (read_file on a
// small note, then an answer) run inside the test process, so that `-cpuprofile`
// and `-memprofile` see where a tool round's time and allocations go. The fake
// model runs in the same process: its own share shows under fakeollama and
// net/http's server. Reported: bytes and allocations per round (client and
// server together).
func BenchmarkToolRoundInProcess(b *testing.B) {
	const rounds = 80
	setXDG(b)
	srv, url := fakeollama.Start(b, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}})
	a, err := New(Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1}})
	if err != nil {
		b.Fatal(err)
	}
	if err := a.Start(context.Background(), StartOptions{}); err != nil {
		b.Fatal(err)
	}
	defer a.Close(context.Background())
	writeTB(b, a.Settings.Paths().Workspace+"/notes.md",
		"# Notes\n\n- buy milk\n- call the plumber about the kitchen tap\n- the plan: ship the beta on Friday\n")
	call := fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.md"}`)}},
		PromptEvalCount: 1500, EvalCount: 20}
	turn := func(i int) {
		for range rounds {
			srv.Enqueue(call)
		}
		srv.Enqueue(fakeollama.Reply{Content: "All done.", PromptEvalCount: 1500, EvalCount: 15})
		run, err := a.Chat.Start(context.Background(), agent.Request{SessionID: fmt.Sprintf("t%d", i), Text: "What do my notes say?",
			AllowTools: []string{"read_file"}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res := run.Wait(); res.Status != event.StatusOK {
			b.Fatalf("run: %+v", res)
		}
	}
	turn(-1)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		turn(i)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*rounds), "ms/round")
}

func writeTB(tb testing.TB, p, content string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		tb.Fatal(err)
	}
}
