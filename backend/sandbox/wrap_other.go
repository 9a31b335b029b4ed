//go:build !linux

package sandbox

import (
	"os/exec"
	"time"
)

// Other systems have no Landlock: commands run as before.
func wrapHelper(cmd *exec.Cmd, exe string, req request) {}
func wrapBubblewrap(cmd *exec.Cmd, bwrap string, p Policy, tmp string, cover []string, program string) {
}
func probe(o Options) Status {
	return Status{Mode: ModeNone, Summary: "none", Warning: "this system has no Landlock: commands run with your full rights"}
}

// Stop kills the command.
func Stop(cmd *exec.Cmd, done <-chan struct{}, grace time.Duration) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func coverSockets(p Policy) []string { return nil }
