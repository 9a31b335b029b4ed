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

	"github.com/adrg/xdg"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// BenchmarkTurnCost is one `hearth agent` turn as a new process makes it —
// build the app, open the recall index, recall for the message, send it to
// (fake) Ollama, close — in an empty workspace, with 5 000 Markdown notes,
// and with a 5 MB HISTORY.md, the index already built by an earlier turn.
// Target: each costs at most 1.3× the empty workspace in CPU time (the
// x-empty figures). The three take turns, one turn each in every round, so
// a shared machine's changing load falls on all of them alike.
func BenchmarkTurnCost(b *testing.B) {
	type workspace struct {
		name string
		fill func(ws string)
		env  map[string]string // its XDG folders
		cpu  time.Duration
	}
	cases := []*workspace{
		{name: "empty", fill: func(string) {}},
		{name: "5000-notes", fill: func(ws string) {
			for i := range 5000 {
				writeTB(b, filepath.Join(ws, "notes", fmt.Sprintf("d%02d", i%50), fmt.Sprintf("note%04d.md", i)), turnText(i, 6))
			}
		}},
		{name: "5MB-history", fill: func(ws string) {
			var h strings.Builder
			at := time.Date(2022, 1, 1, 9, 0, 0, 0, time.UTC)
			for i := 0; h.Len() < 5<<20; i++ {
				fmt.Fprintf(&h, "[%s] %s\n\n", at.Add(time.Duration(i)*time.Hour).Format("2006-01-02 15:04"), turnText(i, 4))
			}
			writeTB(b, filepath.Join(ws, "memory", "HISTORY.md"), h.String())
		}},
	}
	_, url := fakeollama.Start(b, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}})
	opts := Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1}}
	xdgVars := []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"}
	use := func(c *workspace) {
		for k, v := range c.env {
			os.Setenv(k, v) // setXDG restores them when the benchmark ends
		}
		xdg.Reload()
	}
	turn := func(id string) {
		a, err := New(opts)
		if err != nil {
			b.Fatal(err)
		}
		if err := a.Start(context.Background(), StartOptions{}); err != nil {
			b.Fatal(err)
		}
		run, err := a.Chat.Start(context.Background(), agent.Request{SessionID: id, Text: "what did the gardener say about the plum tree?"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res := run.Wait(); res.Status != event.StatusOK {
			b.Fatalf("run: %+v", res)
		}
		_ = a.Close(context.Background())
	}
	for _, c := range cases {
		setXDG(b)
		c.env = map[string]string{}
		for _, k := range xdgVars {
			c.env[k] = os.Getenv(k)
		}
		turn("onboarding") // so the workspace exists
		a, err := New(opts)
		if err != nil {
			b.Fatal(err)
		}
		c.fill(a.Settings.Paths().Workspace)
		// The index is built once (as the first turns or `hearth memory
		// reindex` would); the turns measured find it current.
		if _, err := a.Memory.Reindex(context.Background()); err != nil {
			b.Fatal(err)
		}
		_ = a.Close(context.Background())
	}
	// A file or folder changed within two seconds is not trusted by its stat
	// (two writes in one tick of the file system's clock look alike): the
	// memory history re-hashes it and the note walk lists it again at every
	// start. The workspaces were filled before the turns measured, as a
	// person's are: the turns start after that window.
	time.Sleep(3 * time.Second)
	for _, c := range cases {
		use(c)
		turn("warm-up")
	}
	i := 0
	for b.Loop() {
		i++
		for _, c := range cases {
			use(c)
			// CPU time (the process's, fake Ollama included) is the figure
			// compared: wall time on a shared, loaded machine is mostly waiting.
			cpu0 := cpuTime()
			turn(fmt.Sprintf("t%d", i))
			c.cpu += cpuTime() - cpu0
		}
	}
	empty := float64(cases[0].cpu)
	for _, c := range cases {
		b.ReportMetric(float64(c.cpu.Microseconds())/1000/float64(b.N), c.name+"-cpu-ms/turn")
		if c != cases[0] && empty > 0 {
			b.ReportMetric(float64(c.cpu)/empty, c.name+"-x-empty")
		}
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
