//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"golang.org/x/sys/unix"
)

// readOnlyRoot makes every mount of the namespace read-only except the writable folders,
// which are first bound onto themselves so they become mounts of their own. Why: Landlock
// (every ABI so far) does not govern changing a file's mode, owner or times, so without
// this a command could chmod, chown or touch anything of yours outside the workspace; a
// read-only mount refuses all of them (EROFS), whoever owns the file. Devices stay
// usable: a read-only mount does not stop writing to /dev/null or a terminal.
//
// The read-only folders (guardedReadOnly: knowledge folders inside a writable one) are
// bound too and made read-only again after the writable folder holding them, and the
// folders on the way down to them bound writable: mount points, which no command in
// the namespace can rename or remove. Outer first, so an inner writable folder (a
// workspace inside a knowledge folder) ends writable.
func readOnlyRoot(writable, readOnly []string) error {
	binds := bindable(writable)
	ro := bindable(readOnly)
	ways := bindable(waysDown(ro, binds))
	all := bindable(slices.Concat(binds, ways, ro))
	for _, w := range all {
		if err := unix.Mount(w, w, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind %s: %w", w, err)
		}
	}
	roAttr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, &roAttr); err != nil {
		return fmt.Errorf("make / read-only: %w", err)
	}
	rw := unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}
	for _, w := range all {
		if slices.Contains(ro, w) && !slices.Contains(binds, w) {
			if err := unix.MountSetattr(unix.AT_FDCWD, w, unix.AT_RECURSIVE, &roAttr); err != nil {
				return fmt.Errorf("make %s read-only: %w", w, err)
			}
			continue
		}
		err := unix.MountSetattr(unix.AT_FDCWD, w, unix.AT_RECURSIVE, &rw)
		if errors.Is(err, unix.EPERM) {
			// A mount below w was read-only before the sandbox (and the kernel keeps it
			// so in a user namespace): w itself is made writable, that mount stays as
			// it was.
			err = unix.MountSetattr(unix.AT_FDCWD, w, 0, &rw)
		}
		if errors.Is(err, unix.EPERM) {
			continue // w lies on a mount that was read-only before: it stays so
		}
		if err != nil {
			return fmt.Errorf("make %s writable: %w", w, err)
		}
	}
	return nil
}

// bindable is the writable folders that exist, each once, outer ones first (so an inner
// one is bound inside the outer one's mount, not hidden under it).
func bindable(writable []string) []string {
	var out []string
	for _, w := range writable {
		if fi, err := os.Stat(w); err == nil && fi.IsDir() && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(a) - len(b) })
	return out
}

// dropCaps leaves the command no capabilities, on this thread (the one it is forked
// from). The helper's own (kept for its mounts) would otherwise pass on: as ambient
// capabilities to any command, and to a command run by root as the whole bounding set —
// with which it could undo the mounts, load kernel modules, reboot or change any file's
// owner, none of which Landlock governs.
func dropCaps() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	// The inheritable set too: root's execve adds it whole (raising the ambient ones
	// for the helper put them there).
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("read capabilities: %w", err)
	}
	if data[0].Inheritable|data[1].Inheritable != 0 {
		data[0].Inheritable, data[1].Inheritable = 0, 0
		if err := unix.Capset(&hdr, &data[0]); err != nil {
			return fmt.Errorf("clear inheritable capabilities: %w", err)
		}
	}
	for c := 0; c < 64; c++ {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		switch {
		case errors.Is(err, unix.EINVAL):
			return nil // past the last capability this kernel knows
		case errors.Is(err, unix.EPERM):
			// Without CAP_SETPCAP (an ordinary user without namespaces) there is
			// nothing to pass on: execve gives a user other than root no capabilities.
			return nil
		case err != nil:
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
	}
	return nil
}
