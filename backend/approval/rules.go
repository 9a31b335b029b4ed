// Package approval is Hearth's human in the loop (docs/design/safety-defaults.md#approval): a Gate that the
// agent consults before every tool call. Depending on the mode and the
// per-tool overrides of config tools.approval, a call runs, is denied, or
// waits — without busy waiting, cancellable — until the user allows it once,
// for this chat, always (saved to the config), or denies it. Unattended runs
// (cron, heartbeat, subagents) never wait.
package approval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"hearth/backend/config"
	"hearth/backend/i18n"
	"hearth/backend/tools"
)

// Mode is tools.approval.mode.
type Mode string

// Modes (docs/design/safety-defaults.md#approval).
const (
	// ModeAll runs every tool without asking.
	ModeAll Mode = "all"
	// ModeRisky asks before exec, MCP tools and file writes outside the
	// memory files (the default).
	ModeRisky Mode = "risky"
	// ModeAsk asks before every tool call.
	ModeAsk Mode = "ask"
)

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.TrimSpace(s)); m {
	case ModeAll, ModeRisky, ModeAsk:
		return m, nil
	}
	return "", fmt.Errorf("unknown approval mode %q (hint: use \"all\", \"risky\" or \"ask\")", s)
}

// Rules are the approval settings a Gate applies: the mode and the per-tool
// overrides. Never wins over Always, Always over Ask, Ask over the mode.
type Rules struct {
	Mode Mode
	// Always names tools that run without asking, unattended runs included.
	Always []string
	// Ask names tools that ask every time, whatever the mode.
	Ask []string
	// Never names tools that are always denied.
	Never []string
}

// RulesFrom reads config tools.approval; an unknown mode counts as risky.
func RulesFrom(c config.Approval) Rules {
	m, err := ParseMode(c.Mode)
	if err != nil {
		m = ModeRisky
	}
	return Rules{Mode: m, Always: c.Always, Ask: c.Ask, Never: c.Never}
}

// Risk says why a call would need approval in risky mode (a gate.why.* message), or
// a zero Message when it is harmless. workspace locates the memory files, which the
// agent may always write. args are the call's decoded arguments, the very value the
// tool runs with: a file writer is judged by the path it will write, never by a
// second reading of what the model sent.
func Risk(workspace, tool string, args tools.Args) i18n.Message {
	switch {
	case tool == "exec":
		return i18n.M("gate.why.exec")
	case strings.HasPrefix(tool, "mcp_"):
		return i18n.M("gate.why.mcp")
	}
	if w, ok := args.Value().(tools.FileWrite); ok {
		if !isMemoryFile(workspace, w.WritePath()) {
			return i18n.M("gate.why.write")
		}
		return i18n.Message{}
	}
	if tool == "write_file" || tool == "edit_file" {
		return i18n.M("gate.why.write") // a writer whose arguments do not name their path
	}
	return i18n.Message{}
}

// isMemoryFile reports whether p names a Markdown file directly in the
// workspace's memory/ folder (MEMORY.md, HISTORY.md, daily notes), after
// resolving "~", relative paths and symlinks the way the file tools do.
func isMemoryFile(workspace, p string) bool {
	p = strings.TrimSpace(p)
	if workspace == "" || p == "" || !strings.EqualFold(filepath.Ext(p), ".md") {
		return false
	}
	p = config.ExpandHome(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(workspace, p)
	}
	// A symlink named like a memory file may point anywhere (even to a file
	// yet to be created): follow it.
	for range 40 {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			break
		}
		target, err := os.Readlink(p)
		if err != nil {
			return false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	if !strings.EqualFold(filepath.Ext(p), ".md") {
		return false
	}
	dir := resolve(filepath.Dir(filepath.Clean(p)))
	return dir == resolve(filepath.Join(workspace, "memory"))
}

// resolve follows symlinks in the longest part of p that exists, so a path
// that is yet to be created compares equal to its resolved parent's form.
func resolve(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
