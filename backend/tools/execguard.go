package tools

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// ExecGuard refuses destructive shell commands before they run (F-EXECGUARD).
// It reads the command the way sh would split it (quotes, ;, &&, |, $( ), `,
// redirections) and judges each simple command by what it does, so ordinary
// commands such as `ls 2>/dev/null`, `echo "rm -rf /"` or a URL with ? and &
// pass, while `rm -rf ~` or `> /dev/sda` do not. It is a seatbelt against model
// mistakes, not a sandbox against a determined attacker.
type ExecGuard struct {
	policy *Policy
}

// NewExecGuard returns a guard that judges paths with policy.
func NewExecGuard(policy *Policy) *ExecGuard {
	if policy == nil {
		policy = &Policy{Unrestricted: true}
	}
	return &ExecGuard{policy: policy}
}

// GuardError names the rule a refused command broke.
type GuardError struct {
	Rule   string // short rule id, e.g. "rm-broad"
	Detail string
}

func (e *GuardError) Error() string {
	return fmt.Sprintf("command refused by safety rule %q: %s. Do not retry it in another form; if it is really needed, ask the user to run it", e.Rule, e.Detail)
}

func refuse(rule, format string, a ...any) error {
	return &GuardError{Rule: rule, Detail: fmt.Sprintf(format, a...)}
}

var funcDefRE = regexp.MustCompile(`([A-Za-z_:.][\w:.]*)\s*\(\s*\)\s*\{([^}]*)\}`)

// Check returns a *GuardError if command (run in dir) breaks a rule.
func (g *ExecGuard) Check(command, dir string) error {
	return g.check(command, dir, 0)
}

func (g *ExecGuard) check(command, dir string, depth int) error {
	if depth > 3 {
		return refuse("nesting", "shell commands nested more than 3 levels deep")
	}
	for _, m := range funcDefRE.FindAllStringSubmatch(command, -1) {
		name, body := m[1], strings.Join(strings.Fields(m[2]), "")
		if strings.Contains(body, name+"|"+name) && strings.Contains(body, "&") {
			return refuse("fork-bomb", "function %q starts copies of itself in the background", name)
		}
	}
	for _, seg := range lexShell(stripHeredocs(command)) {
		if err := g.checkSegment(seg, dir, depth); err != nil {
			return err
		}
	}
	return nil
}

// segment is one simple command: its words and the files it redirects into.
type segment struct {
	words  []string
	writes []string // targets of > >> &> >|
}

