//go:build linux

package prompt

import (
	"io/fs"
	"syscall"
)

// sysStat returns the inode and change time of a file when the platform has
// them: an in-place edit that keeps size and mtime (or restores the mtime)
// still moves ctime, and an atomic replace changes the inode.
func sysStat(fi fs.FileInfo) (ino uint64, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return 0, 0
}
