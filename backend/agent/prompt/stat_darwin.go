//go:build darwin

package prompt

import (
	"io/fs"
	"syscall"
)

// sysStat returns the inode and change time of a file (see stat_linux.go).
func sysStat(fi fs.FileInfo) (ino uint64, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctimespec.Sec*1e9 + st.Ctimespec.Nsec
	}
	return 0, 0
}
