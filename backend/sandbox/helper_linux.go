//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"hearth/backend/internal/confined"
)

// init turns this process into the helper when Hearth re-executed itself for a command.
// It runs before main, so neither the CLI nor the window toolkit starts.
func init() {
	if len(os.Args) >= 4 && os.Args[1] == HelperArg {
		os.Exit(helperMain(os.Args[2:]))
	}
	if len(os.Args) == 3 && os.Args[1] == cleanArg {
		os.Exit(cleanMain(os.Args[2]))
	}
}

// cleanArg makes a Hearth binary remove a run's temp folder once its helper is gone.
const cleanArg = "__hearth-sandbox-clean-v1"

// cleanMain waits until its standard input ends — the helper holds the other end, so
// that is when the helper ends, however it ends — and removes dir. Why a process of its
// own: the helper runs under the command's Landlock rules, which do not let it remove
// the folder from its parent.
func cleanMain(dir string) int {
	_, _ = io.Copy(io.Discard, os.Stdin)
	if !strings.HasPrefix(filepath.Base(dir), "hearth-run-") {
		return 2 // only ever a folder the helper made
	}
	if err := os.RemoveAll(dir); err != nil {
		return 1
	}
	return 0
}

// runTmp makes the run's own temp folder in parent and starts the process that removes
// it when the helper ends, or when done is closed.
func runTmp(parent string) (dir string, cleaner int, done *os.File, err error) {
	d, err := os.MkdirTemp(parent, "hearth-run-")
	if err != nil {
		return "", 0, nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		os.Remove(d)
		return "", 0, nil, err
	}
	exe, err := os.Executable()
	var proc *os.Process
	if err == nil {
		proc, err = os.StartProcess(exe, []string{filepath.Base(exe), cleanArg, d}, &os.ProcAttr{
			Files: []*os.File{r, nil, nil},
			// Its own process group: stopping the command's group must not end it.
			Sys: &syscall.SysProcAttr{Setpgid: true},
		})
	}
	r.Close()
	if err != nil {
		w.Close()
		os.Remove(d)
		return "", 0, nil, err
	}
	// w stays open (close-on-exec, so the command does not hold it) until the command
	// is over or the helper ends.
	return d, proc.Pid, w, nil
}

// helperMain: args are the encoded request, the program's path and its argv.
func helperMain(args []string) int {
	// Everything happens on this one thread. Why: before Landlock ABI 8, each thread is
	// restricted on its own and gets a domain of its own, and a process may only signal
	// processes of its own domain — the command is forked from this thread, so only
	// this thread can end what the command starts.
	runtime.LockOSThread()
	closeOnExec() // the command gets the standard three descriptors, nothing Hearth had
	req, err := decodeRequest(args[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "hearth sandbox: bad request: %v\n", err)
		return 125
	}
	if req.NS && !req.NoUser {
		if err := writeIDMaps(req.UID, req.GID); err != nil {
			fmt.Fprintf(os.Stderr, "hearth sandbox: %v\n", err)
			return 125
		}
	}
	if req.NS {
		if err := setupNamespaces(req.Policy, req.tmp(), req.Cover, req.Program); err != nil {
			fmt.Fprintf(os.Stderr, "hearth sandbox: %v\n", err)
			return 125
		}
	}
	tmpdir, cleaner := "", 0
	var cleanNow *os.File
	if req.NS && req.Confine {
		tmpdir = req.tmp()
	} else if req.Confine {
		// No mount namespace: a folder of the run's own stands for /tmp.
		d, pid, w, err := runTmp(req.TempDir)
		if err != nil {
			fmt.Fprintf(os.Stderr, "hearth sandbox: make the command's temp folder in %s: %v (set TMPDIR to a writable folder)\n", req.TempDir, err)
			return 125
		}
		tmpdir, cleaner, cleanNow = d, pid, w
	}
	if req.Confine {
		if err := confine(req.Policy, req.NS, tmpdir); err != nil {
			fmt.Fprintf(os.Stderr, "hearth sandbox: %v\n", err)
			return 125
		}
	}
	if req.Confine && !req.NS {
		// Landlock ABI 9 and later decide per path which sockets may be reached;
		// before that only the socket call itself can be refused.
		abi, _ := ll.LandlockGetABIVersion()
		if err := seccompFilter(abi >= 9 || len(req.Sockets) > 0); err != nil {
			fmt.Fprintf(os.Stderr, "hearth sandbox: %v\n", err)
			return 125
		}
	}
	// Orphans of the command come to the helper, so it can end them.
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)

	if err := dropCaps(); err != nil {
		fmt.Fprintf(os.Stderr, "hearth sandbox: %v\n", err)
		return 125
	}
	wd, _ := os.Getwd()
	env := os.Environ()
	if tmpdir != "" {
		env = append(slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "TMPDIR=") }), "TMPDIR="+tmpdir)
	}
	// A session of its own: no controlling terminal, so the command cannot push
	// keystrokes into the terminal Hearth runs in (TIOCSTI) or get its signals.
	proc, err := os.StartProcess(args[1], args[2:], &os.ProcAttr{
		Dir: wd, Env: env,
		Files: []*os.File{os.Stdin, os.Stdout, os.Stderr},
		Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setsid: true},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "hearth sandbox: start %s: %v\n", args[1], err)
		return 127
	}
	code, stopped := reap(proc.Pid, sigs, req.NS, cleaner)
	// The command is over: whatever it left running (background jobs, setsid daemons)
	// ends with it, and then its temp folder goes.
	endAll(req.NS, cleaner)
	if cleanNow != nil {
		cleanNow.Close()
	}
	reapAll()
	if stopped {
		code = 128 + int(syscall.SIGTERM)
	}
	return code
}

