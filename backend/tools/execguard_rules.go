package tools

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"hearth/backend/internal/confined"
)

// checkCall judges one simple command by its argv (wrappers such as sudo removed).
func (g *ExecGuard) checkCall(s *scan, words []string, c *syntax.CallExpr) error {
	dir, name, args := s.dir, filepath.Base(words[0]), words[1:]
	flags, ops := splitFlags(args)
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "eval", "source", ".":
		for _, w := range c.Args { // a call inside a word is a substitution: $(curl …), <(wget …)
			if dl := download(w); dl != "" {
				return refuse("pipe-to-shell", "%s runs a download (%s), code nobody has read; save it to a file and show it to the user first", name, dl)
			}
		}
		if name == "eval" {
			return s.run(strings.Join(args, " "))
		}
		if code, ok := shellCode(args); ok && isShell(name) {
			return s.run(code)
		}
	case "rm", "rmdir", "shred", "unlink", "srm", "trash", "trash-put":
		return g.checkDelete(name, flags, ops, dir)
	case "mv":
		return g.checkMove(flags, ops, dir)
	case "chmod", "chown", "chgrp", "setfacl", "chattr":
		return g.checkChmod(name, flags, ops, dir)
	case "find":
		return g.checkFind(args, dir)
	case "dd":
		for _, a := range args {
			if t, ok := strings.CutPrefix(a, "of="); ok {
				return g.checkWriteTarget(t, dir)
			}
		}
	case "tee", "truncate", "touch", "fallocate", "sed":
		if name == "sed" {
			if !hasFlag(flags, 'i', "--in-place") || len(ops) == 0 {
				return nil
			}
			ops = ops[1:] // the script
		}
		for _, t := range ops {
			if err := g.checkWriteTarget(t, dir); err != nil {
				return err
			}
		}
	case "cp", "install", "rsync", "scp", "ln":
		if len(ops) > 1 {
			return g.checkWriteTarget(ops[len(ops)-1], dir)
		}
	case "crontab":
		if !hasFlag(flags, 'l', "") || len(ops) > 0 {
			return refuse("persistence", "crontab would install a job that runs later, outside Hearth")
		}
	case "at", "batch":
		return refuse("persistence", "%s schedules a command to run later, outside Hearth", name)
	case "systemctl", "loginctl":
		return checkSystemctl(name, ops)
	case "kill", "pkill", "killall", "killall5":
		return checkKill(name, flags, ops)
	case "shutdown", "reboot", "poweroff", "halt", "kexec":
		return refuse("power", "%s stops or restarts the computer", name)
	case "init", "telinit":
		if containsAny(ops, "0", "6") {
			return refuse("power", "%s %s stops or restarts the computer", name, strings.Join(ops, " "))
		}
	}
	return checkDisk(name, flags, ops)
}

func (g *ExecGuard) checkDelete(name string, flags, ops []string, dir string) error {
	if hasFlag(flags, 0, "--no-preserve-root") {
		return refuse("rm-broad", "--no-preserve-root")
	}
	// shred and srm destroy even a single file beyond undelete; trash takes whole folders.
	recursive := hasFlag(flags, 'r', "--recursive") || hasFlag(flags, 'R', "") || name == "shred" || name == "srm" || strings.HasPrefix(name, "trash")
	for _, t := range ops {
		if recursive {
			if why := g.broad(t, dir, false); why != "" {
				return refuse("rm-broad", "%s %s would delete %s", name, t, why)
			}
			if err := g.outside(name, t, dir); err != nil {
				return err
			}
		}
		if g.protected(t, dir) {
			return refuse("protected-write", "%s would delete protected path %s", name, t)
		}
	}
	return nil
}

