//go:build !linux

package sandbox

import (
	"os/exec"
	"time"

	"hearth/backend/i18n"
)

// Other systems have no Landlock: commands run as before.
func wrapHelper(cmd *exec.Cmd, exe string, req request) {}
func wrapBubblewrap(cmd *exec.Cmd, bwrap string, p Policy, tmp string, cover []string, program string) {
}
func probe(o Options) Status {
	st := Status{Mode: ModeNone}
	st.SetSummary(i18n.M("sandbox.none"))
	st.SetWarning(i18n.M("sandbox.none.other"))
	return st
}

// Stop kills the command.
func Stop(cmd *exec.Cmd, done <-chan struct{}, grace time.Duration) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func coverSockets(p Policy) []string { return nil }
