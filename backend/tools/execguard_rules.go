package tools

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"hearth/backend/internal/confined"
)

// stripWrappers drops variable assignments and commands that run the next word as a
// command (sudo, env, nohup, time, nice, timeout, xargs, busybox …) with their options.
func stripWrappers(words []string) []string {
	for len(words) > 0 {
		w := filepath.Base(words[0])
		switch {
		case strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "=") && !strings.HasPrefix(words[0], "-"):
			words = words[1:]
		case w == "sudo" || w == "doas" || w == "nohup" || w == "time" || w == "command" || w == "exec" ||
			w == "env" || w == "nice" || w == "ionice" || w == "xargs" || w == "timeout" || w == "stdbuf" ||
			w == "builtin" || w == "setsid" || w == "busybox" || w == "toybox" || w == "chroot" || w == "unbuffer" ||
			w == "flock" || w == "caffeinate" || w == "systemd-run" || w == "runuser" || w == "su" && len(words) > 1 && words[1] == "-c":
			words = words[1:]
			for len(words) > 0 && (strings.HasPrefix(words[0], "-") || (w == "timeout" || w == "nice") && isNumberish(words[0]) ||
				w == "env" && strings.Contains(words[0], "=")) {
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
	return slices.ContainsFunc(list, func(a string) bool { return slices.Contains(vals, a) })
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "ash":
		return true
	}
	return false
}

func isInterpreter(name string) bool {
	switch name {
	case "python", "python2", "python3", "perl", "ruby", "node", "nodejs", "php", "deno", "bun":
		return true
	}
	return isShell(name)
}

func isDelete(name string) bool {
	switch name {
	case "rm", "rmdir", "shred", "unlink", "srm":
		return true
	}
	return false
}

// shellCode returns the command string of `sh -c CODE` (also -ec, -xc …).
func shellCode(args []string) (string, bool) {
	for i, a := range args {
		if i+1 >= len(args) {
			break
		}
		if a == "-c" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "c") && len(a) <= 5 {
			return args[i+1], true
		}
	}
	return "", false
}

// inlineCode returns the program given on the command line (python -c, perl -e, node -e …).
func inlineCode(name string, args []string) (string, bool) {
	for i, a := range args {
		if i+1 >= len(args) {
			break
		}
		switch {
		case strings.HasPrefix(name, "python") && a == "-c",
			(name == "perl" || name == "ruby") && (a == "-e" || a == "-E" || strings.HasPrefix(a, "-") && strings.HasSuffix(a, "e") && len(a) <= 5),
			(name == "node" || name == "nodejs" || name == "bun" || name == "deno") && (a == "-e" || a == "--eval" || a == "-p" || a == "eval"),
			name == "php" && a == "-r":
			return args[i+1], true
		}
	}
	return "", false
}

// readsCodeFromStdin reports an interpreter that runs what arrives on its input:
// `sh`, `bash -s`, `python3 -`, `perl` without a script.
func readsCodeFromStdin(words []string) bool {
	name := filepath.Base(words[0])
	if !isInterpreter(name) {
		return false
	}
	if _, ok := shellCode(words[1:]); ok {
		return false
	}
	if _, ok := inlineCode(name, words[1:]); ok {
		return false
	}
	_, ops := splitFlags(words[1:])
	return len(ops) == 0 || ops[0] == "-" || ops[0] == "/dev/stdin"
}

