package atomicfile

import (
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// leftover matches the temporary files a write killed half-way leaves beside its
// target: renameio's ".<name><digits>", WriteIn's ".<name>.tmp-<base36>" and the
// confined writer's ".<name>.new" (and WriteIn's temporary of that).
var leftover = regexp.MustCompile(`^\..+?(?:\d{6,}|\.tmp-[0-9a-z]+|\.new)$`)

// StaleAfter is how old a leftover must be before Sweep removes it: a write in
// progress (another Hearth process) finishes in well under a second.
const StaleAfter = 10 * time.Minute

// Leftover reports whether a file named name, last changed at mod, is a
// temporary file a killed write left that Sweep would remove at now.
func Leftover(name string, mod, now time.Time) bool {
	return leftover.MatchString(name) && now.Sub(mod) >= StaleAfter
}

// Sweep removes, in each folder (not below it), the temporary files killed writes
// left behind, older than StaleAfter; it returns what it removed. Only Hearth's own
// folders are swept: a dotfile of the user's that happens to look like one is never
// in them.
func Sweep(now time.Time, dirs ...string) []string {
	var removed []string
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !leftover.MatchString(e.Name()) {
				continue
			}
			fi, err := e.Info()
			if err != nil || now.Sub(fi.ModTime()) < StaleAfter {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if os.Remove(p) == nil {
				removed = append(removed, p)
			}
		}
	}
	return removed
}
