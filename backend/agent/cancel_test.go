//go:build unix

package agent

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// gone reports whether pid has exited (or is a zombie waiting for a reaper).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] == "Z"
}

func waitFile(t *testing.T, path string, within time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			return strings.TrimSpace(string(b))
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear within %v", path, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestStopKillsRunningExecWithinOneSecond(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("exec", `{"command":"sleep 30 & echo $! > sleep.pid; wait"}`)}},
		{Content: "never asked"},
	}})
	rec := newRecorder()
	run, err := h.runner.Start(context.Background(), Request{SessionID: "c", Text: "sleep"}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, event.ToolCall, 5*time.Second)
	pid, _ := strconv.Atoi(waitFile(t, filepath.Join(h.ws, "sleep.pid"), 5*time.Second))
	t0 := time.Now()
	if !h.runner.Stop("c") {
		t.Fatal("Stop found no run")
	}
	res := run.Wait()
	latency := time.Since(t0)
	t.Logf("stop → run_finished with exec sleep 30 running: %v", latency)
	if latency > time.Second {
		t.Errorf("stop took %v, want < 1 s (docs/design/agent-loop.md#stopping-a-run)", latency)
	}
	if res.Status != event.StatusCancelled {
		t.Errorf("status %s", res.Status)
	}
	deadline := time.Now().Add(time.Second)
	for !gone(pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !gone(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("sleep (pid %d) survived the stop", pid)
	}
	evs := rec.all()
	checkEvents(t, evs)
	if r := ofType[event.ToolResultData](evs); len(r) != 1 || r[0].OK {
		t.Errorf("tool results %+v", r)
	}
	if n := len(h.fake.ChatRequests()); n != 1 {
		t.Errorf("the model was called again after the stop: %d requests", n)
	}
	// The batch and the cancelled run are on disk; nothing is interrupted.
	sess, _ := h.store.Load("c")
	if len(sess.Entries) != 3 || len(sess.Runs) != 1 || sess.Runs[0].Status != event.StatusCancelled || len(sess.Interrupted) != 0 {
		t.Errorf("session %+v", sess)
	}
}

func TestStopDuringModelStream(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "I am typing slowly", Hang: true}}})
	rec := newRecorder()
	run, err := h.runner.Start(context.Background(), Request{SessionID: "m", Text: "talk"}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "I am typing slowly")
	t0 := time.Now()
	h.runner.Stop("m")
	res := run.Wait()
	latency := time.Since(t0)
	t.Logf("stop → run_finished during a hanging stream: %v", latency)
	if latency > time.Second || res.Status != event.StatusCancelled || res.Final != "I am typing slowly" {
		t.Errorf("after %v: %+v", latency, res)
	}
	checkEvents(t, rec.all())
	sess, _ := h.store.Load("m")
	if last := sess.Entries[len(sess.Entries)-1]; last.Content != "I am typing slowly" || sess.Runs[0].Status != event.StatusCancelled {
		t.Errorf("the partial answer the user saw is kept: %+v", sess)
	}
}

