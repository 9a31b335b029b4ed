package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"hearth/backend/internal/confined"
	"hearth/backend/memrepo"
)

// Every process syncs the history when it starts (edits made while Hearth was not
// looking get their commit), which meant reading and hashing every memory file —
// a 5 MB HISTORY.md on every `hearth agent`. A sync that finds nothing to commit
// leaves a fingerprint of what it saw (each versioned file's size and modification
// time, and the history's newest commit); the next sync compares stats with it and
// reads nothing when they agree. A file changed within racyStat of the sync is not
// fingerprinted: two writes within one tick of the file system's clock can leave
// the same stat.

// racyStat is how recent a file's time may be and still be trusted in a fingerprint:
// two writes within one tick of the file system's clock leave the same time.
const racyStat = 2 * time.Second

// syncedFile is where the fingerprint of the last sync is kept, in the state
// folder ("" without one: no fingerprint is kept).
func syncedFile(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(stateDir, "memory-synced")
}

// versionedStats lists the versioned files that exist, each as "path size mtime".
func (s *Store) versionedStats() ([]string, time.Time, error) {
	r, err := s.root(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	defer r.Close()
	names := append([]string{MemoryFile, HistoryFile}, personaFiles()...)
	ents, err := r.ReadDir("memory")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, time.Time{}, err
	}
	for _, e := range ents {
		if n := "memory/" + e.Name(); dailyRe.MatchString(n) && !e.IsDir() {
			names = append(names, n)
		}
	}
	var out []string
	var newest time.Time
	for _, n := range names {
		fi, err := r.Stat(n)
		if err != nil {
			continue // missing, or leading outside: the full sync decides
		}
		out = append(out, fmt.Sprintf("%s %d %d", n, fi.Size(), fi.ModTime().UnixNano()))
		if fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
	}
	sort.Strings(out)
	return out, newest, nil
}

// fingerprint is what a sync saw: the newest commit and the files' stats.
func fingerprint(head string, stats []string) string {
	return head + "\n" + strings.Join(stats, "\n") + "\n"
}

// head is the history's newest commit, "" for an empty history.
func (v *versions) head() (string, error) {
	h, err := v.repo.Resolve("HEAD")
	if errors.Is(err, memrepo.ErrUnknownRev) {
		return "", nil
	}
	return h, err
}

// unchangedSince reports whether the files and the history are as the last sync
// left them; it returns the stats it compared, for remember.
func (v *versions) unchangedSince() (bool, []string, time.Time) {
	stats, newest, err := v.store.versionedStats()
	if err != nil {
		return false, nil, time.Time{}
	}
	head, err := v.head()
	if err != nil {
		return false, nil, time.Time{}
	}
	b, err := readState(v.store.StateDir(), "memory-synced", 1<<20)
	return err == nil && string(b) == fingerprint(head, stats), stats, newest
}

// remember keeps the fingerprint of a sync that saw stats (taken before it read the
// files); a fingerprint that cannot be trusted or written is removed.
func (v *versions) remember(stats []string, newest time.Time) {
	p := syncedFile(v.store.StateDir())
	if p == "" {
		return
	}
	head, err := v.head()
	if err != nil || stats == nil || v.now().Sub(newest) < racyStat {
		_ = os.Remove(p)
		return
	}
	if err := writeState(v.store.StateDir(), filepath.Base(p), []byte(fingerprint(head, stats))); err != nil {
		_ = os.Remove(p)
	}
}

// writeState replaces the file name (a path beneath the state folder dir) whole, as
// readState reads it: confined to the folder, the temporary file and the rename in
// its pinned parent, missing folders made 0700, a new file 0600.
func writeState(dir, name string, data []byte) error {
	if dir == "" {
		return fmt.Errorf("%s: no state folder", name)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	r, err := confined.Open(dir, confined.Options{})
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = r.WriteFile(name, data, 0o600, confined.WriteOptions{DirMode: 0o700})
	return err
}

// readState reads the file name of the state folder dir: a regular file (a
// pipe or a device in its place is refused, not waited on) of at most limit bytes.
func readState(dir, name string, limit int64) ([]byte, error) {
	if dir == "" {
		return nil, fmt.Errorf("%s: no state folder", name)
	}
	r, err := confined.Open(dir, confined.Options{})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.ReadFile(name, limit)
}
