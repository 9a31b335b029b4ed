package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"hearth/backend/i18n"
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
// shows it, so a person knows what "allow" lets loose. The zero Message says nothing.
func (t *ExecTool) SandboxNote() i18n.Message {
	if t.opts.Sandbox == nil {
		return i18n.Message{}
	}
	st := t.opts.Sandbox.Status()
	if t.opts.Unconfined {
		return i18n.M("gate.sandbox.off")
	}
	if st.Mode == osbox.ModeNone {
		return i18n.M("gate.sandbox.none")
	}
	p := t.SandboxPolicy()
	var where []string
	for _, w := range p.Writable {
		where = append(where, tildeHome(w, t.policy.home()))
	}
	code := "gate.sandbox.on"
	if p.Network {
		code = "gate.sandbox.onNetwork"
	}
	return i18n.M(code, "mode", string(st.Mode), "where", strings.Join(where, ", "))
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
