package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/backend/llm"
	"hearth/backend/session"
)

// The agent benchmarks run `hearth agent -m …` as a user would, against a scripted model
// (the fake Ollama, a process of its own, $HEARTH_FAKEOLLAMA_BIN) that answers at once. What they report is the child process's own cost from getrusage: CPU (user +
// system), wall time and peak resident memory. Each benchmark iteration runs every case
// once, in a rotating order so that load from other processes falls on all of them alike;
// the figures are medians over the iterations.

// proc is what one `hearth` process cost.
type proc struct {
	cpu, wall time.Duration
	maxRSS    int64 // bytes
	// The largest anonymous and file-backed parts of the resident set seen while the
	// process ran (sampled every millisecond): anonymous memory is what the process
	// allocated (Go's heap, stacks, the runtime's own), file-backed memory is the pages of
	// the binary and libraries it mapped, which is about the same for `hearth version`.
	peakAnon, peakFile int64 // bytes
}

// home is a prepared $HOME for `hearth`: config, workspace and (after the warm-up run) the
// files a first start writes. Each measured run gets a fresh copy, so every run does the
// same work.
type home struct {
	template string
	url      string
}

// agentConfig keeps the measured work to the turn itself: a window large enough that
// memory consolidation never starts (its model calls are a feature of their own, measured
// nowhere here) and room for 80 tool rounds.
const agentConfig = `{"agents":{"defaults":{"model":"ollama/qwen3:4b","maxToolIterations":100,"memoryWindow":1000000,
 "recallBlock":{"enabled":false}}}}`

// model is the scripted fake Ollama.
type model struct{ url string }

// reply is one scripted answer, in the fake's JSON.
type reply struct {
	Content         string     `json:"content,omitempty"`
	ToolCalls       []toolCall `json:"toolCalls,omitempty"`
	PromptEvalCount int        `json:"promptEvalCount,omitempty"`
	EvalCount       int        `json:"evalCount,omitempty"`
}

type toolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// startModel starts the fake Ollama with extra flags (a -script).
func startModel(b *testing.B, flags ...string) *model {
	b.Helper()
	bin := binary(b, "HEARTH_FAKEOLLAMA_BIN")
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, flags...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "fakeollama listening on ")
	if err != nil || !ok {
		b.Fatalf("fakeollama did not start: %q %v", line, err)
	}
	return &model{url: url}
}

// queue scripts the next chats.
func (m *model) queue(b *testing.B, rs ...reply) {
	b.Helper()
	body, _ := json.Marshal(rs)
	resp, err := http.Post(m.url+"/_fake/replies", "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		b.Fatalf("queue replies: HTTP %d", resp.StatusCode)
	}
}

func newHome(b *testing.B, bin string, m *model) *home {
	b.Helper()
	h := &home{template: b.TempDir(), url: m.url}
	mustWrite(b, filepath.Join(h.template, "config", "hearth", "config.json"), agentConfig)
	mustWrite(b, filepath.Join(h.template, "data", "hearth", "workspace", "notes.md"),
		"# Notes\n\n- buy milk\n- call the plumber about the kitchen tap\n- the plan: ship the beta on Friday\n")
	// A first run onboards the workspace; every measured run starts after it.
	m.queue(b, reply{Content: "Hello!"})
	h.run(b, bin, h.template, "agent", "-s", "warmup", "-m", "hello")
	if err := os.RemoveAll(filepath.Join(h.template, "data", "hearth", "sessions")); err != nil {
		b.Fatal(err)
	}
	return h
}

// copy makes a fresh home from the template.
func (h *home) copy(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	if out, err := exec.Command("cp", "-a", h.template+"/.", dir).CombinedOutput(); err != nil {
		b.Fatalf("copy home: %v\n%s", err, out)
	}
	return dir
}

func (h *home) env(dir string) []string {
	return append(isolatedEnv(dir), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
		"OLLAMA_HOST="+h.url, "DBUS_SESSION_BUS_ADDRESS=disabled:")
}

