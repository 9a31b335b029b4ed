package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestExecGuard(t *testing.T) {
	s := newSandbox(t)
	s.policy.ProtectedPaths = append(s.policy.ProtectedPaths, "~/.config/hearth/config.json")
	g := NewExecGuard(s.policy)
	refused := []struct{ cmd, rule string }{
		{"rm -rf /", "rm-broad"},
		{"rm -rf ~", "rm-broad"},
		{"rm -rf ~/", "rm-broad"},
		{"rm -rf *", "rm-broad"},
		{"rm -rf ..", "rm-broad"},
		{"rm -rf .", "rm-broad"},
		{"rm -rf $HOME", "rm-broad"},
		{`rm -rf "$TARGET"/`, "rm-broad"},
		{"rm -fr /etc", "rm-broad"},
		{"rm -r -f /usr/lib", "rm-broad"},
		{"sudo rm -rf --no-preserve-root /", "rm-broad"},
		{"rm -rf /*", "rm-broad"},
		{"ls; rm -rf /", "rm-broad"},
		{"true && rm -Rf ~/*", "rm-broad"},
		{`bash -c "rm -rf /"`, "rm-broad"},
		{"echo $(rm -rf ~)", "rm-broad"},
		{"find / -delete", "rm-broad"},
		{"rm -rf " + s.outside, "rm-outside-workspace"},
		{"mkfs.ext4 /dev/sda1", "format-disk"},
		{"sudo mkfs -t ext4 /dev/sdb", "format-disk"},
		{"dd if=/dev/zero of=/dev/sda bs=1M", "device-write"},
		{"echo x > /dev/sda", "device-write"},
		{"cat img >> /dev/nvme0n1", "device-write"},
		{"shutdown -h now", "power"},
		{"sudo reboot", "power"},
		{"poweroff", "power"},
		{"halt", "power"},
		{"systemctl reboot", "power"},
		{":(){ :|:& };:", "fork-bomb"},
		{"bomb() { bomb | bomb & }; bomb", "fork-bomb"},
		{"chmod -R 777 /", "chmod-broad"},
		{"sudo chown -R me ~", "chmod-broad"},
		{`echo '{}' > config.json`, "protected-write"},
		{"echo x | tee -a ./config.json", "protected-write"},
		{"cp other.json config.json", "protected-write"},
		{"sed -i s/1/2/ config.json", "protected-write"},
		{"echo '{}' > ~/.config/hearth/config.json", "protected-write"},
		{"rm config.json", "protected-write"},
		{"kill -9 -1", "kill-all"},
		{"rm -rf -- /", "rm-broad"},
		{"env X=1 rm -rf '/'", "rm-broad"},
		{"nohup rm -rf ~ &", "rm-broad"},
		{"sh -ec 'reboot'", "power"},
		{"echo hi | sudo tee /dev/sdb", "device-write"},
	}
	refused = append(refused, moreRefused...)
	for _, c := range refused {
		err := g.Check(c.cmd, s.ws)
		var ge *GuardError
		if !errors.As(err, &ge) || ge.Rule != c.rule {
			t.Errorf("Check(%q) = %v, want rule %s", c.cmd, err, c.rule)
		} else if !strings.Contains(err.Error(), c.rule) {
			t.Errorf("message does not name the rule: %v", err)
		}
	}
	allowed := []string{
		"ls 2>/dev/null",
		"echo x > /dev/null",
		"make 2>&1 | tee build.log",
		"echo done >&2",
		"curl 'https://example.com/a?b=1&c=2'",
		"curl https://example.com/a?b=1",
		"rm -rf ./build",
		"rm -rf build/ dist/*.tmp",
		"rm -r node_modules",
		"rm notes.txt",
		"git status",
		"git commit -m 'reboot the plan; rm -rf / is bad'",
		`echo "rm -rf /"`,
		"grep -rn shutdown .",
		"find . -name '*.go' -delete",
		"cat config.json",
		"cat ~/.config/hearth/config.json",
		"dd if=/dev/zero of=./blank.img bs=1k count=4",
		"chmod -R 755 ./scripts",
		"chmod +x run.sh",
		"ls -la /",
		"cat /etc/hosts",
		"kill -9 12345",
		"mkdir -p a/b && cd a && pwd",
		"python3 -c 'print(1)'",
		"cat <<EOF > script.sh\nreboot\nrm -rf /\nEOF",
		"go test ./... > " + filepath.Join(s.ws, "out.txt"),
		"FOO=1 env | sort",
		"timeout 5 sleep 1",
		"echo $HOME",
		"rm -rf -- ./tmp",
		"echo hi > out.txt 2>&1",
		"ls -la ~",
		"du -sh ~/Downloads",
		"rm -rf \"$OUT_DIR/cache\"",
	}
	allowed = append(allowed, moreAllowed...)
	s.write(t, filepath.Join(s.ws, "build2", "x.o"), "x")
	for _, cmd := range allowed {
		if err := g.Check(cmd, s.ws); err != nil {
			t.Errorf("Check(%q) refused: %v", cmd, err)
		}
	}
	t.Logf("exec guard: %d refused, %d allowed", len(refused), len(allowed))
}