// writeIDMaps maps the user's IDs to themselves in the helper's new user namespace. A
// process may write its own maps when they map only its own IDs.
func writeIDMaps(uid, gid int) error {
	for _, f := range []struct{ file, data string }{
		{"/proc/self/setgroups", "deny"},
		{"/proc/self/uid_map", fmt.Sprintf("%d %d 1", uid, uid)},
		{"/proc/self/gid_map", fmt.Sprintf("%d %d 1", gid, gid)},
	} {
		if err := os.WriteFile(f.file, []byte(f.data), 0); err != nil {
			return fmt.Errorf("map user IDs: %w", err)
		}
	}
	return nil
}

// reap waits for children until pid ends and returns its exit code the shell's way. A
// stop signal ends everything at once. It polls rather than blocks so the signal is
// handled on this thread (see helperMain); between polls it waits on a pidfd of the
// command, so the command's end is seen at once, not at the next tick.
func reap(pid int, sigs <-chan os.Signal, ns bool, spare int) (code int, stopped bool) {
	pfd, perr := unix.PidfdOpen(pid, 0)
	if perr == nil {
		defer unix.Close(pfd)
	}
	code = -1
	for code < 0 {
		select {
		case <-sigs:
			stopped = true
			endAll(ns, spare)
		default:
		}
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
		switch {
		case errors.Is(err, unix.EINTR):
		case err != nil:
			return 1, stopped
		case got == 0 && perr == nil:
			// Readable once the command has ended; orphans that end meanwhile are
			// reaped on the next round, at most 10 ms later.
			_, _ = unix.Poll([]unix.PollFd{{Fd: int32(pfd), Events: unix.POLLIN}}, 10)
		case got == 0:
			time.Sleep(10 * time.Millisecond)
		case got == pid && ws.Signaled():
			code = 128 + int(ws.Signal())
		case got == pid:
			code = ws.ExitStatus()
		}
	}
	return code, stopped
}

