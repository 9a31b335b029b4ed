package tools

import (
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	osbox "hearth/backend/sandbox"
)

// tools.exec.sshAgent passes ssh-agent's socket through, and the approval card says so;
// without it neither the variable nor the socket reaches a command.
func TestExecSSHAgentOptIn(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	sock := filepath.Join(dir, "agent.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no Unix sockets: %v", err)
	}
	defer l.Close()
	ws := t.TempDir()
	env := map[string]string{"SSH_AUTH_SOCK": sock, "PATH": "/usr/bin:/bin"}
	mk := func(agent bool) *ExecTool {
		return NewExec(&Policy{Workspace: ws, Home: dir}, ExecOptions{
			Sandbox: osbox.New(osbox.Options{}), SSHAgent: agent,
			LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		})
	}
	on, off := mk(true), mk(false)
	if got := on.SandboxPolicy().Sockets; !slices.Equal(got, []string{sock}) {
		t.Errorf("opted in: sockets %v, want %s", got, sock)
	}
	if !slices.Contains(on.Env(), "SSH_AUTH_SOCK="+sock) {
		t.Errorf("opted in: SSH_AUTH_SOCK not passed: %v", on.Env())
	}
	if len(off.SandboxPolicy().Sockets) != 0 || slices.ContainsFunc(off.Env(), func(kv string) bool { return strings.HasPrefix(kv, "SSH_AUTH_SOCK=") }) {
		t.Errorf("not opted in, yet the agent is passed: %v %v", off.SandboxPolicy().Sockets, off.Env())
	}
	if st := on.opts.Sandbox.Status(); st.Mode != osbox.ModeNone {
		if c := on.SandboxNote().Code; !strings.HasSuffix(c, "Agent") {
			t.Errorf("the approval card does not say the agent is allowed: %s", c)
		}
		if c := off.SandboxNote().Code; strings.HasSuffix(c, "Agent") {
			t.Errorf("the card claims the agent without the opt-in: %s", c)
		}
	}
	// A variable that names no socket is not passed as one.
	env["SSH_AUTH_SOCK"] = filepath.Join(dir, "nothing")
	if s := on.SandboxPolicy().Sockets; len(s) != 0 {
		t.Errorf("a missing socket was opted in: %v", s)
	}
}
