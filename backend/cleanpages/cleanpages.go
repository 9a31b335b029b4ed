// Package cleanpages gives back clean file-backed pages the process mapped and no longer
// uses: code and read-only data of the binary and its libraries, which the page cache
// holds anyway.
//
// Two moments make such pages. Before main runs, Go runs the initialiser of every linked
// package, some two hundred in `hearth`, each in its own stretch of the binary; Linux maps
// a file 64 kB (or a whole cached folio) around each touch, so they leave several MB of
// code and read-only data resident that nothing runs again: in a `hearth agent` turn that
// is about a seventh of its resident memory. DropBinary, at the top of main, unmaps them.
// And a resting window still maps what its last burst of work ran (GTK, WebKit, the GL
// driver and its LLVM, which the app process loads to look up a display and never draws
// with); DropAll, once the app rests, unmaps those too.
//
// Unmapping (madvise MADV_DONTNEED) leaves the pages in the page cache: what the process
// goes on to use faults back in from there in microseconds, and what it does not use is
// plain cache, the first thing the kernel reclaims when memory is short. Only private,
// non-writable mappings of files that hold no private (copy-on-write) page are dropped:
// those hold exactly the file's contents, so nothing is lost. The page the dynamic loader
// patched and made read-only (RELRO) holds a private copy and is left alone.
package cleanpages

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

// span is one mapping's address range [start, end).
type span struct{ start, end uintptr }

// cleanReadOnly lists the mappings in an smaps text (the format of /proc/PID/smaps) that
// map a file private and not writable, hold no anonymous page, and whose path keep
// accepts.
func cleanReadOnly(smaps []byte, keep func(path string) bool) []span {
	var out []span
	open := false // the last span in out is the mapping whose fields follow
	sc := bufio.NewScanner(bytes.NewReader(smaps))
	for sc.Scan() {
		line := sc.Text()
		if isHeader(line) {
			s, path, ok := mappingOf(line)
			ok = ok && keep(path)
			if ok {
				out = append(out, s)
			}
			open = ok
			continue
		}
		if v, ok := strings.CutPrefix(line, "Anonymous:"); ok && open {
			if f := strings.Fields(v); len(f) == 0 || f[0] != "0" {
				out, open = out[:len(out)-1], false
			}
		}
	}
	return out
}

// isHeader reports whether an smaps line starts a mapping ("start-end perms offset dev
// inode [path]") rather than giving one of its fields ("Key: value").
func isHeader(line string) bool {
	f, _, _ := strings.Cut(line, " ")
	return !strings.HasSuffix(f, ":") && strings.Contains(f, "-")
}

// mappingOf parses a header line and gives its range and path when it maps a file
// private and not writable.
func mappingOf(line string) (span, string, bool) {
	f := strings.Fields(line)
	if len(f) < 6 || (f[1] != "r-xp" && f[1] != "r--p") {
		return span{}, "", false
	}
	// The path is the rest of the line after five fields, spaces and all.
	rest := line
	for range 5 {
		rest = strings.TrimLeft(rest, " ")
		_, rest, _ = strings.Cut(rest, " ")
	}
	path := strings.TrimSpace(rest)
	lo, hi, _ := strings.Cut(f[0], "-")
	a, err1 := strconv.ParseUint(lo, 16, 64)
	b, err2 := strconv.ParseUint(hi, 16, 64)
	if err1 != nil || err2 != nil || b <= a {
		return span{}, "", false
	}
	return span{uintptr(a), uintptr(b)}, path, true
}

// regularFile accepts the path of a file on disk: not anonymous memory or a kernel area
// ([heap], [vdso]), not a device's memory, not a memfd or a deleted file.
func regularFile(path string) bool {
	return strings.HasPrefix(path, "/") && !strings.HasPrefix(path, "/dev/") &&
		!strings.HasPrefix(path, "/memfd:") && !strings.HasSuffix(path, " (deleted)")
}