func TestShutdownLeavesRunInterruptedAndContinueFinishesIt(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("list_dir", `{"path":"."}`)}},
		{ToolCalls: []fakeollama.ToolCall{call("wait", `{}`)}},
		{Content: "Done after restart."},
	}})
	_ = h.reg.Register(&testTool{name: "wait", run: func(ctx context.Context, _ tools.Args) (tools.Result, error) {
		<-ctx.Done()
		return tools.Result{}, ctx.Err()
	}})
	rec := newRecorder()
	run, err := h.runner.Start(context.Background(), Request{SessionID: "sd", Text: "work"}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	for len(ofType[event.ToolCallData](rec.all())) < 2 {
		rec.waitFor(t, event.ToolCall, 5*time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := h.runner.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusInterrupted {
		t.Errorf("status %s", res.Status)
	}
	checkEvents(t, rec.all())
	if _, err := h.runner.Start(context.Background(), Request{SessionID: "x", Text: "hi"}, nil); err == nil {
		t.Error("a runner that shut down accepted a run")
	}
	sess, _ := h.store.Load("sd")
	if len(sess.Interrupted) != 1 || len(sess.Interrupted[0].Entries) != 3 {
		t.Fatalf("interrupted %+v", sess.Interrupted)
	}
	r2, _ := New(h.runner.opts)
	r2.opts.Store = session.NewStore(h.store.Dir(), session.Options{})
	continueAndCheck(t, r2, "sd", run.ID, "Done after restart.")
}

// continueAndCheck resumes the interrupted run of session id and checks it
// finished under its own run id with the answer want.
func continueAndCheck(t *testing.T, r *Runner, id, runID, want string) {
	t.Helper()
	rec := newRecorder()
	run, err := r.Continue(context.Background(), id, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	res := run.Wait()
	evs := rec.all()
	checkEvents(t, evs)
	if res.Status != event.StatusOK || res.Final != want || run.ID != runID || !ofType[event.StartedData](evs)[0].Continued {
		t.Fatalf("continued run %+v %s", res, describe(evs))
	}
	sess, _ := r.opts.Store.Load(id)
	if len(sess.Interrupted) != 0 || len(sess.Runs) != 1 || sess.Runs[0].ID != runID || sess.Runs[0].Final != want {
		t.Errorf("after continue: %+v", sess)
	}
	if _, err := r.Continue(context.Background(), id, nil); err == nil {
		t.Error("continue with nothing interrupted succeeded")
	}
}

// TestCrashMidTurnThenContinue re-executes the test binary as a child that
// runs a turn and is SIGKILLed inside a slow tool; the session must show the
// interrupted turn with its first batch, and Continue must complete it.
func TestCrashMidTurnThenContinue(t *testing.T) {
	if os.Getenv("HEARTH_AGENT_CRASH_CHILD") != "" {
		crashChild(t)
		return
	}
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{
		{ToolCalls: []fakeollama.ToolCall{call("list_dir", `{"path":"."}`)}},
		{ToolCalls: []fakeollama.ToolCall{call("slow", `{}`)}},
		{Content: "Finished after the crash."},
	}})
	marker := filepath.Join(t.TempDir(), "slow.started")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashMidTurnThenContinue$", "-test.count=1")
	cmd.Env = append(os.Environ(), "HEARTH_AGENT_CRASH_CHILD=1", "CRASH_URL="+h.url,
		"CRASH_STORE="+h.store.Dir(), "CRASH_WS="+h.ws, "CRASH_MARKER="+marker)
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("child never reached the slow tool:\n%s", out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	sess, err := h.store.Load("crash")
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Interrupted) != 1 || len(sess.Runs) != 0 {
		t.Fatalf("after the crash: interrupted %+v, runs %+v", sess.Interrupted, sess.Runs)
	}
	in := sess.Interrupted[0]
	if len(in.Entries) != 3 || in.Entries[0].Content != "list and wait" || in.Entries[1].ToolCalls[0].Name != "list_dir" || in.Entries[2].Role != llm.RoleTool {
		t.Fatalf("partial turn %+v", in.Entries)
	}
	continueAndCheck(t, h.runner, "crash", in.RunID, "Finished after the crash.")
	// The continued request carried the checkpointed batch.
	reqs := h.fake.ChatRequests()
	last := reqs[len(reqs)-1].Messages
	if len(reqs) != 3 || last[len(last)-1].Role != "tool" {
		t.Errorf("continued request: %d requests, ends with %+v", len(reqs), last[len(last)-1])
	}
}

// crashChild is the child of TestCrashMidTurnThenContinue: it runs a turn
// whose second tool blocks until the parent kills the process.
func crashChild(t *testing.T) {
	store := session.NewStore(os.Getenv("CRASH_STORE"), session.Options{})
	reg := tools.NewRegistry(tools.RegistryOptions{})
	_ = reg.Register(tools.Builtins(tools.Options{Policy: tools.Policy{Workspace: os.Getenv("CRASH_WS")}})...)
	_ = reg.Register(&testTool{name: "slow", run: func(ctx context.Context, _ tools.Args) (tools.Result, error) {
		_ = os.WriteFile(os.Getenv("CRASH_MARKER"), []byte("1"), 0o644)
		time.Sleep(time.Minute)
		return tools.Text("never"), nil
	}})
	prov, _ := llm.NewOllama(llm.OllamaConfig{Host: os.Getenv("CRASH_URL")})
	r, err := New(Options{Tools: reg, Store: store, DefaultModel: "ollama/qwen3:4b",
		Resolve: func(string) (llm.Provider, string, error) { return prov, "qwen3:4b", nil }})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Send(context.Background(), Request{SessionID: "crash", Text: "list and wait"}, nil)
	t.Fatalf("the child should have been killed, but the run ended: %+v %v", res, err)
}
