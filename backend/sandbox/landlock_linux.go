//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/landlock-lsm/go-landlock/landlock"

	"hearth/backend/internal/confined"
)

// confine applies Landlock: read and run everywhere but the hidden folders, write only
// in the writable ones and the run's tmp, no TCP unless the network is allowed, no
// signals to or abstract sockets of processes outside (ABI 6), no pathname sockets but
// those in the writable folders, the tmp and the opted-in ones (ABI 9), no ptrace (so no
// /proc/<pid>/environ) of processes outside either. Rights the kernel lacks are left
// out (best effort); docs/safety.md says what each ABI stops.
func confine(p Policy, ns bool, tmp string) error {
	cfg := landlock.V11.BestEffort()
	if p.Network || ns {
		// With a network namespace of its own the command has only a private loopback:
		// a test server may listen there.
		cfg.HandledAccessNet = 0
	}
	var rules []landlock.Rule
	hidden := resolved(p.Hidden)
	// Without a mount namespace the read-only folders inside writable ones are kept
	// out of the writable grants the way hidden ones are (writeAround); reading them
	// is granted with the rest.
	around := slices.Concat(hidden, guardedReadOnly(resolved(p.ReadOnly), resolved(p.Writable), hidden))
	if ns {
		rules = append(rules, landlock.RODirs("/")) // the hidden folders are covered by mounts
		rules = append(rules, landlock.RWDirs("/dev/shm").IgnoreIfMissing())
	} else {
		rules = append(rules, readAround("/", hidden)...)
	}
	for _, w := range resolved(p.Writable) {
		if ns {
			rules = append(rules, landlock.RWDirs(w).WithRefer().WithResolveUnix().IgnoreIfMissing())
		} else {
			rules = append(rules, writeAround(w, around)...)
		}
	}
	if tmp != "" {
		rules = append(rules, landlock.RWDirs(tmp).WithRefer().WithResolveUnix().IgnoreIfMissing())
	}
	for _, s := range resolved(p.Sockets) {
		rules = append(rules, landlock.RWFiles(s).WithResolveUnix().IgnoreIfMissing())
	}
	rules = append(rules, landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty").IgnoreIfMissing())
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	return nil
}

// readAround grants read and execute on everything under root except the hidden
// folders: Landlock can only grant, so the other entries of each folder on the way to
// a hidden one are granted whole. Those folders themselves are not granted listing:
// a right granted on a folder holds for everything beneath it, so listing ~ would let
// the hidden folders in it be listed too (names, sizes, times). The price: with
// Landlock alone, `ls /`, `ls ~` and `ls ~/.config` fail (everything in them still
// opens by name).
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
	var rules []landlock.Rule
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
// lie inside it (Hearth's folders under an allowed ~, or under $TMPDIR) and the
// read-only ones (knowledge folders in the workspace). Rights on a
// folder hold for everything beneath it, so the folders on the way to a hidden one get
// none of their own (readAround lets them be listed): their other entries are granted
// whole — sub-folders to write in, files to read and write — but nothing can be
// created, removed or renamed directly in them. That is the price: under an allowed ~
// with Hearth's folders in it, a command cannot make a new file in ~ itself or in
// ~/.config. Symlinks there get nothing: a grant would reach their target. The same
// holds on the way down to a knowledge folder: with one at ~/ws/notes, nothing new can
// be made directly in ~/ws, and neither ~/ws/notes nor anything on the way renamed.
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
		return []landlock.Rule{landlock.RWDirs(root).WithRefer().WithResolveUnix().IgnoreIfMissing()}
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
			rules = append(rules, landlock.RWFiles(p).WithResolveUnix().IgnoreIfMissing())
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
