//go:build linux

package sandbox

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A machine laid out for the doors a command must not open: a folder standing for the
// real /tmp (the user's tmux socket in it), a home outside the workspace (ssh-agent's
// socket in it), the workspace (a socket of its own), and an abstract socket.
type doors struct {
	root, sysTmp, home, ws, tmux, agent, inside, abstract string
}

func newDoors(t *testing.T) doors {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	d := doors{root: root, sysTmp: filepath.Join(root, "systmp"), home: filepath.Join(root, "home")}
	d.ws = filepath.Join(d.home, "ws")
	d.tmux = filepath.Join(d.sysTmp, "tmux-1000", "default")
	d.agent = filepath.Join(d.home, ".ssh", "agent.sock")
	d.inside = filepath.Join(d.ws, "app.sock")
	d.abstract = fmt.Sprintf("@hearth-test-%d-%s", os.Getpid(), filepath.Base(root))
	for _, p := range []string{d.tmux, d.agent, d.inside} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{d.tmux, d.agent, d.inside, d.abstract} {
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Fatalf("listen %s: %v", p, err)
		}
		t.Cleanup(func() { l.Close() })
	}
	return d
}

// sandboxModes are the modes this machine can run, each standing its tmp at sysTmp.
func sandboxModes(t *testing.T, sysTmp string) []*Sandbox {
	var out []*Sandbox
	for _, force := range []Mode{"", ModeLandlock, ModeBubblewrap} {
		s := New(Options{Tmp: sysTmp, Force: force})
		st := s.Status()
		if st.Mode == ModeNone || force != "" && st.Mode != force {
			t.Logf("mode %q not available here: %s", force, st.Summary)
			continue
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		t.Skip("no sandbox on this machine")
	}
	return out
}

func modeName(s *Sandbox) string {
	st := s.Status()
	if st.Mode == ModeLandlock && !st.Namespaces {
		return "landlock-alone"
	}
	return string(st.Mode)
}

// runProbe runs this test binary inside the sandbox as TestProbeClient, doing what env says.
func runProbe(t *testing.T, s *Sandbox, p Policy, env ...string) string {
	t.Helper()
	exe, _ := os.Executable()
	c := exec.Command(exe, "-test.run=^TestProbeClient$")
	c.Dir = p.Writable[0]
	c.Env = append([]string{"PATH=/usr/bin:/bin"}, env...)
	s.Wrap(c, p)
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	_ = c.Run()
	return out.String()
}

// TestProbeClient is not a test: it is what probe runs inside the sandbox.
func TestProbeClient(t *testing.T) {
	if a := os.Getenv("HEARTH_PROBE_DIAL"); a != "" {
		c, err := net.Dial("unix", a)
		if err != nil {
			fmt.Println("REFUSED", err)
			return
		}
		c.Close()
		fmt.Println("CONNECTED")
	}
	if p := os.Getenv("HEARTH_PROBE_XATTR"); p != "" {
		if err := unix.Setxattr(p, "user.hearth", []byte("x"), 0); err != nil {
			fmt.Println("REFUSED", err)
			return
		}
		fmt.Println("SET")
	}
}

// Commands reach no Unix socket outside the workspace — in the real /tmp, in ~, or
// abstract — in every mode; with the opt-in they reach the ones opted in.
func TestSocketsOutsideUnreachable(t *testing.T) {
	d := newDoors(t)
	for _, s := range sandboxModes(t, d.sysTmp) {
		t.Run(modeName(s), func(t *testing.T) {
			p := Policy{Writable: []string{d.ws}, Confine: true, TempDir: d.root}
			for _, c := range []struct {
				name, addr string
				want       string
			}{
				{"tmux in /tmp", d.tmux, "REFUSED"},
				{"ssh-agent in ~", d.agent, "REFUSED"},
				{"abstract", d.abstract, "REFUSED"},
				{"in the workspace", d.inside, "CONNECTED"},
			} {
				if s.Status().Mode == ModeLandlock && !s.Status().Namespaces && c.addr == d.inside && s.Status().LandlockABI < 9 {
					c.want = "REFUSED" // before ABI 9, Landlock alone refuses every Unix socket (docs/safety.md)
				}
				if out := runProbe(t, s, p, "HEARTH_PROBE_DIAL="+c.addr); !strings.Contains(out, c.want) {
					t.Errorf("%s (%s): want %s, got:\n%s", c.name, c.addr, c.want, out)
				}
			}
			p.Sockets = []string{d.agent, d.tmux}
			for _, a := range []string{d.agent, d.tmux} {
				if out := runProbe(t, s, p, "HEARTH_PROBE_DIAL="+a); !strings.Contains(out, "CONNECTED") {
					t.Errorf("opted-in socket %s unreachable:\n%s", a, out)
				}
			}
		})
	}
}

// Each run gets an empty tmp of its own, TMPDIR in it, and nothing it writes there is
// left behind or seen by the next run.
func TestPrivateTmp(t *testing.T) {
	d := newDoors(t)
	if err := os.WriteFile(filepath.Join(d.sysTmp, "theirs.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range sandboxModes(t, d.sysTmp) {
		t.Run(modeName(s), func(t *testing.T) {
			c := exec.Command("/bin/sh", "-c", `echo "TMPDIR=$TMPDIR"; ls -A "$TMPDIR"; echo mine > "$TMPDIR/mine.txt" && echo WROTE`)
			c.Dir = d.ws
			c.Env = []string{"PATH=/usr/bin:/bin", "TMPDIR=" + d.sysTmp}
			s.Wrap(c, Policy{Writable: []string{d.ws}, Confine: true, TempDir: d.root})
			out, _ := c.CombinedOutput()
			o := string(out)
			if !strings.Contains(o, "WROTE") || strings.Contains(o, "theirs.txt") || strings.Contains(o, "tmux-1000") {
				t.Fatalf("tmp not private and writable:\n%s", o)
			}
			if _, err := os.Stat(filepath.Join(d.sysTmp, "mine.txt")); err == nil {
				t.Fatal("the run's temp file landed in the shared tmp")
			}
			if runs, _ := filepath.Glob(filepath.Join(d.root, "hearth-run-*")); len(runs) > 0 {
				t.Fatalf("run temp folders left behind: %v", runs)
			}
		})
	}
}

// A command inherits no descriptor of Hearth's (a launcher's pipe) and runs in a
// session of its own.
func TestNoInheritedDescriptorsOwnSession(t *testing.T) {
	d := newDoors(t)
	var pipe [2]int
	if err := syscall.Pipe(pipe[:]); err != nil { // not close-on-exec, as an inherited one
		t.Fatal(err)
	}
	defer syscall.Close(pipe[0])
	defer syscall.Close(pipe[1])
	script := `cd /proc/self/fd && echo "fds:" *; read -r a < /proc/$$/stat; set -- $a; echo "pid=$1 sid=$6"`
	check := func(t *testing.T, s *Sandbox) {
		c := exec.Command("/bin/sh", "-c", script)
		c.Dir = d.ws
		c.Env = []string{"PATH=/usr/bin:/bin"}
		s.Wrap(c, Policy{Writable: []string{d.ws}, Confine: true, TempDir: d.root})
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		o := string(out)
		i := strings.Index(o, "fds:")
		if i < 0 {
			t.Fatalf("no fd list:\n%s", o)
		}
		fds := strings.Fields(strings.SplitN(o[i+4:], "\n", 2)[0])
		for _, fd := range fds {
			if fd == strconv.Itoa(pipe[0]) || fd == strconv.Itoa(pipe[1]) {
				t.Errorf("the command inherited descriptor %s: %v", fd, fds)
			}
		}
		var pid, sid int
		// The helper makes the command a session leader; bubblewrap makes a session
		// for its own first process (PID 1 of the sandbox), which runs the command.
		if _, err := fmt.Sscanf(o[strings.Index(o, "pid="):], "pid=%d sid=%d", &pid, &sid); err != nil || pid != sid && !(s.Status().Mode == ModeBubblewrap && sid == 1) {
			t.Errorf("not a session of its own (%v): %s", err, o)
		}
	}
	modes := sandboxModes(t, d.sysTmp)
	for _, s := range modes {
		if s.Status().Mode != ModeBubblewrap {
			t.Run(modeName(s), func(t *testing.T) { check(t, s) })
		}
	}
	// Bubblewrap is started by Hearth itself: HardenSelf marks what Hearth inherited.
	closeOnExec()
	for _, s := range modes {
		if s.Status().Mode == ModeBubblewrap {
			t.Run(modeName(s), func(t *testing.T) { check(t, s) })
		}
	}
}

// With Landlock alone a command cannot list Hearth's hidden folders (nor the folders
// that hold them), and cannot set extended attributes outside the writable folders.
func TestLandlockAloneHidesListingAndXattrs(t *testing.T) {
	s := New(Options{Force: ModeLandlock})
	if st := s.Status(); st.Mode != ModeLandlock {
		t.Skipf("no Landlock here: %s", st.Summary)
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	hidden := filepath.Join(root, "home", ".config", "hearth")
	ws := filepath.Join(root, "home", "ws")
	outside := filepath.Join(root, "home", "notes.txt")
	for _, dir := range []string{hidden, ws} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(hidden, "config.json"), outside} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := Policy{Writable: []string{ws}, Hidden: []string{hidden}, Confine: true, TempDir: root}
	for _, dir := range []string{hidden, filepath.Dir(hidden), filepath.Join(root, "home")} {
		c := exec.Command("/bin/ls", "-la", dir)
		c.Env = []string{"PATH=/usr/bin:/bin"}
		s.Wrap(c, p)
		out, err := c.CombinedOutput()
		if o := strings.ReplaceAll(string(out), dir, "DIR"); err == nil || strings.Contains(o, "config.json") || strings.Contains(o, "hearth") {
			t.Errorf("ls %s listed it with Landlock alone:\n%s", dir, out)
		}
	}
	if err := unix.Setxattr(outside, "user.probe", []byte("1"), 0); err != nil {
		t.Logf("this file system keeps no user xattrs (%v): the xattr half is not tried", err)
		return
	}
	_ = unix.Removexattr(outside, "user.probe")
	out := runProbe(t, s, p, "HEARTH_PROBE_XATTR="+outside)
	if !strings.Contains(out, "REFUSED") {
		t.Errorf("an extended attribute outside the workspace was set:\n%s", out)
	}
}