// run runs `hearth args…` in home dir and returns its cost.
func (h *home) run(b *testing.B, bin, dir string, args ...string) proc {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = h.env(dir)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Start()
	var peak func() (int64, int64)
	if err == nil {
		peak = watchRSS(cmd.Process.Pid)
		err = cmd.Wait()
	}
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("hearth %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	p := proc{
		cpu:    time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		wall:   wall,
		maxRSS: ru.Maxrss * 1024,
	}
	p.peakAnon, p.peakFile = peak()
	return p
}

// watchRSS samples RssAnon and RssFile of process pid every millisecond until it is
// gone; the returned function waits for that and gives the largest of each, in bytes.
func watchRSS(pid int) func() (anon, file int64) {
	done := make(chan struct{})
	var anon, file int64
	go func() {
		defer close(done)
		path := fmt.Sprintf("/proc/%d/status", pid)
		for {
			data, err := os.ReadFile(path)
			if err != nil {
				return
			}
			a, f, zombie := statusRSS(data)
			if zombie {
				return // exited: its memory is gone, the figures with it
			}
			anon, file = max(anon, a), max(file, f)
			time.Sleep(time.Millisecond)
		}
	}()
	return func() (int64, int64) { <-done; return anon, file }
}

// statusRSS reads RssAnon and RssFile (bytes) from a /proc/PID/status.
func statusRSS(data []byte) (anon, file int64, zombie bool) {
	for line := range strings.Lines(string(data)) {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		fields := strings.Fields(val)
		if len(fields) == 0 {
			continue
		}
		switch key {
		case "State":
			zombie = fields[0] == "Z" || fields[0] == "X"
		case "RssAnon", "RssFile":
			kb, _ := strconv.ParseInt(fields[0], 10, 64)
			if key == "RssAnon" {
				anon = kb * 1024
			} else {
				file = kb * 1024
			}
		}
	}
	return anon, file, zombie
}

func mustWrite(b *testing.B, path, content string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		b.Fatal(err)
	}
}

// readNotes is the scripted model's tool call: a small file read, the commonest call.
var readNotes = reply{
	ToolCalls:       []toolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.md"}`)}},
	PromptEvalCount: 1500, EvalCount: 20,
}