// checkMove judges mv: what it moves away must not be a whole folder that matters (the
// workspace, ~, /), while the folder it moves into may well be one — `mv FILE .` moves
// nothing away. The destination is the last operand, or the value of -t.
func (g *ExecGuard) checkMove(flags, ops []string, dir string) error {
	sources, dest := ops, ""
	for _, f := range flags {
		if v, ok := strings.CutPrefix(f, "--target-directory="); ok {
			dest = v
		} else if (f == "--target-directory" || !strings.HasPrefix(f, "--") && strings.HasSuffix(f, "t")) && len(ops) > 0 {
			dest, sources = ops[0], ops[1:]
		}
	}
	if dest == "" && len(ops) > 1 {
		sources, dest = ops[:len(ops)-1], ops[len(ops)-1]
	}
	for _, t := range sources {
		if why := g.broad(t, dir, false); why != "" {
			return refuse("mv-broad", "mv %s would move away %s", t, why)
		}
		if g.protected(t, dir) {
			return refuse("protected-write", "mv would change protected path %s", t)
		}
	}
	if dest != "" {
		return g.checkWriteTarget(dest, dir)
	}
	return nil
}

func (g *ExecGuard) checkChmod(name string, flags, ops []string, dir string) error {
	targets := ops
	if name != "chattr" && name != "setfacl" && len(ops) > 0 {
		targets = ops[1:] // the mode or owner
	}
	recursive := hasFlag(flags, 'R', "--recursive") || name == "chattr"
	for _, t := range targets {
		// A recursive mode change inside the workspace is ordinary (chmod -R u+w .);
		// on /, the home folder or a system folder it breaks the machine.
		if why := g.broad(t, dir, true); why != "" && (recursive || isRoot(t)) {
			return refuse("chmod-broad", "%s -R on %s", name, why)
		}
		if g.protected(t, dir) {
			return refuse("protected-write", "%s would change protected path %s", name, t)
		}
	}
	return nil
}

// checkFind refuses find -delete (or -exec rm) from /, ~ or a system folder, and from
// the workspace when no test such as -name narrows what it deletes.
func (g *ExecGuard) checkFind(args []string, dir string) error {
	deletes := slices.Contains(args, "-delete")
	for i, a := range args[:max(len(args)-1, 0)] {
		deletes = deletes || containsAny([]string{a}, "-exec", "-execdir", "-ok", "-okdir") &&
			containsAny([]string{filepath.Base(args[i+1])}, "rm", "rmdir", "shred", "unlink")
	}
	i := 0
	for i < len(args) && containsAny(args[i:i+1], "-H", "-L", "-P") {
		i++
	}
	roots, filters := args[i:], args[i:]
	for j, a := range roots {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			roots, filters = roots[:j], roots[j:]
			break
		}
	}
	filtered := containsAny(filters, "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer", "-mtime", "-mmin", "-size", "-empty")
	if len(roots) == 0 {
		roots = []string{"."}
	}
	for _, r := range roots {
		if why := g.broad(r, dir, filtered); deletes && why != "" {
			return refuse("rm-broad", "find with -delete/-exec rm on %s", why)
		}
	}
	return nil
}

// checkWriteTarget judges a file a command writes into: a disk device, the running
// kernel, a protected path, a start-up file.
func (g *ExecGuard) checkWriteTarget(t, dir string) error {
	if t == "" || dynamic(t) {
		return nil
	}
	abs := g.policy.expand(t, dir)
	for _, p := range []string{abs, realPath(abs)} {
		if confined.Within(p, "/dev") {
			if safeDevice(p) {
				return nil
			}
			return refuse("device-write", "writing to device %s can destroy a disk", t)
		}
		if confined.Within(p, "/proc") || confined.Within(p, "/sys") {
			return refuse("kernel-write", "writing to %s changes the running kernel", t)
		}
	}
	if g.protected(t, dir) {
		return refuse("protected-write", "%s is a protected path (readable, never writable)", t)
	}
	if p := g.persistencePath(abs); p != "" {
		return refuse("persistence", "writing %s changes what runs at log-in or how the system starts", p)
	}
	return nil
}

func safeDevice(p string) bool {
	dev := strings.TrimPrefix(p, "/dev/")
	return containsAny([]string{dev}, "null", "stdout", "stderr", "tty", "zero") ||
		strings.HasPrefix(dev, "fd/") || strings.HasPrefix(dev, "pts/") || strings.HasPrefix(dev, "shm/")
}

