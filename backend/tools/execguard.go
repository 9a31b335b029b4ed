package tools

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"hearth/backend/i18n"
	"hearth/backend/internal/confined"
)

// ExecGuard refuses destructive shell commands before they run. It parses the command
// with a real shell parser (mvdan.cc/sh) and judges each simple command by what it does
// — its expanded words, its redirections, what it pipes into a shell — so ordinary
// commands such as `ls 2>/dev/null`, `echo "rm -rf /"` or a URL with ? and & pass, while
// `rm -rf ~`, `> /dev/sda` or `curl … | sh` do not. It is a fast, friendly first answer
// to model mistakes; the boundary is the OS sandbox exec runs in (docs/safety.md).
type ExecGuard struct {
	policy *Policy
	off    bool // tests of the OS sandbox itself run commands the guard would refuse
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

// Message is the refusal for the user: the rule's own sentence (guard.<rule>) with the
// detail, which names paths and commands, as it is.
func (e *GuardError) Message() i18n.Message {
	return i18n.M("guard."+e.Rule, "detail", e.Detail)
}

func refuse(rule, format string, a ...any) error {
	return &GuardError{Rule: rule, Detail: fmt.Sprintf(format, a...)}
}

// Check returns a *GuardError if command (run in dir) breaks a rule.
func (g *ExecGuard) Check(command, dir string) error {
	if g.off {
		return nil
	}
	return g.check(command, dir, 0)
}

func (g *ExecGuard) check(command, dir string, depth int) error {
	if depth > 3 {
		return refuse("nesting", "shell commands nested more than 3 levels deep")
	}
	f, err := g.parse(command)
	if err != nil {
		return refuse("syntax", "the shell cannot read this command (%v); fix its quoting or syntax", err)
	}
	s := &shellScan{g: g, depth: depth, vars: map[string]string{}, links: map[string]string{}}
	_, err = s.stmts(f.Stmts, dir)
	return err
}

// callInfo is one simple command: its expanded words and the syntax they came from.
type callInfo struct {
	words []string
	expr  *syntax.CallExpr
}

// checkCall judges one simple command.
func (g *ExecGuard) checkCall(s *shellScan, c callInfo, dir string) error {
	words := stripWrappers(c.words)
	if len(words) == 0 {
		return nil
	}
	name := filepath.Base(words[0])
	args := words[1:]
	flags, operands := splitFlags(args)
	if dynamic(words[0]) {
		return g.dynamicCommand(s, c, words, dir)
	}
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "busybox-sh":
		if code, ok := shellCode(args); ok {
			if obfuscated(s, c.expr, dir) != "" {
				return refuse("decoded-code", "%s -c runs text that is downloaded or decoded while it runs; show it to the user first", name)
			}
			return g.check(code, dir, s.depth+1)
		}
		if obfuscated(s, c.expr, dir) != "" {
			return refuse("decoded-code", "%s runs a script that is downloaded or decoded while it runs", name)
		}
	case "eval", "source", ".":
		if why := obfuscated(s, c.expr, dir); why != "" {
			return refuse("decoded-code", "%s of %s runs code nobody has read; show it to the user first", name, why)
		}
		if name == "eval" {
			return g.check(strings.Join(args, " "), dir, s.depth+1)
		}
	case "python", "python2", "python3", "perl", "ruby", "node", "nodejs", "php", "deno", "bun":
		if code, ok := inlineCode(name, args); ok {
			return g.checkScript(s, code, dir)
		}
	case "rm", "rmdir", "shred", "unlink", "srm", "trash", "trash-put", "gio":
		return g.checkDelete(name, flags, operands, dir)
	case "mv":
		return g.checkMove(s, flags, operands, dir)
	case "chmod", "chown", "chgrp", "setfacl", "chattr":
		return g.checkChmod(name, flags, operands, dir)
	case "find":
		return g.checkFind(s, args, dir)
	case "dd":
		for _, a := range args {
			if strings.HasPrefix(a, "of=") {
				if err := g.checkWriteTarget(s, strings.TrimPrefix(a, "of="), dir); err != nil {
					return err
				}
			}
		}
	case "tee", "truncate", "touch", "fallocate":
		for _, t := range operands {
			if err := g.checkWriteTarget(s, t, dir); err != nil {
				return err
			}
		}
	case "cp", "install", "rsync", "scp":
		if len(operands) > 1 {
			return g.checkWriteTarget(s, operands[len(operands)-1], dir)
		}
	case "ln":
		if len(operands) > 0 {
			if t := filepath.Clean(operands[0]); hasFlag(flags, 's', "--symbolic") && isDiskDevice(t) {
				return refuse("device-write", "a link to disk device %s lets later writes destroy it", t)
			}
		}
		if len(operands) > 1 {
			return g.checkWriteTarget(s, operands[len(operands)-1], dir)
		}
	case "sed":
		if hasFlag(flags, 'i', "--in-place") {
			for _, t := range operands[min(1, len(operands)):] {
				if err := g.checkWriteTarget(s, t, dir); err != nil {
					return err
				}
			}
		}
	case "crontab":
		if !hasFlag(flags, 'l', "") || len(operands) > 0 {
			return refuse("persistence", "crontab would install a job that runs later, outside Hearth")
		}
	case "at", "batch":
		return refuse("persistence", "%s schedules a command to run later, outside Hearth", name)
	case "systemctl", "loginctl":
		return checkSystemctl(name, flags, operands)
	case "kill", "pkill", "killall", "killall5", "skill", "slay":
		return checkKill(name, args)
	}
	if err := checkDisk(name, flags, operands); err != nil {
		return err
	}
	return checkPower(name, operands)
}

