package bench

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkTurnCost is what recall costs a turn on the path a person takes: each turn
// is `hearth agent -m …`, a new process built from the tree, in its own $HOME, against
// the fake Ollama (a process of its own) that answers at once, at the shipped defaults
// (recall block on, embeddingModel ollama/nomic-embed-text). The fake serves the chat
// model alone ("noembed": the embedding model is not installed) or with an embedding
// model ("embed"). The workspaces:
//
//   - starter: what onboarding writes, plus a short notes.md;
//   - 5000-notes: the starter with 5 000 Markdown notes in 50 folders;
//   - 5MB-history: the starter with a 5 MB HISTORY.md;
//   - chat-400 and chat-fresh: the starter holding a chat of 400 turns; chat-400 is its
//     next turn (the chat grows by one turn each round), chat-fresh a new chat in the
//     same workspace.
//
// Every workspace was indexed by earlier turns, as a person's is. Reported: each case's
// median CPU time (user + system, from rusage) per turn, its ratio to the starter's
// (x-starter) and, for the chat, chat-400's to chat-fresh's in CPU (x-fresh) and in
// instructions (x-fresh-instr: perf stat where the machine counts them, else valgrind;
// absent when neither works). watchers counts the inotify instances `hearth agent -m
// hello` made (strace; -1 when strace is missing). Targets: x-starter ≤ 1.3 for
// 5000-notes and 5MB-history, x-fresh and x-fresh-instr ≤ 1.3, watchers 0.
func BenchmarkTurnCost(b *testing.B) {
	bin := binary(b, "HEARTH_BIN")
	models := map[string]*model{
		"noembed": startModelScript(b, `{"models":[`+chatModelJSON+`]}`),
		"embed":   startModelScript(b, `{"models":[`+chatModelJSON+`,`+embedModelJSON+`]}`),
	}
	type workspace struct {
		name string
		fill func(b *testing.B, ws, sessions string)
	}
	workspaces := []workspace{
		{"starter", func(*testing.B, string, string) {}},
		{"5000-notes", fillNotes},
		{"5MB-history", fillHistory},
		{"chat", func(b *testing.B, _, sessions string) {
			mustWrite(b, filepath.Join(sessions, "chat.jsonl"), string(chatFile(b, 400)))
		}},
	}
	type turnCase struct {
		name, mode string
		h          *home
		session    func(i int) string
		cpu        []time.Duration
	}
	var cases []*turnCase
	for _, mode := range turnModes() {
		for _, w := range workspaces {
			h := newTurnHome(b, bin, models[mode])
			w.fill(b, filepath.Join(h.template, "data", "hearth", "workspace"), filepath.Join(h.template, "data", "hearth", "sessions"))
			if w.name != "chat" {
				cases = append(cases, &turnCase{name: w.name, mode: mode, h: h, session: func(i int) string { return fmt.Sprintf("t%04d", i) }})
				continue
			}
			cases = append(cases,
				&turnCase{name: "chat-400", mode: mode, h: h, session: func(int) string { return "chat" }},
				&turnCase{name: "chat-fresh", mode: mode, h: h, session: func(i int) string { return fmt.Sprintf("fresh%04d", i) }})
		}
	}
	// A file changed within two seconds is not trusted by its stat (two writes in one
	// tick of the file system's clock look alike): the workspaces are filled well before
	// the turns, as a person's are. The index is built whole (a turn builds a big one in
	// steps across turns, as the first turns after a move would), and two turns each
	// settle it.
	time.Sleep(3 * time.Second)
	for _, c := range cases {
		if c.name != "chat-fresh" {
			c.h.run(b, bin, c.h.template, "memory", "reindex")
		}
		for i := range 2 {
			c.h.run(b, bin, c.h.template, "agent", "-s", c.session(-1-i), "-m", "what did the gardener say about the plum tree?")
		}
	}
	round := 0
	for b.Loop() {
		for k := range cases {
			c := cases[(k+round)%len(cases)]
			p := c.h.run(b, bin, c.h.template, "agent", "-s", c.session(round), "-m", "what did the gardener say about the plum tree?")
			c.cpu = append(c.cpu, p.cpu)
		}
		round++
	}
	med := map[string]time.Duration{}
	for _, c := range cases {
		med[c.name+"/"+c.mode] = median(c.cpu)
		b.ReportMetric(ms(median(c.cpu)), c.name+"-"+c.mode+"-cpu-ms")
	}
	for _, mode := range turnModes() {
		base := float64(med["starter/"+mode])
		for _, n := range []string{"5000-notes", "5MB-history"} {
			b.ReportMetric(float64(med[n+"/"+mode])/base, n+"-"+mode+"-x-starter")
		}
		b.ReportMetric(float64(med["chat-400/"+mode])/float64(med["chat-fresh/"+mode]), "chat-400-"+mode+"-x-fresh")
	}
	// Instructions: the chat's next turn against a new chat in the same workspace.
	for _, mode := range turnModes() {
		var long, fresh *turnCase
		for _, c := range cases {
			if c.mode == mode && c.name == "chat-400" {
				long = c
			} else if c.mode == mode && c.name == "chat-fresh" {
				fresh = c
			}
		}
		li, lok := instructions(b, long.h, bin, "agent", "-s", "chat", "-m", "And what was the plan again?")
		fi, fok := instructions(b, fresh.h, bin, "agent", "-s", "fresh-instr", "-m", "And what was the plan again?")
		if lok && fok && fi > 0 {
			b.ReportMetric(float64(li)/float64(fi), "chat-400-"+mode+"-x-fresh-instr")
			b.ReportMetric(float64(fi)/1e6, "chat-fresh-"+mode+"-Minstr")
		}
	}
	b.ReportMetric(float64(watchers(b, cases[0].h, bin)), "watchers")
	b.ReportMetric(0, "ns/op")
}