func (g *ExecGuard) protected(t, dir string) bool {
	if len(g.policy.ProtectedPaths) == 0 || dynamic(t) {
		return false
	}
	return g.policy.IsProtected(t, dir)
}

// outside refuses a recursive delete outside the workspace when confinement is on.
// Caches are an exception: deleting one is how a user fixes a broken build.
func (g *ExecGuard) outside(name, t, dir string) error {
	if g.policy.Unrestricted || dynamic(t) {
		return nil
	}
	abs := realPath(g.policy.expand(t, dir))
	for _, r := range append(g.policy.roots(), filepath.Join(g.policy.home(), ".cache")) {
		if confined.Within(abs, r) {
			return nil
		}
	}
	return refuse("rm-outside-workspace", "%s %s deletes %s, outside the workspace", name, t, abs)
}

// broad says why deleting (or, with system, changing the modes of) t would be
// catastrophic, or "" if it would not. With system set only /, the home folder and
// system folders count; otherwise the whole workspace (or a folder above it) does too.
// t is expanded already: ~ and $HOME are the home folder.
func (g *ExecGuard) broad(t, dir string, system bool) string {
	if dynamic(t) {
		// "$X/" or "$X/*" is / when X is empty; "$X" alone then names nothing.
		if i := strings.IndexByte(t, '/'); strings.HasPrefix(t, "$") && i >= 0 && strings.Trim(t[i:], "/*") == "" {
			return fmt.Sprintf("whatever %s holds (it may be empty, which means /)", t)
		}
		return ""
	}
	home, glob := g.policy.home(), strings.HasSuffix(t, "*")
	abs := g.policy.expand(cmp.Or(strings.TrimRight(t, "*"), "."), dir)
	switch {
	case abs == "/":
		return "the whole file system"
	case home != "" && confined.Within(home, abs):
		return fmt.Sprintf("%s, which holds the home folder", abs)
	case isSystemDir(abs):
		return fmt.Sprintf("system folder %s", abs)
	case system:
		return ""
	case g.holdsRoot(abs) || glob && strings.Count(abs, "/") <= 1:
		return fmt.Sprintf("%s, the whole workspace or an allowed folder", abs)
	}
	return ""
}

// holdsRoot reports whether abs is the workspace, an allowed path, or a folder above one.
func (g *ExecGuard) holdsRoot(abs string) bool {
	return slices.ContainsFunc(append(g.policy.roots(), g.policy.workspaceDir()), func(r string) bool { return confined.Within(r, abs) })
}

func isSystemDir(abs string) bool {
	parts := strings.Split(strings.Trim(abs, "/"), "/")
	return len(parts) == 1 || len(parts) == 2 && containsAny(parts[:1], "bin", "boot", "dev", "etc", "lib", "lib32",
		"lib64", "opt", "proc", "root", "sbin", "srv", "sys", "usr", "var")
}

func isRoot(t string) bool { return filepath.Clean(t) == "/" }

// persistencePath names a file whose change makes code run later outside Hearth: shell
// start-up files, SSH keys, autostart and systemd units, and system configuration.
func (g *ExecGuard) persistencePath(abs string) string {
	if confined.Within(abs, "/etc") || confined.Within(abs, "/var/spool/cron") {
		return abs
	}
	home := g.policy.home()
	rel, err := filepath.Rel(home, abs)
	if home == "" || err != nil || !confined.Within(abs, home) {
		return ""
	}
	if slices.ContainsFunc([]string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc",
		".zprofile", ".zshenv", ".zlogin", ".xprofile", ".xinitrc", ".xsession", ".pam_environment", ".ssh",
		".config/autostart", ".config/systemd", ".local/share/systemd", ".config/environment.d", ".config/fish"},
		func(d string) bool { return confined.Within(rel, d) }) {
		return "~/" + rel
	}
	return ""
}

