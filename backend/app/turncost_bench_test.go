package app

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// BenchmarkTurnCost is one `hearth agent` turn as a new process makes it —
// build the app, open the recall index, recall for the message, send it to
// (fake) Ollama, close — in an empty workspace, with 5 000 Markdown notes,
// and with a 5 MB HISTORY.md, the index already built by an earlier turn.
// Target: each costs at most 1.3× the empty workspace in CPU time (x-empty is
// printed).
func BenchmarkTurnCost(b *testing.B) {
	var empty float64
	for _, tc := range []struct {
		name string
		fill func(ws string)
	}{
		{"empty", func(string) {}},
		{"5000-notes", func(ws string) {
			for i := range 5000 {
				writeTB(b, filepath.Join(ws, "notes", fmt.Sprintf("d%02d", i%50), fmt.Sprintf("note%04d.md", i)), turnText(i, 6))
			}
		}},
		{"5MB-history", func(ws string) {
			var h strings.Builder
			at := time.Date(2022, 1, 1, 9, 0, 0, 0, time.UTC)
			for i := 0; h.Len() < 5<<20; i++ {
				fmt.Fprintf(&h, "[%s] %s\n\n", at.Add(time.Duration(i)*time.Hour).Format("2006-01-02 15:04"), turnText(i, 4))
			}
			writeTB(b, filepath.Join(ws, "memory", "HISTORY.md"), h.String())
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			setXDG(b)
			_, url := fakeollama.Start(b, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}})
			opts := Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1}}
			turn := func(i int) {
				a, err := New(opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := a.Start(context.Background(), StartOptions{}); err != nil {
					b.Fatal(err)
				}
				run, err := a.Chat.Start(context.Background(), agent.Request{SessionID: fmt.Sprintf("t%d", i), Text: "what did the gardener say about the plum tree?"}, nil)
				if err != nil {
					b.Fatal(err)
				}
				if res := run.Wait(); res.Status != event.StatusOK {
					b.Fatalf("run: %+v", res)
				}
				_ = a.Close(context.Background())
			}
			turn(-1) // onboarding, so the workspace exists
			a, err := New(opts)
			if err != nil {
				b.Fatal(err)
			}
			tc.fill(a.Settings.Paths().Workspace)
			// The index is built once (as the first turns or `hearth memory
			// reindex` would); the turns measured find it current.
			if _, err := a.Memory.Reindex(context.Background()); err != nil {
				b.Fatal(err)
			}
			_ = a.Close(context.Background())
			turn(-2)
			i := 0
			cpu0 := cpuTime()
			for b.Loop() {
				i++
				turn(i)
			}
			// CPU time (the process's, fake Ollama included) is the figure
			// compared: wall time on a shared, loaded machine is mostly waiting.
			cpu := float64((cpuTime() - cpu0).Microseconds()) / 1000 / float64(b.N)
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/turn")
			b.ReportMetric(cpu, "cpu-ms/turn")
			if tc.name == "empty" {
				empty = cpu
			} else if empty > 0 {
				b.ReportMetric(cpu/empty, "x-empty")
			}
		})
	}
}

// turnWords is a made-up vocabulary of 5 000 words; turnText draws from it
// Zipf-like (a few words common, most rare), as real notes do.
var turnWords = func() []string {
	rng := rand.New(rand.NewPCG(1, 1))
	syll := strings.Fields("ka lo mi ren to sa vi dor el an qu ze po li mar nu")
	out := make([]string, 5000)
	for i := range out {
		var b strings.Builder
		for range 2 + rng.IntN(3) {
			b.WriteString(syll[rng.IntN(len(syll))])
		}
		out[i] = b.String()
	}
	// The query's words, somewhere in the middle of the distribution.
	copy(out[300:], []string{"gardener", "plum", "tree"})
	return out
}()

// turnText is a few sentences of everyday notes.
func turnText(seed, sentences int) string {
	rng := rand.New(rand.NewPCG(uint64(seed), 9))
	var b strings.Builder
	for range sentences {
		for range 12 {
			b.WriteString(turnWords[int(float64(len(turnWords))*rng.Float64()*rng.Float64())] + " ")
		}
		b.WriteString("today.\n")
	}
	return b.String()
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
