package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withMarker lists live processes whose command line holds marker.
func withMarker(marker string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), marker) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			s := string(st)
			if i := strings.LastIndexByte(s, ')'); i > 0 && strings.HasPrefix(s[i+1:], " Z") {
				continue
			}
		}
		out = append(out, e.Name()+":"+strings.ReplaceAll(string(b), "\x00", " "))
	}
	return out
}

// waitGone waits up to d for every process with marker to end.
func waitGone(marker string, d time.Duration) []string {
	deadline := time.Now().Add(d)
	for {
		left := withMarker(marker)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sleepers is a command that leaves a background job and a setsid grandchild behind.
func sleepers(marker string) string {
	return fmt.Sprintf("sleep %[1]s & setsid sh -c 'sleep %[1]s & sleep %[1]s' & echo started; sleep %[1]s", marker)
}

// mode is one way a command runs: through the helper with req, or with bubblewrap.
type mode struct {
	req   request
	bwrap string
}

func (m mode) String() string {
	if m.bwrap != "" {
		return "bubblewrap"
	}
	return fmt.Sprintf("ns=%v,confine=%v,nouser=%v", m.req.NS, m.req.Confine, m.req.NoUser)
}

func (m mode) wrap(c *exec.Cmd, exe string) {
	if m.bwrap != "" {
		wrapBubblewrap(c, m.bwrap, Policy{Confine: true}, "/tmp", nil, "")
		return
	}
	wrapHelper(c, exe, m.req)
}

func modes(t *testing.T, s *Sandbox) []mode {
	st := s.Status()
	var out []mode
	if st.Namespaces {
		out = append(out, mode{req: request{Policy: Policy{Confine: true}, NS: true, NoUser: !st.UserNamespace}})
	}
	if st.UserNamespace && os.Geteuid() == 0 {
		out = append(out, mode{req: request{Policy: Policy{Confine: true}, NS: true, NoUser: true}})
	}
	if st.LandlockABI > 0 {
		out = append(out, mode{req: request{Policy: Policy{Confine: true}}})
	}
	if bw := New(Options{Force: ModeBubblewrap}).Status(); bw.Mode == ModeBubblewrap {
		out = append(out, mode{bwrap: bw.Bubblewrap})
	}
	return append(out, mode{}) // the reaper alone
}

func TestNothingLeftRunning(t *testing.T) {
	s := New(Options{})
	for i, m := range modes(t, s) {
		t.Run(m.String(), func(t *testing.T) {
			// Stopped (timeout or cancel): everything ends, setsid ones included.
			marker := fmt.Sprintf("3%d%d.5", os.Getpid()%1000, i)
			c := exec.Command("/bin/sh", "-c", sleepers(marker))
			c.Env = []string{"PATH=/usr/bin:/bin"}
			m.wrap(c, s.opts.Exe)
			var errb strings.Builder
			c.Stderr = &errb
			c.WaitDelay = 500 * time.Millisecond
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { t.Logf("helper: %v, stderr %q", c.ProcessState, errb.String()) }()
			done := make(chan struct{})
			go func() { _ = c.Wait(); close(done) }()
			for len(withMarker(marker)) < 4 {
				time.Sleep(10 * time.Millisecond)
			}
			Stop(c, done, time.Second)
			<-done
			if left := waitGone(marker, 2*time.Second); len(left) > 0 {
				t.Fatalf("left running after stop: %v", left)
			}
			// Finished normally: what it left in the background ends with it.
			marker2 := marker + "1"
			c = exec.Command("/bin/sh", "-c", fmt.Sprintf("setsid sleep %s & sleep %s & echo ok", marker2, marker2))
			m.wrap(c, s.opts.Exe)
			out, err := c.CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != "ok" {
				t.Fatalf("run: %v %q", err, out)
			}
			if left := waitGone(marker2, 2*time.Second); len(left) > 0 {
				t.Fatalf("left running after the command ended: %v", left)
			}
		})
	}
}

// TestHearthKilled: a Hearth killed with SIGKILL mid-command leaves nothing behind. The
// test binary plays Hearth (TestFakeHearth) and is killed.
func TestHearthKilled(t *testing.T) {
	s := New(Options{})
	for i, m := range modes(t, s) {
		t.Run(m.String(), func(t *testing.T) {
			marker := fmt.Sprintf("4%d%d.5", os.Getpid()%1000, i)
			c := exec.Command(os.Args[0], "-test.run=^TestFakeHearth$")
			c.Env = append(os.Environ(), "HEARTH_FAKE_HEARTH="+encodeRequest(m.req), "HEARTH_FAKE_BWRAP="+m.bwrap, "HEARTH_FAKE_MARKER="+marker)
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(5 * time.Second)
			for len(withMarker(marker)) < 4 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if n := len(withMarker(marker)); n < 4 {
				t.Fatalf("only %d sleepers started", n)
			}
			_ = c.Process.Signal(syscall.SIGKILL)
			_ = c.Wait()
			if left := waitGone(marker, 3*time.Second); len(left) > 0 {
				t.Fatalf("left running after Hearth was killed: %v", left)
			}
		})
	}
}

func TestFakeHearth(t *testing.T) {
	// A helper process, not a test: it runs only as the Hearth that TestHearthKilled
	// kills; a normal run returns at once rather than reporting a skip by design.
	enc := os.Getenv("HEARTH_FAKE_HEARTH")
	if enc == "" {
		return
	}
	req, err := decodeRequest(enc)
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command("/bin/sh", "-c", sleepers(os.Getenv("HEARTH_FAKE_MARKER")))
	c.Env = []string{"PATH=/usr/bin:/bin"}
	mode{req: req, bwrap: os.Getenv("HEARTH_FAKE_BWRAP")}.wrap(c, New(Options{}).opts.Exe)
	_ = c.Run()
}
