package tools

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"hearth/backend/internal/confined"
	osbox "hearth/backend/sandbox"
)

// SandboxPolicy is what a command may do: write in the workspace, allowedPaths and the
// temp folder (and the home folder when restrictToWorkspace is off), never read
// Hearth's own folders, use the network only when allowed.
func (t *ExecTool) SandboxPolicy() osbox.Policy {
	w := t.policy.roots()
	if t.policy.Unrestricted {
		w = append(w, t.policy.home())
	}
	return osbox.Policy{
		Writable: append(w, t.tempDir()),
		Hidden:   t.opts.Hidden,
		Network:  t.opts.Network,
		Confine:  !t.opts.Unconfined,
	}
}

func (t *ExecTool) tempDir() string {
	if t.opts.TempDir != "" {
		return t.opts.TempDir
	}
	return os.TempDir()
}

// sandbox wraps cmd so that it runs confined, under a reaper.
func (t *ExecTool) sandbox(cmd *exec.Cmd) {
	if t.opts.Sandbox == nil {
		return
	}
	cmd.Env = append(cmd.Env, "TMPDIR="+t.tempDir())
	t.opts.Sandbox.Wrap(cmd, t.SandboxPolicy())
}

// SandboxNote says in one line what a command will be allowed to do: the approval card
// shows it, so a person knows what "allow" lets loose.
func (t *ExecTool) SandboxNote() string {
	if t.opts.Sandbox == nil {
		return ""
	}
	st := t.opts.Sandbox.Status()
	if t.opts.Unconfined || st.Mode == osbox.ModeNone {
		why := "tools.exec.sandbox is off"
		if !t.opts.Unconfined {
			why = "no sandbox on this system"
		}
		return fmt.Sprintf("Unconfined (%s): the command runs with your full rights.", why)
	}
	p := t.SandboxPolicy()
	var where []string
	for _, w := range p.Writable {
		where = append(where, tildeHome(w, t.policy.home()))
	}
	net := "no network (tools.exec.network is off)"
	if p.Network {
		net = "network allowed (tools.exec.network)"
	}
	return fmt.Sprintf("Sandboxed (%s): writes only in %s; Hearth's own folders hidden; %s.",
		st.Mode, strings.Join(where, ", "), net)
}

func tildeHome(p, home string) string {
	if home != "" && confined.Within(p, home) {
		if rel, err := filepath.Rel(home, p); err == nil {
			if rel == "." {
				return "~"
			}
			return "~/" + rel
		}
	}
	return p
}
