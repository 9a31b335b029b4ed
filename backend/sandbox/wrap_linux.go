//go:build linux

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"hearth/backend/i18n"
	"hearth/backend/internal/confined"
)

// wrapHelper makes cmd start the helper, which runs the original program.
func wrapHelper(cmd *exec.Cmd, exe string, req request) {
	if req.NS && !req.NoUser {
		req.UID, req.GID = os.Getuid(), os.Getgid()
	}
	args := append([]string{filepath.Base(exe), HelperArg, encodeRequest(req), cmd.Path}, cmd.Args...)
	cmd.Path, cmd.Args = exe, args
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if req.NS {
		// The helper is PID 1 of its own PID namespace: when it dies, the kernel kills
		// everything in it, so a parent-death SIGKILL is enough.
		attr.Pdeathsig = syscall.SIGKILL
		attr.Cloneflags = syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC
		if !req.Network {
			attr.Cloneflags |= syscall.CLONE_NEWNET
		}
		if req.NoUser {
			cmd.SysProcAttr = attr // root keeps its capabilities through exec
			return
		}
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		// No ID maps from here: the process writing them must be allowed to open the
		// child's /proc files, which a child of non-dumpable Hearth has owned by root
		// until it execs — for anyone but root that failed. The helper writes its own
		// (writeIDMaps), keeping your user ID; execve would drop the capabilities the
		// new user namespace gave it, so the ones it needs are kept ambient: for its
		// mounts, its loopback, and to empty the bounding set (dropCaps clears them all
		// before the command runs).
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN, unix.CAP_SETPCAP}
	}
	cmd.SysProcAttr = attr
}

