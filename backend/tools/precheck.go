package tools

import (
	"os"
	"path/filepath"
	"strings"

	"hearth/backend/i18n"
)

// Preview is what a person should see of a call before allowing it: where it runs
// and whether it destroys or overwrites something that cannot be brought back.
type Preview struct {
	// Dir is the resolved working directory (exec).
	Dir string `json:"dir,omitempty"`
	// Destructive marks a call that deletes, moves over, truncates or rewrites
	// existing data (rm, mv, dd, `>` onto a file, git reset --hard, …).
	Destructive bool `json:"destructive,omitempty"`
	// Sandbox is what the call may do once allowed (exec's sandbox rules), for the
	// approval card; nil when nothing confines it.
	Sandbox *i18n.Message `json:"sandbox,omitempty"`
}

// Prechecker is implemented by tools whose own safety rules can refuse a call
// before it runs (exec's guard, its working directory). Registry.Prepare runs it,
// so a call the rules would refuse is refused at once, with its reason, and never
// offered to the person for approval: approving it could not make it run.
type Prechecker interface {
	Precheck(args Args) (Preview, error)
}

// Precheck implements Prechecker: the working directory must exist inside what the
// policy allows, and the guard must pass the command, exactly as run checks them.
func (t *ExecTool) Precheck(args Args) (Preview, error) {
	a, ok := args.value.(*execArgs)
	if !ok || a == nil {
		return Preview{}, nil // run reports the bug
	}
	dir, err := t.policy.ResolveDir(a.WorkingDir)
	if err != nil {
		return Preview{}, err
	}
	destructive, err := t.guard.judge(a.Command, dir)
	if err != nil {
		return Preview{Dir: dir}, err
	}
	return Preview{Dir: dir, Destructive: destructive}, nil
}

// Destructive reports whether a shell command deletes, moves, truncates or overwrites
// data: a simple command named in destructiveCommands or mkfs.*, `git clean/reset/…`,
// `git push --force`, `find … -delete`, `sed -i`, and an output redirection `>` onto a
// file that exists (relative to dir) or whose name is only known when it runs. It reads
// the command as the deny list does (ExecGuard.judge), words expanded; a command the
// shell cannot read counts as destructive: nobody can tell what it does.
func Destructive(command, dir string) bool {
	d, _ := NewExecGuard(nil).judge(command, dir)
	return d
}

// destructiveCommands delete or rewrite what they are given.
var destructiveCommands = map[string]bool{
	"rm": true, "rmdir": true, "unlink": true, "shred": true, "dd": true, "truncate": true,
	"mv": true, "chmod": true, "chown": true, "chgrp": true, "kill": true, "pkill": true,
	"killall": true, "wipefs": true, "fdisk": true, "parted": true, "srm": true,
}

// destructiveGit are git subcommands that throw away work.
var destructiveGit = map[string]bool{"clean": true, "reset": true, "rm": true, "restore": true, "checkout": true, "stash": true}

// overwrites reports whether a `>` onto target replaces something: an existing
// file, or a name not known until the command runs.
func overwrites(target, dir string) bool {
	switch {
	case target == "" || dynamic(target):
		return true // built from variables or substitutions
	case target == "/dev/null" || target == "/dev/stdout" || target == "/dev/stderr":
		return false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	_, err := os.Lstat(target)
	return err == nil
}

// destructiveCall reports a destructive simple command, given its argv without wrappers.
func destructiveCall(words []string) bool {
	if len(words) == 0 {
		return false
	}
	name := filepath.Base(words[0])
	rest := words[1:]
	switch {
	case destructiveCommands[name], strings.HasPrefix(name, "mkfs"):
		return true
	case name == "git" && len(rest) > 0:
		sub := rest[0]
		if destructiveGit[sub] {
			return true
		}
		if sub == "push" {
			for _, w := range rest[1:] {
				if w == "-f" || strings.HasPrefix(w, "--force") || strings.HasPrefix(w, "+") {
					return true
				}
			}
		}
	case name == "find":
		for i, w := range rest {
			if w == "-delete" || (w == "-exec" || w == "-execdir") && i+1 < len(rest) && destructiveCall(stripWrappers(rest[i+1:])) {
				return true
			}
		}
	case name == "sed" || name == "perl":
		for _, w := range rest {
			if w == "-i" || strings.HasPrefix(w, "-i") || strings.HasPrefix(w, "--in-place") {
				return true
			}
		}
	case name == "rsync":
		for _, w := range rest {
			if strings.HasPrefix(w, "--delete") || w == "--remove-source-files" {
				return true
			}
		}
	}
	return false
}
