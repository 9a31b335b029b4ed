package sandbox

import (
	"bufio"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"hearth/backend/internal/confined"
)

// Bounds on what is read from /proc/net/unix: a machine with more bound sockets than
// this has the rest left uncovered (docs/safety.md says so); the request travels as
// one argument, which the kernel caps at 128 KiB.
const (
	maxCoverSockets = 1000
	maxCoverBytes   = 64 << 10
	maxUnixLine     = 4096
)

// parseUnixSockets reads the kernel's table of Unix sockets (/proc/net/unix) and
// returns the pathnames that sockets are bound to, each once, at most max of them and
// maxCoverBytes in all. Abstract sockets (their name starts with '@') and unbound ones
// have no path and are left out: a mount cannot hide them.
func parseUnixSockets(r io.Reader, max int) []string {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 512), maxUnixLine)
	seen := map[string]bool{}
	var out []string
	size := 0
	first := true
	for sc.Scan() {
		if first { // the header
			first = false
			continue
		}
		// Num RefCount Protocol Flags Type St Inode Path: the path is the rest of the
		// line after seven fields (it may hold spaces).
		line := sc.Text()
		rest := line
		for i := 0; i < 7; i++ {
			rest = strings.TrimLeft(rest, " \t")
			j := strings.IndexAny(rest, " \t")
			if j < 0 {
				rest = ""
				break
			}
			rest = rest[j:]
		}
		p := strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) || seen[p] || filepath.Clean(p) != p {
			continue
		}
		if len(out) >= max || size+len(p) > maxCoverBytes {
			break
		}
		seen[p] = true
		size += len(p)
		out = append(out, p)
	}
	return out
}

// outsideSockets are the bound sockets of table that lie outside the writable folders
// and are not opted in: the ones a mount namespace covers.
func outsideSockets(table []string, p Policy) []string {
	var out []string
	for _, s := range table {
		if slices.Contains(p.Sockets, s) || slices.ContainsFunc(p.Writable, func(w string) bool { return confined.Within(s, w) }) {
			continue
		}
		out = append(out, s)
	}
	return out
}
