//go:build unix

package mcp

import (
	"context"
	"os/exec"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// groupTransport runs a stdio server in a process group of its own and ends the whole
// group when the connection closes. Why: most servers are started through a wrapper
// (`npx`, `uvx`, a shell script) whose real server is a grandchild; the SDK stops only
// the process it started, so the server itself lived on after Hearth let go of it —
// one more orphan at every reconnect, settings change and quit.
type groupTransport struct{ *sdk.CommandTransport }

func newStdioTransport(cmd *exec.Cmd, terminate time.Duration) sdk.Transport {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	return groupTransport{&sdk.CommandTransport{Command: cmd, TerminateDuration: terminate}}
}

func (t groupTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.CommandTransport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &groupConn{Connection: conn, pgid: t.Command.Process.Pid, grace: t.TerminateDuration}, nil
}

type groupConn struct {
	sdk.Connection
	pgid  int
	grace time.Duration
	once  sync.Once
}

// Close lets the SDK end the server as MCP says (stdin closed, then SIGTERM, then
// SIGKILL), then does the same for anything left in its group.
func (c *groupConn) Close() error {
	err := c.Connection.Close()
	c.once.Do(func() { endGroup(c.pgid, c.grace) })
	return err
}

// endGroup sends SIGTERM to process group pgid, waits up to grace for it to empty, then
// sends SIGKILL.
func endGroup(pgid int, grace time.Duration) {
	if syscall.Kill(-pgid, syscall.SIGTERM) != nil {
		return // nothing left in the group
	}
	for deadline := time.Now().Add(grace); time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		if syscall.Kill(-pgid, 0) != nil {
			return
		}
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}
