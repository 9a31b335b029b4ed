//go:build linux

package sandbox

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// closeOnExec marks every descriptor above the standard three close-on-exec, so
// nothing this process inherited (a launcher's pipe, a terminal's extra descriptor)
// passes on to the programs it starts. Go opens its own descriptors close-on-exec; an
// inherited one is not, and exec keeps it open in every child.
func closeOnExec() {
	if unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	// Kernels before 5.11: one by one.
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
}
