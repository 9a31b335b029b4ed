//go:build !unix

package tools

import "os/exec"

// setProcessGroup has no process groups to create on this platform.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup kills the shell; children may survive on this platform.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
