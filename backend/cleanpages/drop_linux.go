package cleanpages

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// DropBinary unmaps the clean read-only mappings of the running binary and returns how
// many bytes of address space it released (not all of them were resident). It does
// nothing when /proc cannot be read.
func DropBinary() int64 {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return 0
	}
	return drop(func(path string) bool { return path == exe })
}

// DropAll unmaps the clean read-only mappings of every file the process maps: the binary,
// its libraries and read-only data files (fonts, icon caches).
func DropAll() int64 { return drop(regularFile) }

func drop(keep func(string) bool) int64 {
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return 0
	}
	var n int64
	for _, s := range cleanReadOnly(smaps, keep) {
		// A raw madvise: the range is a mapping of a file, not Go memory, so there is no
		// slice to hand to unix.Madvise.
		if _, _, e := syscall.Syscall(unix.SYS_MADVISE, s.start, s.end-s.start, unix.MADV_DONTNEED); e == 0 {
			n += int64(s.end - s.start)
		}
	}
	return n
}