func (g *ExecGuard) checkSegment(seg segment, dir string, depth int) error {
	for _, w := range seg.writes {
		if err := g.checkWriteTarget(w, dir); err != nil {
			return err
		}
	}
	words := stripWrappers(seg.words)
	if len(words) == 0 {
		return nil
	}
	name := filepath.Base(words[0])
	args := words[1:]
	flags, operands := splitFlags(args)
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh":
		for i, a := range args {
			if a == "-c" && i+1 < len(args) || strings.HasPrefix(a, "-") && strings.HasSuffix(a, "c") && i+1 < len(args) && len(a) <= 4 {
				return g.check(args[i+1], dir, depth+1)
			}
		}
	case "eval":
		return g.check(strings.Join(args, " "), dir, depth+1)
	case "rm", "rmdir", "shred", "unlink":
		recursive := hasFlag(flags, 'r', "--recursive") || hasFlag(flags, 'R', "")
		if hasFlag(flags, 0, "--no-preserve-root") {
			return refuse("rm-broad", "--no-preserve-root")
		}
		for _, t := range operands {
			if recursive || name == "shred" {
				if why := g.broad(t, dir); why != "" {
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
	case "mv":
		for _, t := range operands {
			if why := g.broad(t, dir); why != "" {
				return refuse("mv-broad", "mv %s would move away %s", t, why)
			}
			if g.protected(t, dir) {
				return refuse("protected-write", "mv would change protected path %s", t)
			}
		}
	case "chmod", "chown", "chgrp":
		if len(operands) > 1 && (hasFlag(flags, 'R', "--recursive") || isRoot(operands[len(operands)-1])) {
			for _, t := range operands[1:] {
				if why := g.broad(t, dir); why != "" {
					return refuse("chmod-broad", "%s -R on %s", name, why)
				}
			}
		}
		for _, t := range operands[min(1, len(operands)):] {
			if g.protected(t, dir) {
				return refuse("protected-write", "%s would change protected path %s", name, t)
			}
		}
	case "find":
		if containsAny(args, "-delete", "rm") && len(operands) > 0 {
			// find . -name x -delete in the workspace is ordinary; from / or ~ it is not.
			if why := g.broad(operands[0], dir); why != "" && !within(realPath(g.policy.expand(operands[0], dir)), g.policy.workspaceDir()) {
				return refuse("rm-broad", "find with -delete/-exec rm on %s", why)
			}
		}
	case "mkfs", "mke2fs", "mkswap", "wipefs", "mkdosfs":
		return refuse("format-disk", "%s formats a disk or partition", name)
	case "dd":
		for _, a := range args {
			if strings.HasPrefix(a, "of=") {
				if err := g.checkWriteTarget(strings.TrimPrefix(a, "of="), dir); err != nil {
					return err
				}
			}
		}
	case "tee", "truncate", "touch":
		for _, t := range operands {
			if err := g.checkWriteTarget(t, dir); err != nil {
				return err
			}
		}
	case "cp", "install", "ln", "rsync":
		if len(operands) > 1 {
			if err := g.checkWriteTarget(operands[len(operands)-1], dir); err != nil {
				return err
			}
		}
	case "sed", "perl":
		if hasFlag(flags, 'i', "--in-place") {
			for _, t := range operands {
				if g.protected(t, dir) {
					return refuse("protected-write", "%s -i would change protected path %s", name, t)
				}
			}
		}
	case "shutdown", "reboot", "poweroff", "halt":
		return refuse("power", "%s stops or restarts the computer", name)
	case "systemctl", "loginctl":
		if containsAny(operands, "poweroff", "reboot", "halt", "kexec", "suspend", "hibernate") {
			return refuse("power", "%s %s stops or restarts the computer", name, strings.Join(operands, " "))
		}
	case "init", "telinit":
		if containsAny(operands, "0", "6") {
			return refuse("power", "%s %s stops or restarts the computer", name, strings.Join(operands, " "))
		}
	case "kill", "pkill", "killall5":
		if name == "killall5" || len(args) >= 2 && args[len(args)-1] == "-1" {
			return refuse("kill-all", "this would kill every process of the user")
		}
	}
	if strings.HasPrefix(name, "mkfs.") {
		return refuse("format-disk", "%s formats a disk or partition", name)
	}
	return nil
}

// checkWriteTarget judges a file a command writes into.
func (g *ExecGuard) checkWriteTarget(t, dir string) error {
	if strings.HasPrefix(t, "/dev/") {
		switch dev := strings.TrimPrefix(t, "/dev/"); {
		case dev == "null" || dev == "stdout" || dev == "stderr" || dev == "tty" || strings.HasPrefix(dev, "fd/") || strings.HasPrefix(dev, "pts/"):
			return nil
		default:
			return refuse("device-write", "writing to device %s can destroy a disk", t)
		}
	}
	if g.protected(t, dir) {
		return refuse("protected-write", "%s is a protected path (readable, never writable)", t)
	}
	return nil
}

func (g *ExecGuard) protected(t, dir string) bool {
	if len(g.policy.ProtectedPaths) == 0 || strings.ContainsAny(t, "$`") {
		return false
	}
	return g.policy.IsProtected(expandHome(t, g.policy.home()), dir)
}

// outside refuses a recursive delete outside the sandbox when it is on.
func (g *ExecGuard) outside(name, t, dir string) error {
	if g.policy.Unrestricted || strings.ContainsAny(t, "$`") {
		return nil
	}
	abs := realPath(g.policy.expand(expandHome(t, g.policy.home()), dir))
	for _, r := range g.policy.roots() {
		if within(abs, r) {
			return nil
		}
	}
	return refuse("rm-outside-workspace", "%s %s deletes %s, outside the workspace", name, t, abs)
}

// broad says why deleting t would be catastrophic, or "" if it would not.
func (g *ExecGuard) broad(t, dir string) string {
	home := g.policy.home()
	raw := strings.TrimSpace(t)
	switch raw {
	case "*", ".*", "./*", "/*", "~/*", "$HOME/*", "${HOME}/*", "~", "$HOME", "${HOME}", "/", ".", "..":
		return fmt.Sprintf("everything in %q", raw)
	}
	if strings.HasPrefix(raw, "$") && !strings.HasPrefix(raw, "$HOME") && !strings.HasPrefix(raw, "${HOME}") {
		if rest := strings.TrimLeft(raw[strings.IndexAny(raw+"/", "/"):], "/*"); rest == "" {
			return fmt.Sprintf("whatever %s holds (it may be empty, which means /)", raw)
		}
		return ""
	}
	glob := strings.HasSuffix(raw, "*")
	p := strings.TrimRight(raw, "*")
	if p == "" {
		p = "."
	}
	abs := filepath.Clean(g.policy.expand(expandHome(p, home), dir))
	switch {
	case abs == "/":
		return "the whole file system"
	case home != "" && within(home, abs):
		return fmt.Sprintf("%s, which holds the home folder", abs)
	case within(g.policy.workspaceDir(), abs) || within(dir, abs):
		return fmt.Sprintf("%s, the whole workspace or working folder", abs)
	case isSystemDir(abs):
		return fmt.Sprintf("system folder %s", abs)
	case glob && strings.Count(abs, "/") <= 1:
		return fmt.Sprintf("everything in %s", abs)
	}
	return ""
}

func isSystemDir(abs string) bool {
	parts := strings.Split(strings.Trim(abs, "/"), "/")
	if len(parts) == 1 {
		return true // any top-level folder: /etc, /usr, /home, /tmp …
	}
	switch parts[0] {
	case "bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "opt", "proc", "root", "sbin", "srv", "sys", "usr", "var":
		return len(parts) <= 2
	}
	return false
}

func isRoot(t string) bool { return filepath.Clean(t) == "/" }

func expandHome(t, home string) string {
	for _, pre := range []string{"~", "$HOME", "${HOME}"} {
		if t == pre || strings.HasPrefix(t, pre+"/") {
			return home + t[len(pre):]
		}
	}
	return t
}

// stripWrappers drops variable assignments and commands that run the next
// word as a command (sudo, env, nohup, time, nice, timeout, xargs …).
func stripWrappers(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "=") && !strings.HasPrefix(w, "-"):
			words = words[1:]
		case w == "sudo" || w == "doas" || w == "nohup" || w == "time" || w == "command" || w == "exec" ||
			w == "env" || w == "nice" || w == "ionice" || w == "xargs" || w == "timeout" || w == "stdbuf" || w == "builtin":
			words = words[1:]
			for len(words) > 0 && (strings.HasPrefix(words[0], "-") || (w == "timeout" || w == "nice") && isNumberish(words[0])) {
				words = words[1:]
			}
		default:
			return words
		}
	}
	return words
}

func isNumberish(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.smhd") == ""
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
	for _, f := range flags {
		if long != "" && f == long {
			return true
		}
		if short != 0 && !strings.HasPrefix(f, "--") && strings.IndexByte(f[1:], short) >= 0 {
			return true
		}
	}
	return false
}

func containsAny(list []string, vals ...string) bool {
	for _, a := range list {
		for _, v := range vals {
			if a == v {
				return true
			}
		}
	}
	return false
}
