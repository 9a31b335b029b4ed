package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	osbox "hearth/backend/sandbox"
)

// Exec defaults (docs/design/safety-defaults.md#exec-limits).
const (
	DefaultExecTimeout  = 60 * time.Second
	MaxExecTimeout      = 600 * time.Second
	DefaultExecMaxChars = 10000
)

// ExecOptions configures the exec tool. The zero value gives the defaults.
type ExecOptions struct {
	// Timeout applies when the call gives none (default 60 s); calls may ask
	// for up to 600 s.
	Timeout time.Duration
	// AllowedEnvKeys are passed through from Hearth's environment besides HOME,
	// LANG, PATH and TERM (config tools.exec.allowedEnvKeys).
	AllowedEnvKeys []string
	// MaxOutputChars caps the output kept: head and tail with a note between
	// (default 10000).
	MaxOutputChars int
	// LookupEnv reads Hearth's environment; nil means os.LookupEnv. Tests inject it.
	LookupEnv func(string) (string, bool)
	// Guard refuses destructive commands; nil means NewExecGuard(policy).
	Guard *ExecGuard
	// Sandbox confines commands and ends all they start (backend/sandbox); nil runs
	// them as plain child processes.
	Sandbox *osbox.Sandbox
	// Unconfined keeps the sandbox's reaper but drops its confinement
	// (tools.exec.sandbox false).
	Unconfined bool
	// Hidden are folders commands may not read: Hearth's config, state, data, cache.
	Hidden []string
	// Network lets commands use the network (tools.exec.network).
	Network bool
	// TempDir is where a command's own temp folder is made when the sandbox has no
	// private /tmp to give it (Landlock alone); empty means os.TempDir().
	TempDir string
	// SSHAgent passes SSH_AUTH_SOCK on and keeps its socket reachable in the sandbox
	// (tools.exec.sshAgent).
	SSHAgent bool
}

// ExecTool runs shell commands: sh -c in its own process group, minimal
// environment, killed as a group on timeout or cancel (docs/design/agent-loop.md#stopping-a-run).
type ExecTool struct {
	*typed[execArgs]
	policy *Policy
	opts   ExecOptions
	guard  *ExecGuard
}

type execArgs struct {
	Command    string `json:"command"`
	WorkingDir string `json:"working_dir,omitempty" jsonschema:"default workspace"`
	Timeout    int    `json:"timeout,omitempty" jsonschema:"seconds, default 60" min:"1" max:"600"`
}

// NewExec builds the exec tool over a sandbox policy.
func NewExec(policy *Policy, opts ExecOptions) *ExecTool {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultExecTimeout
	}
	opts.Timeout = min(opts.Timeout, MaxExecTimeout)
	if opts.MaxOutputChars <= 0 {
		opts.MaxOutputChars = DefaultExecMaxChars
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	g := opts.Guard
	if g == nil {
		g = NewExecGuard(policy)
	}
	t := &ExecTool{policy: policy, opts: opts, guard: g}
	t.typed = New(Def[execArgs]{Name: "exec", Short: "Run a shell command.", Exclusive: true, Run: t.run,
		// A limit a little beyond the command's own, so the process group is
		// killed and reported by exec itself rather than abandoned.
		Timeout:     func(a execArgs) time.Duration { return t.timeout(a) + 5*time.Second },
		Description: "Run a shell command (sh -c) and return its output. Prefer read_file/edit_file/grep/glob over cat/sed/grep/find. Non-interactive only.",
	}).(*typed[execArgs])
	return t
}

func (t *ExecTool) timeout(a execArgs) time.Duration {
	d := t.opts.Timeout
	if a.Timeout > 0 {
		d = time.Duration(a.Timeout) * time.Second
	}
	return min(d, MaxExecTimeout)
}