// wrapBubblewrap confines cmd with bubblewrap where the kernel has no Landlock: a
// read-only root, the writable folders bound writable, Hearth's folders under empty
// read-only mounts, an empty private tmp (TMPDIR), the sockets bound outside the
// writable folders covered, no capabilities (bubblewrap run by root keeps them all
// otherwise).
func wrapBubblewrap(cmd *exec.Cmd, bwrap string, p Policy, tmp string, cover []string, program string) {
	args := []string{"bwrap", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run"}
	if !p.Network {
		args = append(args, "--unshare-net")
	} else if r := resolvDir(); r != "" {
		args = append(args, "--ro-bind", r, r)
	}
	// Outer folders first, so that a writable folder inside a hidden one (the default
	// workspace) and a hidden one inside a writable one (Hearth's folders under an
	// allowed ~) both end up on top; a folder both hidden and writable is writable. A
	// read-only folder inside a writable one (a knowledge folder in the workspace) is
	// bound read-only over it, the folders on the way down bound onto themselves (mount
	// points cannot be renamed, so it cannot be moved away with its parent).
	const (
		writable = iota
		hidden
		readOnly
		private
	)
	type mount struct {
		path string
		kind int
	}
	var ms []mount
	if fi, err := os.Stat(tmp); err == nil && fi.IsDir() {
		ms = append(ms, mount{tmp, private})
	}
	for _, h := range append([]string{"/tmp/.X11-unix", "/tmp/.ICE-unix"}, p.Hidden...) {
		if fi, err := os.Lstat(h); err == nil && fi.IsDir() {
			ms = append(ms, mount{h, hidden})
		}
	}
	// Resolved, as the read-only folders are: ordered by the paths bubblewrap really
	// mounts, a writable folder named through a long link cannot land on top of a
	// read-only folder inside it.
	wr := resolved(p.Writable)
	for _, w := range wr {
		if fi, err := os.Stat(w); err == nil && fi.IsDir() {
			ms = append(ms, mount{w, writable})
		}
	}
	guarded := guardedReadOnly(resolved(p.ReadOnly), wr, resolved(p.Hidden))
	for _, w := range waysDown(guarded, wr) {
		ms = append(ms, mount{w, writable})
	}
	for _, r := range guarded {
		if fi, err := os.Stat(r); err == nil && fi.IsDir() {
			ms = append(ms, mount{r, readOnly})
		}
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if len(ms[i].path) != len(ms[j].path) {
			return len(ms[i].path) < len(ms[j].path)
		}
		return ms[i].kind > ms[j].kind
	})
	var covers, gone []string
	for _, m := range ms {
		switch m.kind {
		case private:
			args = append(args, "--perms", "1777", "--tmpfs", m.path)
			gone = append(gone, m.path)
		case hidden:
			args = append(args, "--perms", "0755", "--tmpfs", m.path)
			covers = append(covers, m.path)
			gone = append(gone, m.path)
		case readOnly:
			args = append(args, "--ro-bind", m.path, m.path)
		default:
			args = append(args, "--bind", m.path, m.path)
		}
	}
	if program != "" { // a program that lives in tmp stays there, read-only
		args = append(args, "--ro-bind", program, program)
	}
	// Sockets opted in are bound back (into the private tmp too); every other bound
	// socket not already gone with /run, tmp or a hidden folder gets /dev/null on top.
	for _, s := range p.Sockets {
		if fi, err := os.Stat(s); err == nil && fi.Mode()&os.ModeSocket != 0 {
			args = append(args, "--bind", s, s)
		}
	}
	for _, s := range cover {
		// Only a socket still there: /proc/net/unix also lists sockets whose file was
		// removed, and bubblewrap would try to make a mount point for one on the
		// read-only root and fail the command.
		if fi, err := os.Lstat(s); err != nil || fi.Mode()&os.ModeSocket == 0 {
			continue
		}
		if !slices.ContainsFunc(append(gone, "/run"), func(g string) bool { return confined.Within(s, g) }) {
			args = append(args, "--ro-bind-try", "/dev/null", s)
		}
	}
	for _, c := range covers { // last: a writable folder inside needed its mount point made
		args = append(args, "--remount-ro", c)
	}
	args = append(args, "--setenv", "TMPDIR", tmp)
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
	if err != nil || !confined.Within(t, "/run") {
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
	var nsErr error
	if v, err := ll.LandlockGetABIVersion(); err == nil && v > 0 {
		st.LandlockABI = v
	}
	if bw, err := exec.LookPath("bwrap"); err == nil {
		st.Bubblewrap = bw
	}
	switch {
	case st.LandlockABI > 0 && o.Force != ModeBubblewrap:
		nsErr = errors.New("not tried: Landlock alone was asked for")
		if o.Force != ModeLandlock {
			nsErr = tryHelper(o.Exe, request{Policy: Policy{Confine: true}, NS: true})
		}
		st.Namespaces, st.UserNamespace = nsErr == nil, nsErr == nil
		if nsErr != nil && o.Force != ModeLandlock && os.Geteuid() == 0 &&
			tryHelper(o.Exe, request{Policy: Policy{Confine: true}, NS: true, NoUser: true}) == nil {
			// Root needs no user namespace for the others: where one cannot be made
			// (or its /proc is refused, as in some jails), the mounts still can.
			st.Namespaces = true
		}
		if st.Namespaces || tryHelper(o.Exe, request{Policy: Policy{Confine: true}}) == nil {
			st.Mode = ModeLandlock
		}
	case st.Bubblewrap != "":
		c := exec.Command("/bin/sh", "-c", "true")
		wrapBubblewrap(c, st.Bubblewrap, Policy{Confine: true}, "/tmp", nil, "")
		if c.Run() == nil {
			st.Mode = ModeBubblewrap
		}
	}
	switch st.Mode {
	case ModeLandlock:
		abi := strconv.Itoa(st.LandlockABI)
		switch {
		case st.UserNamespace:
			st.SetSummary(i18n.M("sandbox.landlock.namespaces", "abi", abi))
		case st.Namespaces:
			st.SetSummary(i18n.M("sandbox.landlock.root", "abi", abi))
		default:
			why := nsWhy(nsErr)
			if o.Force != ModeLandlock && appArmorKeepsUserns(appArmorUsernsSysctl) {
				why, st.Hint = i18n.M("sandbox.why.appArmor"), appArmorHint(o.Exe)
			}
			// What this mode cannot stop, said where the user looks (docs/safety.md):
			// below ABI 9 no Unix socket works, below ABI 6 abstract sockets are not scoped.
			code := "sandbox.landlock.alone"
			switch {
			case st.LandlockABI < 6:
				code = "sandbox.landlock.aloneOld"
			case st.LandlockABI < 9:
				code = "sandbox.landlock.aloneNoSockets"
			}
			st.SetSummary(i18n.Message{Code: code, Args: map[string]string{"abi": abi},
				Lists: map[string][]i18n.Message{"why": {why}}})
		}
	case ModeBubblewrap:
		st.SetSummary(i18n.M("sandbox.bubblewrap.noLandlock"))
		if st.LandlockABI > 0 {
			st.SetSummary(i18n.M("sandbox.bubblewrap.chosen"))
		}
	default:
		st.SetSummary(i18n.M("sandbox.none"))
		st.SetWarning(i18n.M("sandbox.none.warning"))
		if st.LandlockABI > 0 {
			st.SetWarning(i18n.M("sandbox.none.helper"))
		}
	}
	return st
}

// Ubuntu (23.10 and later) lets a program use user namespaces only when an AppArmor
// profile allows it; others get one without the rights to mount, so the helper's
// namespaces fail and commands run under Landlock alone.
const appArmorUsernsSysctl = "/proc/sys/kernel/apparmor_restrict_unprivileged_userns"

// appArmorKeepsUserns reports whether the sysctl at path says AppArmor restricts user
// namespaces.
func appArmorKeepsUserns(path string) bool {
	b, err := os.ReadFile(path)
	return err == nil && strings.TrimSpace(string(b)) == "1"
}

// appArmorHint says how to allow Hearth's binary exe user namespaces: a profile that
// leaves it unconfined but for that rule, as the browsers' are, in one line to paste.
func appArmorHint(exe string) string {
	return fmt.Sprintf("to hide Hearth's folders by mounts as well, allow %[1]s user namespaces with an AppArmor profile, then restart Hearth: "+
		`printf 'abi <abi/4.0>,\ninclude <tunables/global>\nprofile hearth "%%s" flags=(unconfined) {\n  userns,\n}\n' '%[1]s' | sudo tee /etc/apparmor.d/hearth && sudo apparmor_parser -r /etc/apparmor.d/hearth`, exe)
}

// nsWhy says in a few words why the namespaces could not be made.
func nsWhy(err error) i18n.Message {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	switch {
	case strings.HasPrefix(msg, "not tried"):
		return i18n.M("sandbox.why.asked")
	case strings.Contains(msg, "fork/exec"):
		return i18n.M("sandbox.why.noUserns")
	case strings.Contains(msg, "mount /proc"):
		return i18n.M("sandbox.why.proc")
	case msg != "":
		if i := strings.LastIndex(msg, "hearth sandbox: "); i >= 0 {
			msg = msg[i+len("hearth sandbox: "):]
		}
		return i18n.M("sandbox.why.failed", "detail", strings.TrimSpace(msg))
	}
	return i18n.M("sandbox.why.noUserns")
}

// tryHelper starts the helper with `true` under req and reports whether it ran. A helper
// that hangs (it never should) fails the probe instead of every command after it.
func tryHelper(exe string, req request) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := exec.CommandContext(ctx, "/bin/sh", "-c", "true")
	c.Env = []string{"PATH=/usr/bin:/bin"}
	c.Dir = "/" // Hearth's own folder may lie in /tmp, which the run gets an empty copy of
	if req.TempDir == "" {
		req.TempDir = os.TempDir() // Hearth's, not the probe's bare environment's
	}
	wrapHelper(c, exe, req)
	out, err := c.CombinedOutput()
	if err != nil {
		return fmt.Errorf("sandbox probe: %w: %s", err, out)
	}
	return nil
}

// coverSockets lists the pathname sockets bound on this machine that the command must
// not reach (see outsideSockets). Read here, in Hearth's own network namespace: the
// helper may already be in a new one, whose table is empty.
func coverSockets(p Policy) []string {
	f, err := os.Open("/proc/net/unix")
	if err != nil {
		return nil
	}
	defer f.Close()
	return outsideSockets(parseUnixSockets(f, maxCoverSockets), p)
}
