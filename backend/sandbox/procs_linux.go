//go:build linux

package sandbox

import (
	"os"
	"strconv"
	"strings"
)

// descendants lists the live processes below root (zombies left out). It follows the
// kernel's lists of children (/proc/<pid>/task/<tid>/children), which costs a few reads
// per process found; scanning all of /proc took tens of milliseconds after every
// command on a busy machine. Without those lists (a kernel built without
// CONFIG_PROC_CHILDREN) it scans.
func descendants(root int) []int {
	kids, ok := childrenOf(root)
	if !ok {
		return descendantsByScan(root)
	}
	var out []int
	seen := map[int]bool{root: true}
	for len(kids) > 0 && len(seen) < 1<<16 {
		p := kids[0]
		kids = kids[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		if st, _ := statOf(p); st != "" && st != "Z" {
			out = append(out, p)
		}
		more, _ := childrenOf(p)
		kids = append(kids, more...)
	}
	return out
}

// childrenOf reads the children of every thread of pid; false when the kernel keeps
// no such lists (or pid is gone).
func childrenOf(pid int) ([]int, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	found := false
	var kids []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		found = true
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				kids = append(kids, n)
			}
		}
	}
	return kids, found
}

// statOf gives a process's state letter and parent from /proc/<pid>/stat.
func statOf(pid int) (state string, ppid int) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return "", 0
	}
	ppid, _ = strconv.Atoi(f[1])
	return f[0], ppid
}

// descendantsByScan finds root's live descendants by reading every process's parent.
func descendantsByScan(root int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, pp := statOf(pid); st != "" && st != "Z" {
			parent[pid] = pp
		}
	}
	var out []int
	for pid := range parent {
		for p, n := parent[pid], 0; p > 0 && n < 64; p, n = parent[p], n+1 {
			if p == root {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}