// dynamicCommand judges a command whose name is not known before it runs.
func (g *ExecGuard) dynamicCommand(s *shellScan, c callInfo, words []string, dir string) error {
	if why := obfuscated(s, c.expr, dir); why != "" {
		return refuse("decoded-code", "the command to run comes from %s; show it to the user first", why)
	}
	_, ops := splitFlags(words[1:])
	for _, t := range ops {
		if why := g.broad(t, dir, false); why != "" {
			return refuse("dynamic-command", "the command %s is only known when it runs and is given %s", words[0], why)
		}
	}
	return nil
}

func (g *ExecGuard) checkDelete(name string, flags, operands []string, dir string) error {
	if name == "gio" { // gio trash / gio remove
		if len(operands) == 0 || operands[0] != "trash" && operands[0] != "remove" {
			return nil
		}
		operands = operands[1:]
	}
	recursive := hasFlag(flags, 'r', "--recursive") || hasFlag(flags, 'R', "") || name == "gio" || strings.HasPrefix(name, "trash")
	if hasFlag(flags, 0, "--no-preserve-root") {
		return refuse("rm-broad", "--no-preserve-root")
	}
	for _, t := range operands {
		if recursive || name == "shred" || name == "srm" {
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
		if p := g.persistencePath(t, dir); p != "" && name != "rm" && name != "unlink" {
			return refuse("protected-write", "%s would change %s", name, p)
		}
	}
	return nil
}

func (g *ExecGuard) checkChmod(name string, flags, operands []string, dir string) error {
	start := min(1, len(operands))
	if name == "chattr" || name == "setfacl" {
		start = 0
	}
	targets := operands[start:]
	if hasFlag(flags, 'R', "--recursive") || name == "chattr" || len(targets) > 0 && isRoot(targets[len(targets)-1]) {
		for _, t := range targets {
			// A recursive mode change inside the workspace is ordinary (chmod -R u+w .);
			// on /, the home folder or a system folder it breaks the machine.
			if why := g.broad(t, dir, true); why != "" {
				return refuse("chmod-broad", "%s -R on %s", name, why)
			}
		}
	}
	for _, t := range targets {
		if g.protected(t, dir) {
			return refuse("protected-write", "%s would change protected path %s", name, t)
		}
	}
	return nil
}

func (g *ExecGuard) checkFind(s *shellScan, args []string, dir string) error {
	roots, filtered := findRoots(args)
	deletes := containsAny(args, "-delete")
	for i, a := range args {
		if (a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir") && i+1 < len(args) {
			cmd := stripWrappers(args[i+1:])
			if len(cmd) > 0 && isDelete(filepath.Base(cmd[0])) {
				deletes = true
			}
		}
	}
	if !deletes {
		return nil
	}
	for _, r := range roots {
		// find . -name x -delete in the workspace is ordinary; from / or ~ it is not.
		if why := g.broad(r, dir, true); why != "" {
			return refuse("rm-broad", "find with -delete/-exec rm on %s", why)
		}
		if !filtered {
			if why := g.broad(r, dir, false); why != "" {
				return refuse("rm-broad", "find with -delete/-exec rm and no test such as -name deletes %s", why)
			}
		}
	}
	return nil
}

// checkWriteTarget judges a file a command writes into.
func (g *ExecGuard) checkWriteTarget(s *shellScan, t, dir string) error {
	if t == "" || dynamic(t) {
		return nil
	}
	abs := filepath.Clean(g.policy.expand(expandHome(t, g.policy.home()), dir))
	if target, ok := s.links[abs]; ok {
		abs = filepath.Clean(g.policy.expand(target, dir))
	}
	real := realPath(abs)
	for _, p := range []string{abs, real} {
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
	if p := g.persistencePath(t, dir); p != "" {
		return refuse("persistence", "writing %s makes something run later, outside Hearth", p)
	}
	return nil
}

func safeDevice(p string) bool {
	dev := strings.TrimPrefix(p, "/dev/")
	return dev == "null" || dev == "stdout" || dev == "stderr" || dev == "tty" || dev == "zero" ||
		strings.HasPrefix(dev, "fd/") || strings.HasPrefix(dev, "pts/") || strings.HasPrefix(dev, "shm/")
}

func isDiskDevice(p string) bool { return confined.Within(p, "/dev") && !safeDevice(p) }

func (g *ExecGuard) protected(t, dir string) bool {
	if len(g.policy.ProtectedPaths) == 0 || dynamic(t) {
		return false
	}
	return g.policy.IsProtected(expandHome(t, g.policy.home()), dir)
}

// outside refuses a recursive delete outside the workspace when confinement is on.
// Caches are an exception: deleting one is how a user fixes a broken build.
func (g *ExecGuard) outside(name, t, dir string) error {
	if g.policy.Unrestricted || dynamic(t) {
		return nil
	}
	abs := realPath(g.policy.expand(expandHome(t, g.policy.home()), dir))
	roots := append(g.policy.roots(), filepath.Join(g.policy.home(), ".cache"))
	for _, r := range roots {
		if confined.Within(abs, r) {
			return nil
		}
	}
	return refuse("rm-outside-workspace", "%s %s deletes %s, outside the workspace", name, t, abs)
}

// broad says why deleting (or, with system, changing the modes of) t would be
// catastrophic, or "" if it would not. With system set only /, the home folder and
// system folders count; otherwise the whole workspace or working folder does too.
func (g *ExecGuard) broad(t, dir string, system bool) string {
	home := g.policy.home()
	raw := strings.TrimSpace(t)
	switch raw {
	case "/", "/*", "~", "~/*", "$HOME", "${HOME}", "$HOME/*", "${HOME}/*":
		return fmt.Sprintf("everything in %q", raw)
	case ".", "..", ".*", "./.*":
		if !system {
			return fmt.Sprintf("everything in %q", raw)
		}
	}
	if strings.HasPrefix(raw, "$") && !strings.HasPrefix(raw, "$HOME") && !strings.HasPrefix(raw, "${HOME}") {
		// "$X/" or "$X/*" is / when X is empty; a bare "$X" then names nothing.
		if !strings.ContainsAny(raw, "/*") {
			return ""
		}
		if rest := strings.TrimLeft(raw[strings.IndexAny(raw+"/", "/"):], "/*"); rest == "" {
			return fmt.Sprintf("whatever %s holds (it may be empty, which means /)", raw)
		}
		return ""
	}
	if dynamic(raw) {
		return ""
	}
	glob := strings.HasSuffix(raw, "*")
	p := strings.TrimRight(raw, "*")
	p = cmp.Or(p, ".")
	abs := filepath.Clean(g.policy.expand(expandHome(p, home), dir))
	switch {
	case abs == "/":
		return "the whole file system"
	case home != "" && confined.Within(home, abs):
		return fmt.Sprintf("%s, which holds the home folder", abs)
	case isSystemDir(abs):
		return fmt.Sprintf("system folder %s", abs)
	case system:
		return ""
	case g.holdsRoot(abs):
		return fmt.Sprintf("%s, the whole workspace or an allowed folder", abs)
	case glob && strings.Count(abs, "/") <= 1:
		return fmt.Sprintf("everything in %s", abs)
	}
	return ""
}

// holdsRoot reports whether abs is the workspace, an allowed path, or a folder above one.
func (g *ExecGuard) holdsRoot(abs string) bool {
	if confined.Within(g.policy.workspaceDir(), abs) {
		return true
	}
	for _, r := range g.policy.roots() {
		if confined.Within(r, abs) {
			return true
		}
	}
	return false
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