// fetchOrDecode names a command that downloads data or decodes hidden text.
func fetchOrDecode(words []string) string {
	if len(words) == 0 {
		return ""
	}
	name := filepath.Base(words[0])
	flags, ops := splitFlags(words[1:])
	switch name {
	case "curl", "wget", "fetch", "aria2c", "nc", "ncat", "netcat", "socat", "http", "https", "lynx", "links":
		return "a download (" + name + ")"
	case "base64", "base32", "basenc":
		if hasFlag(flags, 'd', "--decode") || hasFlag(flags, 'D', "") {
			return "decoded text (" + name + " -d)"
		}
	case "xxd":
		if hasFlag(flags, 'r', "") {
			return "decoded text (xxd -r)"
		}
	case "openssl":
		if containsAny(flags, "-d", "-a", "-base64") || containsAny(ops, "base64", "enc") && containsAny(flags, "-d") {
			return "decoded text (openssl)"
		}
	case "uudecode", "gunzip", "zcat", "bzcat", "xzcat", "unxz", "rev":
		return "decoded text (" + name + ")"
	case "gzip", "xz", "bzip2", "zstd":
		if hasFlag(flags, 'd', "--decompress") {
			return "decoded text (" + name + " -d)"
		}
	case "tr":
		return "transformed text (tr)"
	}
	return ""
}

// obfuscated says whether a command's words are produced by a download or a decoder
// while it runs ($(curl …), <(base64 -d …)).
func obfuscated(s *shellScan, c *syntax.CallExpr, dir string) string {
	if c == nil {
		return ""
	}
	why := ""
	for _, w := range c.Args {
		syntax.Walk(w, func(n syntax.Node) bool {
			if why != "" {
				return false
			}
			switch x := n.(type) {
			case *syntax.CmdSubst:
				for _, st := range x.Stmts {
					if why == "" {
						why = s.fetchesOrDecodes(st, dir)
					}
				}
				return false
			case *syntax.ProcSubst:
				for _, st := range x.Stmts {
					if why == "" {
						why = s.fetchesOrDecodes(st, dir)
					}
				}
				return false
			}
			return true
		})
	}
	return why
}

