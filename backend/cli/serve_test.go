package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/adrg/xdg"
	"hearth/backend/applock"
	"hearth/backend/channels"
	"hearth/backend/config"
	"hearth/backend/internal/fakebot"
	"hearth/backend/internal/fakeollama"
)

// mainModeVar makes the test binary run the command line on its own arguments: a real
// `hearth` process a test can signal, as systemd would.
const mainModeVar = "HEARTH_CLI_TEST_MAIN"

// supervised is one `hearth serve` process started as a supervisor starts it.
type supervised struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	errb bytes.Buffer
	done chan struct{}
	err  error
}

func (s *supervised) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.errb.Write(p)
}

func (s *supervised) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.errb.String()
}

// startServe starts the test binary as `hearth serve` in the environment setup made,
// under journald's JOURNAL_STREAM as the unit runs it.
func startServe(t *testing.T) *supervised {
	t.Helper()
	s := &supervised{done: make(chan struct{})}
	s.cmd = exec.Command(os.Args[0], "serve")
	s.cmd.Env = append(os.Environ(), mainModeVar+"=1", "JOURNAL_STREAM=8:1234", "GOMAXPROCS=1")
	s.cmd.Stdout, s.cmd.Stderr = s, s
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.err = s.cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			_ = s.cmd.Process.Kill()
			<-s.done
		}
	})
	return s
}

// generous bounds every wait: a loaded machine is slow, never wrong.
const generous = 90 * time.Second

