//go:build linux

package secrets

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// scrubProcEnviron overwrites the values of the named variables in the environment
// block the process started with. os.Unsetenv only edits Go's (and libc's) copy of
// the list; the kernel reports /proc/<pid>/environ from the original block on the
// main thread's stack, so the value would stay there for anyone allowed to read it.
// The block is rewritten through /proc/self/mem, which needs no unsafe pointer
// arithmetic. A non-dumpable process cannot open its own mem file, so the process is
// made dumpable for the moment of the write and non-dumpable again if it was.
func scrubProcEnviron(names []string) {
	start, end, err := envBlock()
	if err != nil || end <= start {
		return
	}
	wasDumpable, _ := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if wasDumpable != 1 {
		_ = unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0)
		defer func() { _ = unix.Prctl(unix.PR_SET_DUMPABLE, uintptr(wasDumpable), 0, 0, 0) }()
	}
	mem, err := os.OpenFile("/proc/self/mem", os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer mem.Close()
	block := make([]byte, end-start)
	if _, err := mem.ReadAt(block, int64(start)); err != nil {
		return
	}
	off := 0
	for _, kv := range bytes.Split(block, []byte{0}) {
		k, _, ok := bytes.Cut(kv, []byte("="))
		if ok && slices.Contains(names, string(k)) {
			// Keep "NAME=" and blank the value: the strings stay well-formed for
			// the Go runtime, which still points into this block.
			from := off + len(k) + 1
			zero := make([]byte, len(kv)-len(k)-1)
			_, _ = mem.WriteAt(zero, int64(start)+int64(from))
		}
		off += len(kv) + 1
	}
}

// envBlock reads env_start and env_end (fields 50 and 51) of /proc/self/stat.
func envBlock() (start, end uint64, err error) {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, 0, err
	}
	// The command name (field 2) may hold spaces: count fields after its ')'.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("unexpected /proc/self/stat")
	}
	f := strings.Fields(string(data[i+1:])) // f[0] is field 3
	if len(f) < 49 {
		return 0, 0, fmt.Errorf("/proc/self/stat has no env_start (kernel older than 3.5)")
	}
	if start, err = strconv.ParseUint(f[47], 10, 64); err != nil {
		return 0, 0, err
	}
	end, err = strconv.ParseUint(f[48], 10, 64)
	return start, end, err
}