// Env returns the environment commands run with: HOME, LANG, PATH, TERM and the
// allowed keys, nothing else (API keys never reach a command).
func (t *ExecTool) Env() []string {
	defaults := [][2]string{
		{"HOME", ""}, {"LANG", "C.UTF-8"}, {"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"TERM", "dumb"},
	}
	seen := map[string]bool{}
	var env []string
	for _, kv := range defaults {
		v, ok := t.opts.LookupEnv(kv[0])
		if !ok || v == "" {
			v = kv[1]
			if kv[0] == "HOME" {
				v = t.policy.home()
			}
		}
		env = append(env, kv[0]+"="+v)
		seen[kv[0]] = true
	}
	if sock := t.agentSocket(); sock != "" && !seen["SSH_AUTH_SOCK"] {
		env = append(env, "SSH_AUTH_SOCK="+sock)
		seen["SSH_AUTH_SOCK"] = true
	}
	for _, k := range t.opts.AllowedEnvKeys {
		if k == "" || seen[k] {
			continue
		}
		if v, ok := t.opts.LookupEnv(k); ok {
			env = append(env, k+"="+v)
			seen[k] = true
		}
	}
	return env
}

func (t *ExecTool) run(ctx context.Context, a execArgs) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("exec: not started: %w", err)
	}
	command := a.Command
	if strings.TrimSpace(command) == "" {
		return Result{}, errors.New("exec: command is empty")
	}
	dir, err := t.policy.ResolveDir(a.WorkingDir)
	if err != nil {
		return Result{}, fmt.Errorf("exec: %w", err)
	}
	if err := t.guard.Check(command, dir); err != nil {
		return Result{}, fmt.Errorf("exec: %w", err)
	}
	limit := t.timeout(a)

	out := newCapWriter(t.opts.MaxOutputChars)
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = t.Env()
	cmd.Stdin = nil
	cmd.Stdout = out
	cmd.Stderr = out
	cmd.WaitDelay = 500 * time.Millisecond // a child that escaped the group cannot hold the pipes open
	setProcessGroup(cmd)
	t.sandbox(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{}, fmt.Errorf("exec: start sh: %w", err)
	}
	done := make(chan error, 1)
	exited := make(chan struct{})
	go func() { err := cmd.Wait(); close(exited); done <- err }()

	timer := time.NewTimer(limit)
	defer timer.Stop()
	var waitErr error
	reason := ""
	select {
	case waitErr = <-done:
	case <-timer.C:
		reason = fmt.Sprintf("timed out after %s", limit)
	case <-ctx.Done():
		reason = "cancelled"
	}
	if reason != "" {
		if t.opts.Sandbox != nil {
			osbox.Stop(cmd, exited, time.Second)
		} else {
			killProcessGroup(cmd)
		}
		waitErr = <-done
	}

	text := out.String()
	code := exitCode(waitErr)
	meta := map[string]string{MetaExitCode: strconv.Itoa(code)}
	switch {
	case reason != "":
		text = appendNote(text, fmt.Sprintf("[Killed: %s (after %s); the command and its children were stopped.]", reason, time.Since(start).Round(time.Millisecond)))
		return Result{Content: text, IsError: true, Meta: meta}, nil
	case code != 0:
		text = appendNote(text, fmt.Sprintf("[Exit code %d]", code))
		return Result{Content: text, IsError: true, Meta: meta}, nil
	case text == "":
		text = "(no output; exit code 0)"
	}
	return Result{Content: text, Meta: meta}, nil
}

func appendNote(text, note string) string {
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text + note
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if c := ee.ExitCode(); c >= 0 {
			return c
		}
	}
	return -1
}

// capWriter keeps the first and last max/2 bytes of a stream and counts the
// rest, so a command printing gigabytes costs a fixed amount of memory.
type capWriter struct {
	mu    sync.Mutex
	half  int
	head  []byte
	tail  []byte // ring, in order after trimming
	total int
}

func newCapWriter(max int) *capWriter { return &capWriter{half: max / 2} }

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.total += len(p)
	rest := p
	if room := w.half - len(w.head); room > 0 {
		n := min(room, len(rest))
		w.head = append(w.head, rest[:n]...)
		rest = rest[n:]
	}
	if len(rest) > 0 {
		w.tail = append(w.tail, rest...)
		if len(w.tail) > 2*w.half { // trim rarely, keep the last half
			w.tail = append(w.tail[:0:0], w.tail[len(w.tail)-w.half:]...)
		}
	}
	return len(p), nil
}

func (w *capWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	tail := w.tail
	if len(tail) > w.half {
		tail = tail[len(tail)-w.half:]
	}
	kept := len(w.head) + len(tail)
	if kept == w.total {
		return strings.ToValidUTF8(string(w.head)+string(tail), "\uFFFD")
	}
	// Cut the note's length back out of head and tail so the whole stays within max.
	note := fmt.Sprintf("\n[... %d of %d characters of output omitted; the first and last parts are shown. Redirect to a file and read it with read_file or grep for more.]\n",
		w.total-kept, w.total)
	trim := (len(note) + 1) / 2
	h, tl := w.head, tail
	if len(h) > trim {
		h = h[:len(h)-trim]
	}
	if len(tl) > trim {
		tl = tl[trim:]
	}
	return strings.ToValidUTF8(string(h), "") + note + strings.ToValidUTF8(string(tl), "")
}