func checkSystemctl(name string, ops []string) error {
	for _, o := range ops {
		if containsAny([]string{strings.TrimSuffix(o, ".target")}, "poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency") {
			return refuse("power", "%s %s stops or restarts the computer", name, strings.Join(ops, " "))
		}
	}
	switch {
	case len(ops) == 0:
	case name == "loginctl" && containsAny(ops[:1], "terminate-user", "kill-user", "terminate-session", "kill-session"):
		return refuse("kill-all", "loginctl %s ends a whole login session", ops[0])
	case name == "systemctl" && containsAny(ops[:1], "enable", "link", "edit", "set-default", "mask"):
		return refuse("persistence", "systemctl %s changes what starts with the computer", ops[0])
	}
	return nil
}

// checkKill refuses signals to every process of a user, to init, or to all by pattern.
func checkKill(name string, flags, ops []string) error {
	switch {
	case name == "killall5",
		name == "kill" && (containsAny(ops, "1") || containsAny(flags, "-1") && len(flags) > 1),
		name != "kill" && (containsAny(ops, ".", ".*", "^.*$") || hasFlag(flags, 'u', "--user") && len(ops) <= 1):
		return refuse("kill-all", "%s %s would end every process of a user, or the system's first one", name, strings.Join(append(flags, ops...), " "))
	}
	return nil
}

// checkDisk refuses formatting, wiping and repartitioning.
func checkDisk(name string, flags, ops []string) error {
	fs, mkfs := strings.CutPrefix(name, "mkfs.")
	switch {
	case mkfs && strings.Contains(fs, "."):
		return nil // a script of one's own, such as mkfs.helper.sh
	case mkfs, containsAny([]string{name}, "mkfs", "mke2fs", "mkswap", "wipefs", "mkdosfs", "mkntfs", "blkdiscard"):
		return refuse("format-disk", "%s formats or wipes a disk or partition", name)
	case containsAny([]string{name}, "sgdisk", "sfdisk", "parted", "fdisk", "gdisk", "cfdisk"):
		if hasFlag(flags, 'l', "--list") || hasFlag(flags, 'p', "--print") || containsAny(ops, "print") {
			return nil
		}
		return refuse("format-disk", "%s changes a disk's partitions", name)
	}
	return nil
}

// stripWrappers drops variable assignments and commands that run the next word as a
// command (sudo, env, nohup, time, nice, timeout, xargs, busybox …) with their options.
func stripWrappers(words []string) []string {
	for len(words) > 0 {
		w := filepath.Base(words[0])
		switch {
		case strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "=") && !strings.HasPrefix(words[0], "-"):
			words = words[1:]
		case containsAny([]string{w}, "sudo", "doas", "nohup", "time", "command", "exec", "env", "nice", "ionice", "xargs",
			"timeout", "stdbuf", "builtin", "setsid", "busybox", "toybox", "chroot", "unbuffer", "flock", "systemd-run", "runuser"),
			w == "su" && len(words) > 1 && words[1] == "-c":
			words = words[1:]
			for len(words) > 0 && (strings.HasPrefix(words[0], "-") || (w == "timeout" || w == "nice") && strings.Trim(words[0], "0123456789.smhd") == "" ||
				w == "env" && strings.Contains(words[0], "=")) {
				words = words[1:]
			}
		default:
			return words
		}
	}
	return words
}

func splitFlags(args []string) (flags, operands []string) {
	for i, a := range args {
		if a == "--" {
			return flags, append(operands, args[i+1:]...)
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
		} else {
			operands = append(operands, a)
		}
	}
	return flags, operands
}

// hasFlag reports a short flag letter (also inside clusters like -rf) or a long flag.
func hasFlag(flags []string, short byte, long string) bool {
	return slices.ContainsFunc(flags, func(f string) bool {
		return long != "" && f == long || short != 0 && !strings.HasPrefix(f, "--") && strings.IndexByte(f[1:], short) >= 0
	})
}

func containsAny(list []string, vals ...string) bool {
	return slices.ContainsFunc(list, func(a string) bool { return slices.Contains(vals, a) })
}

func isShell(name string) bool {
	return containsAny([]string{name}, "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash")
}

// shellCode returns the command string of `sh -c CODE` (also -ec, -xc …).
func shellCode(args []string) (string, bool) {
	for i, a := range args[:max(len(args)-1, 0)] {
		if a == "-c" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "c") && len(a) <= 5 {
			return args[i+1], true
		}
	}
	return "", false
}
