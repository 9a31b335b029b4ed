//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// wrapHelper makes cmd start the helper, which runs the original program.
func wrapHelper(cmd *exec.Cmd, exe string, req request) {
	args := append([]string{filepath.Base(exe), HelperArg, encodeRequest(req), cmd.Path}, cmd.Args...)
	cmd.Path, cmd.Args = exe, args
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if req.NS {
		// The helper is PID 1 of its own PID namespace: when it dies, the kernel kills
		// everything in it, so a parent-death SIGKILL is enough.
		attr.Pdeathsig = syscall.SIGKILL
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC
		if !req.Network {
			attr.Cloneflags |= syscall.CLONE_NEWNET
		}
		uid, gid := os.Getuid(), os.Getgid()
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	cmd.SysProcAttr = attr
}

// wrapBubblewrap confines cmd with bubblewrap where the kernel has no Landlock.
func wrapBubblewrap(cmd *exec.Cmd, bwrap string, p Policy) {
	args := []string{"bwrap", "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run"}
	if !p.Network {
		args = append(args, "--unshare-net")
	} else if r := resolvDir(); r != "" {
		args = append(args, "--ro-bind", r, r)
	}
	for _, h := range p.Hidden {
		if fi, err := os.Lstat(h); err == nil && fi.IsDir() {
			args = append(args, "--tmpfs", h)
		}
	}
	for _, w := range p.Writable {
		if fi, err := os.Stat(w); err == nil && fi.IsDir() {
			args = append(args, "--bind", w, w)
		}
	}
	if cmd.Dir != "" {
		args = append(args, "--chdir", cmd.Dir)
	}
	args = append(args, "--", cmd.Path)
	args = append(args, cmd.Args[1:]...)
	cmd.Path, cmd.Args = bwrap, args
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// resolvDir is the folder under /run that /etc/resolv.conf points into, if any: with the
// network allowed, name lookups need it although /run is hidden.
func resolvDir() string {
	t, err := filepath.EvalSymlinks("/etc/resolv.conf")
	if err != nil || !within(t, "/run") {
		return ""
	}
	return filepath.Dir(t)
}

// Stop ends a wrapped command: the helper is asked to end everything it started, and
// after grace the whole process group is killed.
func Stop(cmd *exec.Cmd, done <-chan struct{}, grace time.Duration) {
	if cmd.Process == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(grace):
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

func probe(o Options) Status {
	st := Status{Mode: ModeNone}
	if v, err := ll.LandlockGetABIVersion(); err == nil && v > 0 {
		st.LandlockABI = v
	}
	if bw, err := exec.LookPath("bwrap"); err == nil {
		st.Bubblewrap = bw
	}
	switch {
	case st.LandlockABI > 0:
		st.Namespaces = tryHelper(o.Exe, request{Policy: Policy{Confine: true}, NS: true}) == nil
		if st.Namespaces || tryHelper(o.Exe, request{Policy: Policy{Confine: true}}) == nil {
			st.Mode = ModeLandlock
		}
	case st.Bubblewrap != "":
		c := exec.Command("/bin/sh", "-c", "true")
		wrapBubblewrap(c, st.Bubblewrap, Policy{Confine: true})
		if c.Run() == nil {
			st.Mode = ModeBubblewrap
		}
	}
	switch st.Mode {
	case ModeLandlock:
		st.Summary = fmt.Sprintf("Landlock ABI %d", st.LandlockABI)
		if st.Namespaces {
			st.Summary += " with user, PID, mount and network namespaces"
		} else {
			st.Summary += " without namespaces (user namespaces are not available): Hearth's folders are hidden by Landlock rules alone"
		}
	case ModeBubblewrap:
		st.Summary = "bubblewrap (this kernel has no Landlock)"
	default:
		st.Summary = "none"
		st.Warning = "this kernel has no Landlock and bubblewrap is not installed (or does not work): commands run with your full rights, guarded only by the approval prompt and the deny list. Install bubblewrap (apt install bubblewrap) or use a kernel with Landlock (5.13 or later)."
		if st.LandlockABI > 0 {
			st.Warning = "Landlock is present but Hearth's sandbox helper could not start: commands run with your full rights."
		}
	}
	return st
}

// tryHelper starts the helper with `true` under req and reports whether it ran.
func tryHelper(exe string, req request) error {
	c := exec.Command("/bin/sh", "-c", "true")
	c.Env = []string{"PATH=/usr/bin:/bin"}
	wrapHelper(c, exe, req)
	out, err := c.CombinedOutput()
	if err != nil {
		return fmt.Errorf("sandbox probe: %w: %s", err, out)
	}
	return nil
}

func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != "../")
}
