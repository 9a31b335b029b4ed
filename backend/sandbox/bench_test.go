package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkExecSandbox is what the sandbox adds to every command: start to exit of
// `sh -c true`, plain and through the helper as exec runs it (Landlock with namespaces,
// and Landlock alone), with a policy like Hearth's (the workspace and temp writable,
// Hearth's four folders hidden). ms/exec is wall time; cpu-ms/exec is the CPU time of
// the command and everything it ran, helper steps included (from wait4), which load
// on the machine inflates far less. The helper is HEARTH_BIN when set (the binary
// Hearth re-executes, as make bench builds it), else this test binary. make bench
// prints it against the target: ≤ 30 ms, a delay no person feels before a command.
func BenchmarkExecSandbox(b *testing.B) {
	s := New(Options{Exe: os.Getenv("HEARTH_BIN")})
	st := s.Status()
	root := b.TempDir()
	p := Policy{Writable: []string{filepath.Join(root, "ws"), filepath.Join(root, "tmp")}, Confine: true}
	for _, d := range append([]string{"config", "data", "state", "cache"}, "ws", "tmp") {
		_ = os.MkdirAll(filepath.Join(root, d), 0o755)
		if d != "ws" && d != "tmp" {
			p.Hidden = append(p.Hidden, filepath.Join(root, d))
		}
	}
	cases := []struct {
		name string
		wrap func(*exec.Cmd)
		ok   bool
	}{
		{"plain", func(*exec.Cmd) {}, true},
		{"landlock+namespaces", func(c *exec.Cmd) { wrapHelper(c, s.opts.Exe, request{Policy: p, NS: true, NoUser: !st.UserNamespace}) }, st.Namespaces},
		{"landlock", func(c *exec.Cmd) { wrapHelper(c, s.opts.Exe, request{Policy: p}) }, st.LandlockABI > 0},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			if !c.ok {
				b.Skipf("not on this machine: %s", st.Summary)
			}
			var cpu time.Duration
			start := time.Now()
			for i := 0; i < b.N; i++ {
				cmd := exec.Command("/bin/sh", "-c", "true")
				cmd.Dir = p.Writable[0]
				cmd.Env = []string{"PATH=/usr/bin:/bin"}
				c.wrap(cmd)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			n := float64(b.N)
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/n, "ms/exec")
			b.ReportMetric(float64(cpu.Microseconds())/1000/n, "cpu-ms/exec")
		})
	}
}
