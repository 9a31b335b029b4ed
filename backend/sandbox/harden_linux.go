//go:build linux

package sandbox

import "golang.org/x/sys/unix"

// HardenSelf makes this process non-dumpable: /proc/<pid>/environ, mem, maps and fds
// become unreadable to other processes of the user (not to root), so a command Hearth
// runs cannot read the keys in Hearth's environment or memory. The process itself keeps
// its own /proc access, and the programs it starts (WebKit's helpers, commands) are
// dumpable again after their exec, so nothing else changes. It also marks the
// descriptors Hearth inherited close-on-exec, so no program it starts (bubblewrap, an
// MCP server, the helper) gets them.
func HardenSelf() {
	_ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	closeOnExec()
}