// execRegistry wires the exec tool with an injected environment.
func execRegistry(t *testing.T, s *sandbox, env map[string]string, opts ExecOptions, secrets ...string) *Registry {
	t.Helper()
	opts.LookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	r := NewRegistry(RegistryOptions{Masker: NewMasker(secrets...)})
	if err := r.Register(Builtins(Options{Policy: *s.policy, Exec: opts})...); err != nil {
		t.Fatal(err)
	}
	return r
}

func callJSON(t *testing.T, r *Registry, ctx context.Context, name string, args any) Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	return r.Call(ctx, name, raw)
}

func TestExecBasics(t *testing.T) {
	s := newSandbox(t)
	r := execRegistry(t, s, map[string]string{"PATH": os.Getenv("PATH")}, ExecOptions{})
	ctx := context.Background()
	res := callJSON(t, r, ctx, "exec", map[string]any{"command": "pwd; echo out; echo err >&2"})
	wantOK(t, res, s.ws+"\n", "out\n", "err\n")
	if res.Meta[MetaExitCode] != "0" {
		t.Fatalf("meta %v", res.Meta)
	}
	s.write(t, filepath.Join(s.ws, "sub", "f.txt"), "x")
	wantOK(t, callJSON(t, r, ctx, "exec", map[string]any{"command": "ls", "working_dir": "sub"}), "f.txt")
	res = callJSON(t, r, ctx, "exec", map[string]any{"command": "echo partial; exit 3"})
	wantErr(t, res, "partial", "[Exit code 3]")
	if res.Meta[MetaExitCode] != "3" {
		t.Fatalf("meta %v", res.Meta)
	}
	wantOK(t, callJSON(t, r, ctx, "exec", map[string]any{"command": "true"}), "(no output; exit code 0)")
	wantErr(t, callJSON(t, r, ctx, "exec", map[string]any{"command": "ls", "working_dir": ".."}), "outside the workspace")
	wantErr(t, callJSON(t, r, ctx, "exec", map[string]any{"command": "ls", "working_dir": "/tmp"}), "outside the workspace")
	wantErr(t, callJSON(t, r, ctx, "exec", map[string]any{"command": "rm -rf ~"}), `safety rule "rm-broad"`)
	wantErr(t, callJSON(t, r, ctx, "exec", map[string]any{"command": "ls", "timeout": 601}), "above the maximum 600")

	// allowedPaths open more working dirs; the guard then lets rm -r work there too.
	s.policy.AllowedPaths = []string{s.outside}
	r = execRegistry(t, s, map[string]string{"PATH": os.Getenv("PATH")}, ExecOptions{})
	wantOK(t, callJSON(t, r, ctx, "exec", map[string]any{"command": "ls", "working_dir": s.outside}), "secret.txt")
	wantOK(t, callJSON(t, r, ctx, "exec", map[string]any{"command": "mkdir -p tmp && rm -rf tmp", "working_dir": "../outside"}))
}

func TestExecOutputCapped(t *testing.T) {
	s := newSandbox(t)
	r := execRegistry(t, s, map[string]string{"PATH": os.Getenv("PATH")}, ExecOptions{})
	res := callJSON(t, r, context.Background(), "exec", map[string]any{"command": "echo FIRST; seq 1 20000; echo LAST"})
	wantOK(t, res, "FIRST", "LAST", "characters of output omitted")
	if n := len([]rune(res.Content)); n > DefaultExecMaxChars {
		t.Fatalf("output %d chars, over %d", n, DefaultExecMaxChars)
	}
}

