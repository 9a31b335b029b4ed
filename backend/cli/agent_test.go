package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"

	"hearth/backend/app"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
)

func startChat(t *testing.T, replies ...fakeollama.Reply) *fakeollama.Server {
	t.Helper()
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}, Replies: replies})
	setup(t, url)
	return fake
}

func runIn(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = mainEnv(&env{info: testInfo, stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: os.Getenv}, args)
	return code, out.String(), errb.String()
}

func TestAgentMessageWithToolCall(t *testing.T) {
	fake := startChat(t,
		fakeollama.Reply{Thinking: "I should read it.", ToolCalls: []fakeollama.ToolCall{{Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.md"}`)}}},
		fakeollama.Reply{Content: "Your notes say: buy milk."})
	ws := filepath.Join(xdg.DataHome, "hearth", "workspace")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "notes.md"), []byte("buy milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runIn(t, "", "agent", "-m", "what do my notes say?")
	if code != 0 || out != "Your notes say: buy milk.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "↳ read_file path=notes.md\n") || !strings.Contains(errOut, "(session ") {
		t.Errorf("stderr %q", errOut)
	}
	if strings.Contains(out+errOut, "I should read it") {
		t.Errorf("reasoning shown without --show-reasoning: %q", errOut)
	}
	if tool := fake.ChatRequests()[1].Messages; !strings.Contains(tool[len(tool)-1].Content, "buy milk") {
		t.Errorf("the tool did not run in the workspace: %+v", tool[len(tool)-1])
	}
	if first := fake.ChatRequests()[0].Messages; !strings.Contains(first[len(first)-1].Content, "Channel: cli") {
		t.Errorf("the model is not told the user is in a terminal: %q", first[len(first)-1].Content)
	}
}

func TestAgentNamedSessionKeepsHistory(t *testing.T) {
	fake := startChat(t,
		fakeollama.Reply{Thinking: "Greeting.", Content: "Hi!"},
		fakeollama.Reply{Content: "You said hello."})
	code, out, errOut := runIn(t, "", "agent", "-m", "hello", "-s", "mine", "--show-reasoning")
	if code != 0 || out != "Hi!\n" || !strings.Contains(errOut, "thinking: Greeting.") || strings.Contains(errOut, "(session") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = runIn(t, "", "agent", "-m", "what did I say?", "-s", "mine")
	if code != 0 || out != "You said hello.\n" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if msgs := fake.ChatRequests()[1].Messages; len(msgs) != 4 || msgs[1].Content != "hello" {
		t.Errorf("second call did not carry the session history: %+v", msgs)
	}
}

func TestAgentOllamaDown(t *testing.T) {
	setup(t, "")
	code, out, errOut := runIn(t, "", "agent", "-m", "hello")
	if code != ExitRuntime || out != "" || !strings.Contains(errOut, "Hint: Ollama is not running") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestAgentUsageAndBadModel(t *testing.T) {
	startChat(t)
	if code, _, errOut := runIn(t, "", "agent", "stray"); code != ExitUsage {
		t.Errorf("stray argument: exit %d %q", code, errOut)
	}
	if code, _, errOut := runIn(t, "", "agent", "-m", " "); code != ExitUsage {
		t.Errorf("empty message: exit %d %q", code, errOut)
	}
	code, _, errOut := runIn(t, "", "agent", "-m", "hi", "--model", "nowhere/x")
	if code != ExitRuntime || !strings.Contains(errOut, "hint") {
		t.Errorf("bad model: exit %d %q", code, errOut)
	}
	code, _, errOut = runIn(t, "", "agent", "-m", "hi", "--model", "missing:7b")
	if code != ExitRuntime || !strings.Contains(errOut, "Hint: model not found") {
		t.Errorf("missing model: exit %d %q", code, errOut)
	}
}

func TestAgentREPL(t *testing.T) {
	fake := startChat(t, fakeollama.Reply{Content: "First answer."}, fakeollama.Reply{Content: "Second answer."})
	code, out, errOut := runIn(t, "hello\n\n/status\nand again\n/new\n", "agent")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"First answer.\n", "Model: ollama/qwen3:4b", "Second answer.\n", "Started a new chat"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "/help for commands") || !strings.Contains(errOut, "> ") {
		t.Errorf("stderr %q", errOut)
	}
	reqs := chatOnly(fake.ChatRequests()) // /new's memory consolidation asks the model too
	if len(reqs) != 2 || len(reqs[1].Messages) != 4 {
		t.Errorf("the REPL keeps one session: %d requests, last with %d messages", len(reqs), len(reqs[len(reqs)-1].Messages))
	}
}

func TestArgHint(t *testing.T) {
	cases := map[string]string{
		`{"path":"notes.md"}`:                     " path=notes.md",
		`{"command":"ls -la","timeout":30}`:       ` command="ls -la" timeout=30`,
		`{}`:                                      "",
		`{"content":"line one\nline two"}`:        ` content="line one…"`,
		`{"path":"a","recursive":true,"n":[1,2]}`: " n=[1,2] path=a recursive=true",
	}
	for in, want := range cases {
		if got := argHint(json.RawMessage(in)); got != want {
			t.Errorf("argHint(%s) = %q, want %q", in, got, want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe to read while the REPL writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestAgentREPLCtrlC(t *testing.T) {
	fake := startChat(t, fakeollama.Reply{Content: "I am slow", Hang: true})
	in, feed := io.Pipe()
	sigs := make(chan os.Signal, 1)
	var out, errb syncBuffer
	e := &env{info: testInfo, stdin: in, stdout: &out, stderr: &errb, getenv: os.Getenv,
		interrupts: func() (<-chan os.Signal, func()) { return sigs, func() {} }}
	done := make(chan int)
	go func() { done <- mainEnv(e, []string{"agent"}) }()
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; stdout %q stderr %q", what, out.String(), errb.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	_, _ = io.WriteString(feed, "talk to me\n")
	waitFor("the streamed text", func() bool { return strings.Contains(out.String(), "I am slow") })
	sigs <- os.Interrupt // Ctrl-C during an answer stops it, the REPL goes on
	waitFor("the stop", func() bool { return strings.Contains(errb.String(), "Stopped.") })
	waitFor("the next prompt", func() bool { return strings.Count(errb.String(), "> ") >= 2 })
	sigs <- os.Interrupt // first Ctrl-C at the prompt only warns
	waitFor("the warning", func() bool { return strings.Contains(errb.String(), "press Ctrl-C again") })
	select {
	case <-done:
		t.Fatal("one Ctrl-C at the prompt exited")
	case <-time.After(50 * time.Millisecond):
	}
	sigs <- os.Interrupt
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("second Ctrl-C at the prompt did not exit")
	}
	_ = feed.Close()
	if n := len(fake.ChatRequests()); n != 1 {
		t.Errorf("%d requests", n)
	}
}

// A reply cut off by a quit (the session keeps the question, no run line) is
// finished by --continue, in the same session and run.
func TestAgentContinueFinishesAnInterruptedReply(t *testing.T) {
	fake := startChat(t, fakeollama.Reply{Content: "Finished after all."})
	st := session.NewStore(filepath.Join(xdg.DataHome, "hearth", "sessions"), session.Options{})
	if _, err := st.Ensure(session.CreateOptions{ID: "cut"}); err != nil {
		t.Fatal(err)
	}
	if err := st.Append("cut", session.MessageRecord("r1", llm.Message{Role: llm.RoleUser, Content: "tell me a long story"})); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runIn(t, "", "agent", "--continue"); code != ExitUsage || !strings.Contains(errOut, "-s SESSION") {
		t.Errorf("--continue without -s: %d %q", code, errOut)
	}
	code, out, errOut := runIn(t, "", "agent", "-s", "cut", "--continue")
	if code != 0 || out != "Finished after all.\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	s, err := st.Load("cut")
	if err != nil || len(s.Interrupted) != 0 || len(s.Runs) != 1 || s.Runs[0].ID != "r1" || s.Runs[0].Status != session.StatusOK {
		t.Errorf("after --continue: %+v %v", s, err)
	}
	if msgs := fake.ChatRequests()[0].Messages; !strings.Contains(msgs[len(msgs)-1].Content, "tell me a long story") {
		t.Errorf("the continued request lacks the question: %+v", msgs)
	}
	if code, _, errOut := runIn(t, "", "agent", "-s", "cut", "--continue"); code != ExitRuntime || !strings.Contains(errOut, "nothing to continue") {
		t.Errorf("nothing left to continue: %d %q", code, errOut)
	}
}

// The agent command runs its own process on one processor unless GOMAXPROCS
// says otherwise; inside a test (not Main's process) it leaves the runtime alone.
func TestAgentOneProcessor(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	runtime.GOMAXPROCS(2)
	for _, c := range []struct {
		name string
		e    env
		want int
	}{
		{"not its own process", env{getenv: func(string) string { return "" }}, 2},
		{"GOMAXPROCS set", env{ownProcess: true, getenv: func(k string) string {
			return map[string]string{"GOMAXPROCS": "2"}[k]
		}}, 2},
		{"its own process", env{ownProcess: true, getenv: func(string) string { return "" }}, 1},
	} {
		runtime.GOMAXPROCS(2)
		oneProcessor(&c.e)
		if got := runtime.GOMAXPROCS(0); got != c.want {
			t.Errorf("%s: GOMAXPROCS %d, want %d", c.name, got, c.want)
		}
	}
}

// `hearth agent -m` starts no memory-file watcher: no command needs one, and closing it
// costs the command milliseconds of kernel wait at exit.
func TestAgentStartsNoWatcher(t *testing.T) {
	startChat(t, fakeollama.Reply{Content: "Hello!"})
	var out, errb bytes.Buffer
	checked := false
	e := &env{info: testInfo, stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: os.Getenv,
		afterStart: func(a *app.App) {
			checked = true
			if a.Memory.Watching() {
				t.Error("the command line started the memory watcher")
			}
			if a.Knowledge.Watching() {
				t.Error("the command line started the knowledge folders' watcher")
			}
		}}
	if code := mainEnv(e, []string{"agent", "-m", "hello"}); code != 0 || out.String() != "Hello!\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	if !checked {
		t.Fatal("the agent command did not start the services")
	}
}