func reapAll() {
	for {
		var ws unix.WaitStatus
		if _, err := unix.Wait4(-1, &ws, 0, nil); err != nil && !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// endAll kills every process the command started. As PID 1 of its own namespace one
// kill(-1) reaches them all; otherwise descendants are found in /proc, again and again
// until none is left (a process may fork while the others die). spare (the process that
// removes the run's temp folder; none in a namespace) is left to finish.
func endAll(ns bool, spare int) {
	if ns {
		_ = unix.Kill(-1, unix.SIGKILL)
		return
	}
	self := os.Getpid()
	for i := 0; i < 50; i++ {
		pids := slices.DeleteFunc(descendants(self), func(p int) bool { return p == spare })
		if len(pids) == 0 {
			return
		}
		for _, p := range pids {
			_ = unix.Kill(p, unix.SIGKILL)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// setupNamespaces runs as PID 1 of fresh user, mount and PID namespaces: it makes every
// mount read-only but the writable folders (the read-only ones inside them again), hides Hearth's folders and the sockets under /run, mounts a /proc that shows only this
// namespace, gives /dev/shm a private tmpfs, and brings up a private loopback.
func setupNamespaces(p Policy, tmp string, cover []string, program string) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	keep := resolved(p.Writable)
	if err := readOnlyRoot(keep, guardedReadOnly(resolved(p.ReadOnly), keep, resolved(p.Hidden))); err != nil {
		return err
	}
	for _, h := range resolved(p.Hidden) {
		if err := hideTree(h, keep); err != nil {
			return fmt.Errorf("hide %s: %w", h, err)
		}
	}
	// /run holds the session and system buses, the keyring, systemd's and docker's
	// sockets: a way out of any sandbox. Name lookups need resolv.conf's folder.
	runKeep := keep
	if p.Network {
		if r := resolvDir(); r != "" {
			runKeep = append(runKeep, r)
		}
	}
	runKeep = append(runKeep, resolved(p.Sockets)...)
	for _, d := range []string{"/run", "/tmp/.X11-unix", "/tmp/.ICE-unix"} {
		if err := hideTree(d, runKeep); err != nil {
			return fmt.Errorf("hide %s: %w", d, err)
		}
	}
	tmpKeep := append(slices.Clone(keep), resolved(p.Sockets)...)
	if program != "" {
		tmpKeep = append(tmpKeep, program) // read-only: the root was remounted so above
	}
	if err := privateTmp(tmp, tmpKeep); err != nil {
		return fmt.Errorf("private %s: %w", tmp, err)
	}
	for _, s := range cover {
		fi, err := os.Lstat(s)
		if err != nil || fi.Mode()&os.ModeSocket == 0 {
			continue // gone with a hidden folder or the private tmp, or not a socket now
		}
		if err := unix.Mount("/dev/null", s, "", unix.MS_BIND, ""); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("cover socket %s: %w", s, err)
		}
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mount /proc: %w", err)
	}
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
			return fmt.Errorf("mount /dev/shm: %w", err)
		}
	}
	if !p.Network {
		loopbackUp()
	}
	return nil
}

// hideTree covers path with an empty read-only mount, except for the keep folders
// inside it, which stay visible (the default workspace lives in Hearth's data folder).
// A hidden folder that lies inside a kept one (Hearth's data folder under an allowed
// path such as ~, or under $TMPDIR) is still hidden: keeping a folder writable never
// uncovers Hearth's folders within it.
func hideTree(path string, keep []string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink != 0 {
		return nil // nothing there, or a link whose target is judged on its own
	}
	inner := false
	for _, k := range keep {
		if k == path {
			return nil // a kept folder
		}
		if confined.Within(k, path) {
			inner = true
		}
	}
	if !inner {
		return cover(path, fi)
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if err := hideTree(filepath.Join(path, e.Name()), keep); err != nil {
			return err
		}
	}
	return nil
}

func cover(path string, fi os.FileInfo) error {
	switch {
	case fi.IsDir():
		return unix.Mount("hearth-hidden", path, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC|unix.MS_RDONLY, "size=4k,mode=755")
	case fi.Mode().IsRegular() || fi.Mode()&os.ModeSocket != 0:
		return unix.Mount("/dev/null", path, "", unix.MS_BIND, "")
	}
	return nil
}

func loopbackUp() {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil || unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr) != nil {
		return
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	_ = unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// tmp is the folder the run gets a private copy of.
func (r request) tmp() string {
	if r.Tmp == "" {
		return "/tmp"
	}
	return r.Tmp
}

// privateTmp puts an empty tmpfs over tmp, so the command sees none of what others keep
// there (the sockets of tmux, ssh-agent, editors) and leaves nothing behind. What must
// stay reachable inside it — a writable folder under tmp, an opted-in socket — is cloned
// first (open_tree) and put back in the same place on the new tmpfs (move_mount).
func privateTmp(tmp string, keep []string) error {
	fi, err := os.Lstat(tmp)
	if err != nil || !fi.IsDir() {
		return nil // no such folder, or a link: nothing there to share
	}
	type kept struct {
		path string
		fd   int
		dir  bool
	}
	var ks []kept
	defer func() {
		for _, k := range ks {
			unix.Close(k.fd)
		}
	}()
	keep = slices.Clone(keep)
	slices.SortStableFunc(keep, func(a, b string) int { return len(a) - len(b) })
	for _, k := range keep {
		if !confined.Within(k, tmp) || slices.ContainsFunc(ks, func(o kept) bool { return confined.Within(k, o.path) }) {
			continue // outside tmp, or inside a folder already kept whole
		}
		kfi, err := os.Stat(k)
		if err != nil {
			continue
		}
		fd, err := unix.OpenTree(unix.AT_FDCWD, k, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if err != nil {
			return fmt.Errorf("keep %s: %w", k, err)
		}
		ks = append(ks, kept{k, fd, kfi.IsDir()})
	}
	if err := unix.Mount("tmpfs", tmp, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
		return err
	}
	for _, k := range ks {
		if k.dir {
			err = os.MkdirAll(k.path, 0o755)
		} else if err = os.MkdirAll(filepath.Dir(k.path), 0o755); err == nil {
			var f *os.File
			if f, err = os.OpenFile(k.path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err == nil {
				f.Close()
			}
		}
		if err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("keep %s: %w", k.path, err)
		}
		if err := unix.MoveMount(k.fd, "", unix.AT_FDCWD, k.path, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("keep %s: %w", k.path, err)
		}
	}
	return nil
}