func TestExecMinimalEnvAndMasking(t *testing.T) {
	s := newSandbox(t)
	const key = "sk-live-0123456789abcdef"
	env := map[string]string{
		"PATH": os.Getenv("PATH"), "HOME": s.home, "LANG": "C.UTF-8",
		"OPENAI_API_KEY": key, "AWS_SECRET": "aws-secret-value", "EXTRA_OK": "visible",
	}
	r := execRegistry(t, s, env, ExecOptions{AllowedEnvKeys: []string{"EXTRA_OK"}}, key)
	res := callJSON(t, r, context.Background(), "exec", map[string]any{"command": "env"})
	wantOK(t, res, "HOME="+s.home, "LANG=C.UTF-8", "TERM=dumb", "EXTRA_OK=visible", "PATH=")
	// Only the minimal set, plus what sh itself sets (PWD, and SHLVL/_ in some shells).
	for _, line := range strings.Split(strings.TrimSpace(res.Content), "\n") {
		k, _, _ := strings.Cut(line, "=")
		switch k {
		case "HOME", "LANG", "PATH", "TERM", "EXTRA_OK", "PWD", "OLDPWD", "SHLVL", "_":
		default:
			t.Errorf("unexpected variable in exec environment: %s", line)
		}
	}
	if strings.Contains(res.Content, "sk-live") || strings.Contains(res.Content, "aws-secret") {
		t.Fatalf("secret reached the command:\n%s", res.Content)
	}
	// A key that reaches output anyway (a file, an echo) is masked in exec and read_file.
	s.write(t, filepath.Join(s.ws, "leak.env"), "OPENAI_API_KEY="+key+"\n")
	res = callJSON(t, r, context.Background(), "exec", map[string]any{"command": "cat leak.env; echo " + key + " >&2; exit 1"})
	if strings.Contains(res.Content, key) || strings.Count(res.Content, Redacted) != 2 {
		t.Fatalf("exec output not masked:\n%s", res.Content)
	}
	res = callJSON(t, r, context.Background(), "read_file", map[string]any{"path": "leak.env"})
	wantOK(t, res, "OPENAI_API_KEY="+Redacted)
	res = callJSON(t, r, context.Background(), "grep", map[string]any{"pattern": "sk-live", "output_mode": "content"})
	if strings.Contains(res.Content, key) {
		t.Fatalf("grep output not masked:\n%s", res.Content)
	}
}

// pidAlive reports whether a process still exists (zombies count as gone).
func pidAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat))
	return len(fields) > 2 && fields[2] != "Z"
}

// runSleeper runs `sleep 30` with a child sleep of its own through exec and
// returns the child's pid once the command has printed it.
func runSleeper(t *testing.T, r *Registry, ctx context.Context, args map[string]any) (chan Result, string) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	args["command"] = fmt.Sprintf("sleep 30 & echo $! > %s; sleep 30", pidFile)
	done := make(chan Result, 1)
	go func() { done <- callJSON(t, r, ctx, "exec", args) }()
	for i := 0; i < 200; i++ {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			return done, strings.TrimSpace(string(b))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("sleeper did not start")
	return nil, ""
}

func TestExecCancelKillsGroupWithinOneSecond(t *testing.T) {
	s := newSandbox(t)
	r := execRegistry(t, s, map[string]string{"PATH": os.Getenv("PATH")}, ExecOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done, childPID := runSleeper(t, r, ctx, map[string]any{})
	start := time.Now()
	cancel()
	var res Result
	select {
	case res = <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("exec did not return within 3 s of cancel")
	}
	returned := time.Since(start)
	if !res.IsError || !strings.Contains(res.Content, "[Killed: cancelled") {
		t.Fatalf("cancel result: %+v", res)
	}
	pid, _ := strconv.Atoi(childPID)
	for pidAlive(pid) && time.Since(start) < 2*time.Second {
		time.Sleep(5 * time.Millisecond)
	}
	gone := time.Since(start)
	t.Logf("cancel latency: Call returned after %s, child sleep gone after %s", returned, gone)
	if pidAlive(pid) {
		t.Fatalf("child sleep %d survived the cancel", pid)
	}
	if gone > time.Second {
		t.Fatalf("cancel took %s, over 1 s", gone)
	}
}

func TestExecTimeoutKillsGroup(t *testing.T) {
	s := newSandbox(t)
	r := execRegistry(t, s, map[string]string{"PATH": os.Getenv("PATH")}, ExecOptions{})
	start := time.Now()
	done, childPID := runSleeper(t, r, context.Background(), map[string]any{"timeout": "1"})
	res := <-done
	took := time.Since(start)
	t.Logf("timeout of 1 s returned after %s", took)
	if took > 2500*time.Millisecond {
		t.Fatalf("timeout took %s", took)
	}
	wantErr(t, res, "[Killed: timed out after 1s")
	pid, _ := strconv.Atoi(childPID)
	for deadline := time.Now().Add(10 * time.Second); pidAlive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("child sleep %d survived the timeout", pid)
		}
	}
}