// findRoots returns the starting points of a find command and whether a test such as
// -name narrows what it acts on.
func findRoots(args []string) (roots []string, filtered bool) {
	i := 0
	for i < len(args) && (args[i] == "-H" || args[i] == "-L" || args[i] == "-P") {
		i++
	}
	for ; i < len(args) && !strings.HasPrefix(args[i], "-") && args[i] != "(" && args[i] != "!"; i++ {
		roots = append(roots, args[i])
	}
	for _, a := range args[i:] {
		switch a {
		case "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-newer", "-mtime", "-mmin", "-atime",
			"-ctime", "-size", "-empty", "-user", "-group", "-perm", "-wholename", "-lname", "-links", "-inum":
			filtered = true
		}
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	return roots, filtered
}

var (
	scriptStringRE = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|` + "`([^`]*)`")
	scriptRunRE    = regexp.MustCompile(`\b(system|popen|exec[lv]?p?e?|spawn|spawnSync|execSync|execFileSync|check_output|check_call|call|run|Popen|getoutput|getstatusoutput)\s*\(|` + "`" + `|%x|\bqx\b`)
	scriptDeleteRE = regexp.MustCompile(`\b(rmtree|rm_rf|rm_r|remove_tree|rmSync|rmdirSync|removedirs|rimraf|rm\s*\(|unlink|remove|rmdir|emptyDirSync|removeSync)\b`)
	scriptHomeRE   = regexp.MustCompile(`expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|\bhomedir\(\)|Dir\.home|\$ENV\{\s*['"]?HOME|environ\[\s*['"]HOME|getenv\(\s*['"]HOME|File\.expand_path\(\s*['"]~['"]`)
)

// checkScript judges a program in another language given inline (python -c …): shell
// commands it runs through system()/subprocess are checked as commands, and a delete
// of /, the home folder or a system folder is refused.
func (g *ExecGuard) checkScript(s *shellScan, code, dir string) error {
	runs := scriptRunRE.MatchString(code)
	deletes := scriptDeleteRE.MatchString(code)
	for _, m := range scriptStringRE.FindAllStringSubmatch(code, -1) {
		lit := m[1] + m[2] + m[3]
		if runs && strings.ContainsAny(lit, " \t") {
			if err := g.check(lit, dir, s.depth+1); err != nil {
				return err
			}
		}
		if deletes {
			if why := g.broad(lit, dir, true); why != "" && (lit == "~" || strings.HasPrefix(lit, "/") || strings.HasPrefix(lit, "$")) {
				return refuse("rm-broad", "the program deletes %s", why)
			}
		}
	}
	if deletes && scriptHomeRE.MatchString(code) {
		return refuse("rm-broad", "the program deletes in the home folder")
	}
	return nil
}

// persistencePath names a file whose change makes code run later outside Hearth: shell
// start-up files, SSH keys, cron, autostart and systemd units, system start-up files.
func (g *ExecGuard) persistencePath(t, dir string) string {
	if dynamic(t) {
		return ""
	}
	home := g.policy.home()
	abs := filepath.Clean(g.policy.expand(expandHome(t, home), dir))
	if home != "" && confined.Within(abs, home) {
		rel, _ := filepath.Rel(home, abs)
		switch rel {
		case ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile",
			".zshenv", ".zlogin", ".xprofile", ".xinitrc", ".xsession", ".pam_environment", ".ssh/authorized_keys",
			".ssh/authorized_keys2", ".ssh/rc", ".ssh/config", ".config/fish/config.fish", ".inputrc":
			return "~/" + rel
		}
		for _, d := range []string{".config/autostart", ".config/systemd", ".local/share/systemd", ".config/environment.d", ".config/fish/conf.d", ".kde/Autostart", ".config/plasma-workspace/env"} {
			if confined.Within(rel, d) {
				return "~/" + rel
			}
		}
	}
	for _, d := range []string{"/etc/cron.d", "/etc/crontab", "/etc/cron.daily", "/etc/cron.hourly", "/etc/cron.weekly",
		"/etc/cron.monthly", "/var/spool/cron", "/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/rc.local",
		"/etc/systemd", "/lib/systemd/system", "/usr/lib/systemd/system", "/etc/ld.so.preload", "/etc/sudoers",
		"/etc/sudoers.d", "/etc/xdg/autostart", "/etc/environment", "/etc/passwd", "/etc/shadow", "/etc/init.d"} {
		if confined.Within(abs, d) {
			return abs
		}
	}
	return ""
}

func checkSystemctl(name string, flags, operands []string) error {
	power := []string{"poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate", "soft-reboot", "rescue", "emergency"}
	for _, o := range operands {
		unit := strings.TrimSuffix(o, ".target")
		if containsAny(power, unit) {
			return refuse("power", "%s %s stops or restarts the computer", name, strings.Join(operands, " "))
		}
	}
	if name == "loginctl" && len(operands) > 0 && containsAny(operands[:1], "terminate-user", "kill-user", "terminate-session", "kill-session", "terminate-seat") {
		return refuse("kill-all", "loginctl %s ends a whole login session", operands[0])
	}
	if name == "systemctl" && len(operands) > 0 && containsAny(operands[:1], "enable", "link", "edit", "set-default", "mask", "preset", "preset-all") {
		return refuse("persistence", "systemctl %s changes what starts with the computer", operands[0])
	}
	_ = flags
	return nil
}

// checkKill refuses signals to every process of a user, to init, or to all by pattern.
func checkKill(name string, args []string) error {
	flags, ops := splitFlags(args)
	switch name {
	case "killall5", "slay", "skill":
		return refuse("kill-all", "%s kills every process it can", name)
	case "kill":
		for _, a := range args {
			if a == "-1" && len(args) >= 2 && args[len(args)-1] == "-1" || a == "1" {
				return refuse("kill-all", "this would kill every process of the user, or init")
			}
		}
	case "pkill", "killall":
		byUser := hasFlag(flags, 'u', "--user") || hasFlag(flags, 'U', "--uid")
		patterns := 0
		for i, a := range args {
			if strings.HasPrefix(a, "-") || i > 0 && (args[i-1] == "-u" || args[i-1] == "-U" || args[i-1] == "--user" ||
				args[i-1] == "-s" || args[i-1] == "--signal" || args[i-1] == "-g" || args[i-1] == "-t" || args[i-1] == "-P") {
				continue
			}
			switch a {
			case ".", ".*", "^", "", "$", "^.*$", "'.*'":
				return refuse("kill-all", "%s %s matches every process", name, a)
			}
			patterns++
		}
		if byUser && patterns == 0 {
			return refuse("kill-all", "%s by user with no name kills every process of that user", name)
		}
		_ = ops
	}
	return nil
}

// checkDisk refuses formatting, wiping and repartitioning.
func checkDisk(name string, flags, operands []string) error {
	if strings.HasPrefix(name, "mkfs.") {
		switch strings.TrimPrefix(name, "mkfs.") {
		case "ext2", "ext3", "ext4", "xfs", "btrfs", "vfat", "fat", "msdos", "ntfs", "exfat", "f2fs", "minix",
			"bfs", "cramfs", "jfs", "reiserfs", "udf", "hfsplus", "nilfs2":
			return refuse("format-disk", "%s formats a disk or partition", name)
		}
		return nil // a script of one's own, such as mkfs.helper.sh
	}
	switch name {
	case "mkfs", "mke2fs", "mkswap", "wipefs", "mkdosfs", "mkntfs", "blkdiscard", "mkfs.btrfs":
		return refuse("format-disk", "%s formats or wipes a disk or partition", name)
	case "sgdisk", "sfdisk", "parted", "fdisk", "gdisk", "cfdisk":
		if hasFlag(flags, 'l', "--list") || containsAny(operands, "print") || hasFlag(flags, 'd', "--dump") || hasFlag(flags, 'p', "--print") {
			return nil
		}
		return refuse("format-disk", "%s changes a disk's partitions", name)
	case "cryptsetup":
		if containsAny(operands, "luksFormat", "erase", "luksErase") {
			return refuse("format-disk", "cryptsetup %s destroys a disk's data", operands[0])
		}
	case "hdparm", "nvme":
		if containsAny(flags, "--security-erase", "--security-erase-enhanced", "--trim-sector-ranges") || containsAny(operands, "format", "sanitize") {
			return refuse("format-disk", "%s erases a disk", name)
		}
	}
	return nil
}

func checkPower(name string, operands []string) error {
	switch name {
	case "shutdown", "reboot", "poweroff", "halt", "kexec":
		return refuse("power", "%s stops or restarts the computer", name)
	case "init", "telinit":
		if containsAny(operands, "0", "6") {
			return refuse("power", "%s %s stops or restarts the computer", name, strings.Join(operands, " "))
		}
	}
	return nil
}

// checkMove judges mv: what it moves away must not be a whole folder that matters
// (the workspace, ~, /), while the folder it moves into may well be one — `mv FILE .`
// moves nothing away. The destination is the last operand, or the value of -t /
// --target-directory.
func (g *ExecGuard) checkMove(s *shellScan, flags, operands []string, dir string) error {
	sources, dest := operands, ""
	for _, f := range flags {
		if v, ok := strings.CutPrefix(f, "--target-directory="); ok {
			dest = v
		} else if (f == "--target-directory" || !strings.HasPrefix(f, "--") && strings.HasSuffix(f, "t")) && len(operands) > 0 {
			dest, sources = operands[0], operands[1:]
		}
	}
	if dest == "" && len(operands) > 1 {
		sources, dest = operands[:len(operands)-1], operands[len(operands)-1]
	}
	for _, t := range sources {
		if why := g.broad(t, dir, false); why != "" {
			return refuse("mv-broad", "mv %s would move away %s", t, why)
		}
	}
	for _, t := range operands {
		if g.protected(t, dir) {
			return refuse("protected-write", "mv would change protected path %s", t)
		}
	}
	if dest != "" {
		return g.checkWriteTarget(s, dest, dir)
	}
	return nil
}