var answer = reply{Content: "All done: the notes say to buy milk and ship the beta on Friday.", PromptEvalCount: 1500, EvalCount: 15}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianInt(xs []int64) int64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// slope is the least-squares slope of ys over xs, per unit of x.
func slope(xs []int, ys []time.Duration) time.Duration {
	var sx, sy, sxx, sxy float64
	n := float64(len(xs))
	for i, x := range xs {
		fx, fy := float64(x), float64(ys[i])
		sx, sy, sxx, sxy = sx+fx, sy+fy, sxx+fx*fx, sxy+fx*fy
	}
	return time.Duration((n*sxy - sx*sy) / (n*sxx - sx*sx))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkToolRounds: one `hearth agent -m` turn in which the model calls read_file 0, 10,
// 20, 40 and 80 times before it answers. Reported: CPU and wall time per tool round (the
// slope over those turns, so start-up cancels out), the whole turn's CPU at 0 and 80
// rounds, and the peak resident memory of the 80-round turn, with its anonymous and
// file-backed parts. Targets: CPU per round ≤ 2 ms; peak memory of the 80-round turn ≤ 30 MB.
func BenchmarkToolRounds(b *testing.B) {
	bin := binary(b, "HEARTH_BIN")
	m := startModel(b)
	h := newHome(b, bin, m)
	rounds := []int{0, 10, 20, 40, 80}
	cpu := make([][]time.Duration, len(rounds))
	wall := make([][]time.Duration, len(rounds))
	var peak, anon, file []int64
	turn := 0
	for b.Loop() {
		for k := range rounds {
			i := (k + turn) % len(rounds)
			script := make([]reply, 0, rounds[i]+1)
			for range rounds[i] {
				script = append(script, readNotes)
			}
			m.queue(b, append(script, answer)...)
			p := h.run(b, bin, h.copy(b), "agent", "-m", "What do my notes say?")
			cpu[i], wall[i] = append(cpu[i], p.cpu), append(wall[i], p.wall)
			if rounds[i] == 80 {
				peak, anon, file = append(peak, p.maxRSS), append(anon, p.peakAnon), append(file, p.peakFile)
			}
		}
		turn++
	}
	mc, mw := make([]time.Duration, len(rounds)), make([]time.Duration, len(rounds))
	for i := range rounds {
		mc[i], mw[i] = median(cpu[i]), median(wall[i])
	}
	b.ReportMetric(ms(slope(rounds, mc)), "cpu-ms/round")
	b.ReportMetric(ms(slope(rounds, mw)), "wall-ms/round")
	b.ReportMetric(ms(mc[0]), "cpu-ms@0")
	b.ReportMetric(ms(mc[len(mc)-1]), "cpu-ms@80")
	b.ReportMetric(float64(medianInt(peak))/1e6, "peak-MB@80")
	b.ReportMetric(float64(medianInt(anon))/1e6, "anon-MB@80")
	b.ReportMetric(float64(medianInt(file))/1e6, "file-MB@80")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkNextTurn: `hearth agent -s ID -m` on a chat that already holds 1, 100 and 400
// turns (each a question, a read_file call and its result, and an answer: five lines and
// about 1.4 kB of the session file), the whole history choice and token budget included.
// Reported: the turn's CPU at each size and its ratio to the 1-turn chat's. Target: the
// 400-turn chat's next turn ≤ 1.3× the 1-turn chat's.
func BenchmarkNextTurn(b *testing.B) {
	bin := binary(b, "HEARTH_BIN")
	m := startModel(b)
	h := newHome(b, bin, m)
	sizes := []int{1, 100, 400}
	files := make([][]byte, len(sizes))
	for i, n := range sizes {
		files[i] = chatFile(b, n)
	}
	cpu := make([][]time.Duration, len(sizes))
	turn := 0
	for b.Loop() {
		for k := range sizes {
			i := (k + turn) % len(sizes)
			dir := h.copy(b)
			sessions := filepath.Join(dir, "data", "hearth", "sessions")
			mustWrite(b, filepath.Join(sessions, "chat.jsonl"), string(files[i]))
			m.queue(b, answer)
			p := h.run(b, bin, dir, "agent", "-s", "chat", "-m", "And what was the plan again?")
			cpu[i] = append(cpu[i], p.cpu)
		}
		turn++
	}
	base := median(cpu[0])
	for i, n := range sizes {
		b.ReportMetric(ms(median(cpu[i])), fmt.Sprintf("cpu-ms@%d", n))
	}
	for i, n := range sizes[1:] {
		b.ReportMetric(float64(median(cpu[i+1]))/float64(base), fmt.Sprintf("x@%d", n))
	}
	b.ReportMetric(0, "ns/op")
}

// chatFile is a session file of n finished turns, written by the session store itself.
// All but its last two turns are marked as consolidated into memory, as they are in a long
// chat Hearth has kept (else the turn would start a consolidation's model calls).
func chatFile(b *testing.B, n int) []byte {
	b.Helper()
	st := session.NewStore(b.TempDir(), session.Options{})
	if _, err := st.Create(session.CreateOptions{ID: "chat", Title: "Notes and plans", Model: "ollama/qwen3:4b"}); err != nil {
		b.Fatal(err)
	}
	var recs []session.Record
	for i := range n {
		run := fmt.Sprintf("r%05d", i)
		call := llm.ToolCall{ID: run + "-1", Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.md"}`)}
		recs = append(recs,
			session.MessageRecord(run, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("Question %d: what is in notes.md, and how does it bear on the plan for this week?", i)}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleTool, ToolCallID: call.ID, ToolName: "read_file",
				Content: "1\t# Notes\n" + strings.Repeat("2\t- a line of the notes file with a few words on it\n", 10)}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleAssistant, Content: strings.Repeat("The notes say a few things about the plan. ", 6)}),
			session.RunRecord(session.Run{ID: run, Status: session.StatusOK, Final: "The notes say…", Usage: llm.Usage{PromptTokens: 1500, CompletionTokens: 60}}),
		)
	}
	if err := st.Append("chat", recs...); err != nil {
		b.Fatal(err)
	}
	if n > 2 {
		if err := st.MarkConsolidated("chat", 4*(n-2)-1); err != nil {
			b.Fatal(err)
		}
	}
	p, _ := st.Path("chat")
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
