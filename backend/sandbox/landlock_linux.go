//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"hearth/backend/internal/confined"
)

// confine applies Landlock: read and run everywhere but the hidden folders, write only
// in the writable ones, no TCP unless the network is allowed, no signals to or abstract
// sockets of processes outside, no ptrace (so no /proc/<pid>/environ) of them either.
func confine(p Policy, ns bool) error {
	cfg := landlock.V11.BestEffort()
	if p.Network || ns {
		// With a network namespace of its own the command has only a private loopback:
		// a test server may listen there.
		cfg.HandledAccessNet = 0
	}
	var rules []landlock.Rule
	hidden := resolved(p.Hidden)
	if ns {
		rules = append(rules, landlock.RODirs("/")) // the hidden folders are covered by mounts
		rules = append(rules, landlock.RWDirs("/dev/shm").IgnoreIfMissing())
	} else {
		rules = append(rules, readAround("/", hidden)...)
	}
	for _, w := range resolved(p.Writable) {
		if ns {
			rules = append(rules, landlock.RWDirs(w).WithRefer().IgnoreIfMissing())
		} else {
			rules = append(rules, writeAround(w, hidden)...)
		}
	}
	rules = append(rules, landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty").IgnoreIfMissing())
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}

// readAround grants read and execute on everything under root except the hidden
// folders: Landlock can only grant, so each folder on the way to a hidden one is
// granted listing, and its other entries are granted whole.
func readAround(root string, hidden []string) []landlock.Rule {
	holds := func(p string) bool {
		for _, h := range hidden {
			if h == p || confined.Within(h, p) {
				return true
			}
		}
		return false
	}
	if !holds(root) {
		return []landlock.Rule{landlock.RODirs(root).IgnoreIfMissing()}
	}
	rules := []landlock.Rule{landlock.PathAccess(ll.AccessFSReadDir, root).IgnoreIfMissing()}
	ents, err := os.ReadDir(root)
	if err != nil {
		return rules
	}
	for _, e := range ents {
		p := filepath.Join(root, e.Name())
		if holds(p) {
			if !slices.Contains(hidden, p) {
				rules = append(rules, readAround(p, hidden)...)
			}
			continue
		}
		if e.Type()&os.ModeSymlink != 0 {
			if t, err := filepath.EvalSymlinks(p); err != nil || holds(t) {
				continue // a link into a hidden folder
			}
		}
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			rules = append(rules, landlock.RODirs(p).IgnoreIfMissing())
		} else if err == nil {
			rules = append(rules, landlock.ROFiles(p).IgnoreIfMissing())
		}
	}
	return rules
}

// writeAround grants writing in a writable folder, except in the hidden folders that
// lie inside it (Hearth's folders under an allowed ~, or under $TMPDIR). Rights on a
// folder hold for everything beneath it, so the folders on the way to a hidden one get
// none of their own (readAround lets them be listed): their other entries are granted
// whole — sub-folders to write in, files to read and write — but nothing can be
// created, removed or renamed directly in them. That is the price: under an allowed ~
// with Hearth's folders in it, a command cannot make a new file in ~ itself or in
// ~/.config. Symlinks there get nothing: a grant would reach their target.
func writeAround(root string, hidden []string) []landlock.Rule {
	holds := func(p string) bool {
		for _, h := range hidden {
			if confined.Within(h, p) && h != p {
				return true
			}
		}
		return false
	}
	if !holds(root) {
		return []landlock.Rule{landlock.RWDirs(root).WithRefer().IgnoreIfMissing()}
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var rules []landlock.Rule
	for _, e := range ents {
		p := filepath.Join(root, e.Name())
		switch {
		case slices.Contains(hidden, p), e.Type()&os.ModeSymlink != 0:
		case e.IsDir():
			rules = append(rules, writeAround(p, hidden)...)
		default:
			rules = append(rules, landlock.RWFiles(p).IgnoreIfMissing())
		}
	}
	return rules
}

// resolved makes paths absolute with symlinks resolved, dropping ones that do not exist.
func resolved(paths []string) []string {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			out = append(out, r)
		} else if abs, err := filepath.Abs(p); err == nil {
			out = append(out, filepath.Clean(abs))
		}
	}
	return out
}
