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
// temp folder (and the home folder when restrictToWorkspace is off) but not in the
// knowledge folders within them, never read Hearth's own folders, use the network only
// when allowed.
func (t *ExecTool) SandboxPolicy() osbox.Policy {
	w := t.policy.writableRoots()
	if t.policy.Unrestricted {
		w = append(w, t.policy.home())
	}
	p := osbox.Policy{
		Writable: w,
		ReadOnly: t.policy.knowledgeRoots(),
		TempDir:  t.tempDir(),
		Hidden:   t.opts.Hidden,
		Network:  t.opts.Network,
		Confine:  !t.opts.Unconfined,
	}
	if s := t.agentSocket(); s != "" {
		p.Sockets = []string{s}
	}
	return p
}

// writableRoots are the resolved workspace and allowed paths: roots() without the
// knowledge folders, which are roots to read, not to write.
func (p *Policy) writableRoots() []string {
	q := *p
	q.Knowledge = nil
	return q.roots()
}

// knowledgeRoots are the resolved knowledge folders: the sandbox keeps them read-only
// where they lie inside a writable folder.
func (p *Policy) knowledgeRoots() []string {
	q := *p
	q.Workspace, q.AllowedPaths = "", nil
	return q.roots()
}

// agentSocket is ssh-agent's socket when the user let commands use it
// (tools.exec.sshAgent) and one is set: an absolute path to a socket.
func (t *ExecTool) agentSocket() string {
	if !t.opts.SSHAgent {
		return ""
	}
	s, ok := t.opts.LookupEnv("SSH_AUTH_SOCK")
	if !ok || !filepath.IsAbs(s) {
		return ""
	}
	if fi, err := os.Stat(s); err != nil || fi.Mode()&os.ModeSocket == 0 {
		return ""
	}
	return filepath.Clean(s)
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
	for _, w := range append(p.Writable, "/tmp") {
		where = append(where, tildeHome(w, t.policy.home()))
	}
	code := "gate.sandbox.on"
	if p.Network {
		code = "gate.sandbox.onNetwork"
	}
	if len(p.Sockets) > 0 {
		code += "Agent"
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