// turnModes are the modes measured: both, or the one HEARTH_TURNCOST_MODE names
// ("noembed" or "embed") when only one is being worked on.
func turnModes() []string {
	switch m := os.Getenv("HEARTH_TURNCOST_MODE"); m {
	case "noembed", "embed":
		return []string{m}
	}
	return []string{"noembed", "embed"}
}

const (
	chatModelJSON  = `{"name":"qwen3:4b","family":"qwen3","contextLength":40960,"capabilities":["completion","tools","thinking"]}`
	embedModelJSON = `{"name":"nomic-embed-text:latest","family":"nomic-bert","contextLength":2048,"capabilities":["embedding"]}`
	// turnConfig is the shipped defaults but for a window large enough that memory
	// consolidation never starts (its model calls are a feature of their own).
	turnConfig = `{"agents":{"defaults":{"model":"ollama/qwen3:4b","memoryWindow":1000000}}}`
)

// startModelScript starts the fake Ollama serving script (its JSON).
func startModelScript(b *testing.B, script string) *model {
	b.Helper()
	p := filepath.Join(b.TempDir(), "script.json")
	mustWrite(b, p, script)
	return startModel(b, "-script", p)
}

// newTurnHome is a $HOME at the shipped defaults, onboarded by a first turn. Its turns
// run in it (no copy): the recall index is kept per workspace path.
func newTurnHome(b *testing.B, bin string, m *model) *home {
	b.Helper()
	h := &home{template: b.TempDir(), url: m.url}
	mustWrite(b, filepath.Join(h.template, "config", "hearth", "config.json"), turnConfig)
	mustWrite(b, filepath.Join(h.template, "data", "hearth", "workspace", "notes.md"),
		"# Notes\n\n- buy milk\n- call the plumber about the kitchen tap\n- the plan: ship the beta on Friday\n")
	h.run(b, bin, h.template, "agent", "-s", "onboarding", "-m", "hello")
	return h
}

func fillNotes(b *testing.B, ws, _ string) {
	for i := range 5000 {
		mustWrite(b, filepath.Join(ws, "notes", fmt.Sprintf("d%02d", i%50), fmt.Sprintf("note%04d.md", i)), turnText(i, 6))
	}
}

func fillHistory(b *testing.B, ws, _ string) {
	var h strings.Builder
	at := time.Date(2022, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := 0; h.Len() < 5<<20; i++ {
		fmt.Fprintf(&h, "[%s] %s\n\n", at.Add(time.Duration(i)*time.Hour).Format("2006-01-02 15:04"), turnText(i, 4))
	}
	mustWrite(b, filepath.Join(ws, "memory", "HISTORY.md"), h.String())
}

// turnWords is a made-up vocabulary of 5 000 words; turnText draws from it Zipf-like (a
// few words common, most rare), as real notes do.
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
	copy(out[300:], []string{"gardener", "plum", "tree"}) // the question's words, mid-distribution
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

var (
	perfInstr     = regexp.MustCompile(`(?m)^(\d+),[^,]*,instructions`)
	valgrindInstr = regexp.MustCompile(`I\s+refs:\s+([\d,]+)`)
)

// instructions counts the user-space instructions of one `hearth args…` in h: perf stat
// where the machine counts them, else valgrind (cachegrind without its cache model); ok
// is false when neither can.
func instructions(b *testing.B, h *home, bin string, args ...string) (n int64, ok bool) {
	b.Helper()
	out := filepath.Join(b.TempDir(), "instr.txt")
	if _, err := exec.LookPath("perf"); err == nil {
		if runCounted(h, append([]string{"perf", "stat", "-x,", "-e", "instructions:u", "-o", out, "--", bin}, args...)) == nil {
			if m := perfInstr.FindSubmatch(readOr(out)); m != nil {
				n, _ = strconv.ParseInt(string(m[1]), 10, 64)
				return n, n > 0
			}
		}
	}
	if _, err := exec.LookPath("valgrind"); err == nil {
		cmd := append([]string{"valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", "--log-file=" + out, bin}, args...)
		if err := runCounted(h, cmd); err != nil {
			b.Logf("valgrind: %v", err)
			return 0, false
		}
		if m := valgrindInstr.FindSubmatch(readOr(out)); m != nil {
			n, _ = strconv.ParseInt(strings.ReplaceAll(string(m[1]), ",", ""), 10, 64)
			return n, n > 0
		}
	}
	return 0, false
}

// watchers counts the inotify instances `hearth agent -m hello` makes (strace), -1 when
// it cannot tell.
func watchers(b *testing.B, h *home, bin string) int {
	b.Helper()
	if _, err := exec.LookPath("strace"); err != nil {
		return -1
	}
	out := filepath.Join(b.TempDir(), "strace.txt")
	if err := runCounted(h, []string{"strace", "-f", "-e", "trace=inotify_init,inotify_init1", "-o", out, bin, "agent", "-m", "hello"}); err != nil {
		b.Logf("strace: %v", err)
		return -1
	}
	n := 0
	for line := range strings.Lines(string(readOr(out))) {
		if strings.Contains(line, "inotify_init") && !strings.Contains(line, "= -1") {
			n++
		}
	}
	return n
}

// runCounted runs argv (a counter wrapping hearth) in h's home.
func runCounted(h *home, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = h.env(h.template)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, out.String())
	}
	return nil
}

func readOr(p string) []byte {
	b, _ := os.ReadFile(p)
	return b
}
