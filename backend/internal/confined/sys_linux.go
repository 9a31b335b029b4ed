package confined

import (
	"io/fs"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// nonBlock makes opening a FIFO return at once instead of waiting for a
// writer; it changes nothing for regular files and folders.
const nonBlock = syscall.O_NONBLOCK

func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// kernelFile reports whether f lives on a file system whose "files" are the
// kernel's (process environments, devices, tunables): reading them can leak
// secrets or never end, wherever the path that reached them came from.
func kernelFile(f *os.File) bool {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(fd(f)), &st); err != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.PROC_SUPER_MAGIC, unix.SYSFS_MAGIC, unix.DEBUGFS_MAGIC, unix.TRACEFS_MAGIC,
		unix.SECURITYFS_MAGIC, unix.EFIVARFS_MAGIC, unix.BPF_FS_MAGIC,
		unix.DEVPTS_SUPER_MAGIC:
		return true
	}
	return false
}

// realPath is where the kernel says an open file or folder is now.
func realPath(f *os.File) string {
	p, err := os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd(f)), 10))
	if err != nil {
		return ""
	}
	return p
}

// fd gets the descriptor without os.File.Fd's switch to blocking mode.
func fd(f *os.File) uintptr {
	var out uintptr
	if c, err := f.SyscallConn(); err == nil {
		_ = c.Control(func(d uintptr) { out = d })
	}
	return out
}