func waitFor(t *testing.T, what string, s *supervised, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(generous)
	for !ok() {
		select {
		case <-s.done:
			t.Fatalf("serve exited (%v) while waiting for %s; its log:\n%s", s.err, what, s.log())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %s; serve's log:\n%s", what, generous, s.log())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop sends SIGTERM, as systemctl stop does, and wants a clean exit 0.
func (s *supervised) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	case <-time.After(generous):
		t.Fatalf("serve still running %s after SIGTERM; log:\n%s", generous, s.log())
	}
	if s.err != nil {
		t.Fatalf("serve ended with %v after SIGTERM (want exit 0); log:\n%s", s.err, s.log())
	}
	if !strings.Contains(s.log(), "msg=\"hearth serve: stopped\"") {
		t.Fatalf("no orderly stop in the log:\n%s", s.log())
	}
}

// asked reports whether the model was asked with text in the last user message.
func asked(fake *fakeollama.Server, text string) bool {
	for _, r := range fake.ChatRequests() {
		for _, m := range r.Messages {
			if m.Role == "user" && strings.Contains(m.Content, text) {
				return true
			}
		}
	}
	return false
}

// `hearth serve` under a supervisor: it runs reminders and answers in Telegram, stops in order on SIGTERM and
// lets go of the lock, runs reminders again when started again (Restart=), and a second
// serve while one runs refuses, naming it. A command beside it works as beside the
// desktop app.
func TestServeUnderASupervisor(t *testing.T) {
	if testing.Short() {
		t.Skip("starts hearth serve processes; skipped in -short mode")
	}
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Default: &fakeollama.Reply{Content: "Done."}})
	setup(t, url)
	lockFile := lockPath()
	// The channel runs under serve too: Telegram (a fake Bot API) with one person paired.
	bot := fakebot.New(t)
	t.Setenv(channels.TokenEnv, fakebot.Token)
	t.Setenv(channels.APIEnv, bot.URL)
	cfg := config.DefaultConfigFile()
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(`{"channels":{"telegram":{"enabled":true,"allowFrom":["4242"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	phone := fakebot.User{ID: 4242, FirstName: "Ana"}
	answered := func(n int) func() bool {
		return func() bool {
			c := 0
			for _, m := range bot.Messages(phone.ID) {
				if strings.Contains(m.Text, "Done.") {
					c++
				}
			}
			return c >= n
		}
	}

	first := startServe(t)
	waitFor(t, "start", first, func() bool { return strings.Contains(first.log(), "hearth serve: running") })
	if h, held, err := applock.Probe(lockFile); err != nil || !held || h.Kind != applock.KindServe || h.PID != first.cmd.Process.Pid {
		t.Fatalf("lock while serve runs: %+v held %v err %v", h, held, err)
	}
	if !strings.HasPrefix(first.log(), "<6>level=INFO ") || strings.Contains(first.log(), "time=") {
		t.Errorf("not journald's form (priority first, no time):\n%s", first.log())
	}

	// A second serve while one runs refuses, naming the holder, with the exit the unit
	// does not restart on.
	second := startServe(t)
	<-second.done
	var exit *exec.ExitError
	if !errors.As(second.err, &exit) || exit.ExitCode() != ExitHeld {
		t.Fatalf("second serve: %v, want exit %d; log:\n%s", second.err, ExitHeld, second.log())
	}
	want := "Hearth already runs here as serve (pid " + strconv.Itoa(first.cmd.Process.Pid)
	if !strings.Contains(second.log(), want) || !strings.Contains(second.log(), "systemctl --user stop hearth") {
		t.Fatalf("second serve's message lacks %q and the hint:\n%s", want, second.log())
	}

	if code, out, errOut := run(t, nil, "cron", "add", "--name", "tea", "--message", "Say the tea is ready", "--at", "+2s"); code != 0 {
		t.Fatalf("cron add: exit %d\n%s%s", code, out, errOut)
	}
	waitFor(t, "the first reminder's run", first, func() bool { return asked(fake, "Say the tea is ready") })
	waitFor(t, "the run's news in the log", first, func() bool { return strings.Contains(first.log(), "kind=reminder") })
	bot.Send(fakebot.Msg{From: phone, Text: "Are you on?"})
	waitFor(t, "an answer in Telegram", first, answered(1))
	// `hearth agent -m` beside serve works as beside the desktop app.
	if code, out, errOut := runIn(t, "", "agent", "-m", "hello there"); code != 0 || out != "Done.\n" {
		t.Fatalf("agent beside serve: exit %d, %q, %q", code, out, errOut)
	}

	first.stop(t)
	if _, held, err := applock.Probe(lockFile); held || err != nil {
		t.Fatalf("the lock is still held after serve stopped: %v", err)
	}

	// Restart=on-failure, or the next login: the reminders and the channel run again.
	// (The commands run in this process took the token out of its environment, as
	// Hearth does with every secret; the unit's environment still holds it.)
	t.Setenv(channels.TokenEnv, fakebot.Token)
	again := startServe(t)
	waitFor(t, "restart", again, func() bool { return strings.Contains(again.log(), "hearth serve: running") })
	if code, out, errOut := run(t, nil, "cron", "add", "--name", "water", "--message", "Say drink some water", "--at", "+2s"); code != 0 {
		t.Fatalf("cron add: exit %d\n%s%s", code, out, errOut)
	}
	waitFor(t, "the second reminder's run after the restart", again, func() bool { return asked(fake, "Say drink some water") })
	bot.Send(fakebot.Msg{From: phone, Text: "Still on?"})
	waitFor(t, "an answer in Telegram after the restart", again, answered(2))

	// A crash (kill -9) mid-answer on the phone leaves no lock behind: the restart
	// systemd makes takes it, tells the chat its answer was cut off, and /continue
	// goes on with that turn.
	fake.Enqueue(fakeollama.Reply{Chunks: []string{"Once upon a time"}, Hang: true})
	story := bot.Send(fakebot.Msg{From: phone, Text: "Tell me a long story"})
	waitFor(t, "the story asked of the model", again, func() bool { return asked(fake, "Tell me a long story") })
	waitFor(t, "the story's update confirmed", again, func() bool {
		for _, r := range bot.Log("getUpdates") {
			if off, _ := strconv.ParseInt(fmt.Sprint(r.Params["offset"]), 10, 64); off > story {
				return true
			}
		}
		return false
	})
	_ = again.cmd.Process.Kill()
	<-again.done
	t.Setenv(channels.TokenEnv, fakebot.Token)
	after := startServe(t)
	waitFor(t, "the start after a crash", after, func() bool { return strings.Contains(after.log(), "hearth serve: running") })
	told := func() bool {
		for _, m := range bot.Messages(phone.ID) {
			if strings.Contains(m.Text, "/continue") {
				return true
			}
		}
		return false
	}
	waitFor(t, "the phone told its answer was cut off", after, told)
	fake.Enqueue(fakeollama.Reply{Content: "And they lived happily."})
	bot.Send(fakebot.Msg{From: phone, Text: "/continue"})
	waitFor(t, "the story continued", after, func() bool {
		for _, m := range bot.Messages(phone.ID) {
			if strings.Contains(m.Text, "lived happily") {
				return true
			}
		}
		return false
	})
	after.stop(t)
}

// In this process (the signal injected): serve refuses a held lock with its exit
// code and hint, and on the stop signal closes and releases the lock.
func TestServeInProcess(t *testing.T) {
	setup(t, fakeOllama(t))
	lockFile := lockPath()
	holder, err := applock.AcquireAs(lockFile, applock.KindDesktop)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := mainEnv(&env{info: testInfo, stdout: &out, stderr: &errb, getenv: os.Getenv}, []string{"serve"})
	if code != ExitHeld || !strings.Contains(errb.String(), "Hearth already runs here as desktop (pid ") ||
		!strings.Contains(errb.String(), "quit the desktop app first") {
		t.Fatalf("serve beside the desktop: exit %d, stderr %q", code, errb.String())
	}
	_ = holder.Release()

	sigs := make(chan os.Signal, 1)
	started := make(chan struct{})
	var running bool
	e := &env{info: testInfo, stdout: &out, stderr: &errb, getenv: os.Getenv,
		interrupts: func() (<-chan os.Signal, func()) { close(started); return sigs, func() {} }}
	done := make(chan int, 1)
	go func() { done <- mainEnv(e, []string{"serve"}) }()
	<-started
	_, running, _ = applock.Probe(lockFile)
	sigs <- syscall.SIGTERM
	if code := <-done; code != 0 {
		t.Fatalf("serve after the signal: exit %d, stderr %q", code, errb.String())
	}
	if !running {
		t.Fatal("serve did not hold the lock while running")
	}
	if _, held, _ := applock.Probe(lockFile); held {
		t.Fatal("serve kept the lock after it ended")
	}
}

func TestServeLogForm(t *testing.T) {
	var b bytes.Buffer
	lg := serveLogger(&b, true)
	lg.Warn("careful", "n", 1)
	lg.Info("fine")
	lg.Error("bad")
	if got := b.String(); got != "<4>level=WARN msg=careful n=1\n<6>level=INFO msg=fine\n<3>level=ERROR msg=bad\n" {
		t.Fatalf("journald form: %q", got)
	}
	b.Reset()
	serveLogger(&b, false).Info("fine")
	if !strings.HasPrefix(b.String(), "time=") {
		t.Fatalf("a terminal gets the time: %q", b.String())
	}
}

func TestServeLockPlantedSymlink(t *testing.T) {
	root := setup(t, fakeOllama(t))
	lockFile := lockPath()
	if err := os.MkdirAll(filepath.Dir(lockFile), 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(root, "victim")
	if err := os.Symlink(target, lockFile); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, nil, "serve")
	if code != ExitRuntime || !strings.Contains(errOut, "symbolic link: remove it") || !strings.Contains(errOut, "hint:") {
		t.Fatalf("serve with a planted symlink: exit %d, %q", code, errOut)
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the symlink's target was created")
	}
}

// lockPath is hearth.lock under the state folder setup made.
func lockPath() string { return filepath.Join(xdg.StateHome, "hearth", "hearth.lock") }
