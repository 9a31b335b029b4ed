package sandbox

import (
	"path/filepath"
	"slices"

	"hearth/backend/internal/confined"
)

// guardedReadOnly are the read-only folders (resolved) that need guarding: those whose
// nearest enclosing folder among the writable and hidden ones is a writable one that
// holds them strictly. The others need nothing: outside every writable folder a folder
// is read-only already; one that is itself writable stays so (writable wins, as for
// hidden ones); one in a hidden folder stays hidden (binding it would uncover it).
func guardedReadOnly(readOnly, writable, hidden []string) []string {
	var out []string
	for _, r := range readOnly {
		if slices.Contains(out, r) {
			continue
		}
		near, isWritable := "", false
		for _, w := range writable {
			if confined.Within(r, w) && len(w) > len(near) {
				near, isWritable = w, true
			}
		}
		for _, h := range hidden {
			if confined.Within(r, h) && len(h) > len(near) {
				near, isWritable = h, false
			}
		}
		if isWritable && near != r {
			out = append(out, r)
		}
	}
	return out
}

// waysDown are the folders strictly between each guarded folder and the nearest
// writable folder holding it, outer ones first, each once. With a mount namespace each
// is bound onto itself: a mount point cannot be renamed or removed from inside the
// namespace (EBUSY), so a command cannot move a knowledge folder away with its parent.
func waysDown(guarded, writable []string) []string {
	var out []string
	for _, r := range guarded {
		near := ""
		for _, w := range writable {
			if confined.Within(r, w) && len(w) > len(near) {
				near = w
			}
		}
		if near == "" {
			continue
		}
		for d := filepath.Dir(r); d != near && confined.Within(d, near) && d != filepath.Dir(d); d = filepath.Dir(d) {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(a) - len(b) })
	return out
}
