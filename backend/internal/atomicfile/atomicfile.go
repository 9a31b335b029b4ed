// Package atomicfile writes a file whole or not at all: the data goes to a temporary
// file that is synced and renamed over the target (github.com/google/renameio), so a
// crash or a full disk leaves the old file or the new one, never half of one.
//
// The temporary file always sits beside the target. renameio's default would first
// probe, with two extra files on every write, whether os.TempDir shares the target's
// file system.
package atomicfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/renameio/v2"
)

// Write replaces path with data. A new file gets perm (less the umask); an existing one
// keeps its mode.
func Write(path string, data []byte, perm fs.FileMode) error {
	return renameio.WriteFile(path, data, perm, beside(path, nil)...)
}

// WriteJSON replaces path with v as indented JSON and a final newline, making the
// folder (0700) when it is missing. A new file is 0600; an existing one keeps its
// mode. The caller wraps the error with what the file is.
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return Write(path, append(data, '\n'), 0o600)
}

// WriteExact replaces path with data and gives it exactly mode, whatever the file had
// (config.json is always 0600).
func WriteExact(path string, data []byte, mode fs.FileMode) error {
	f, err := Pending(path, renameio.WithStaticPermissions(mode))
	if err != nil {
		return err
	}
	defer f.Cleanup()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.CloseAtomicallyReplace()
}

// Pending is a file to write in pieces; CloseAtomicallyReplace puts it in place and
// Cleanup (deferred) removes it when that never happens. A new file is 0600 unless opts
// say otherwise.
func Pending(path string, opts ...renameio.Option) (*renameio.PendingFile, error) {
	return renameio.NewPendingFile(path, beside(path, opts)...)
}

func beside(path string, opts []renameio.Option) []renameio.Option {
	return append([]renameio.Option{renameio.WithTempDir(filepath.Dir(path))}, opts...)
}

// WriteIn replaces the file name in the directory dir with data, giving it
// exactly mode. name is one path element: the temporary file is created and
// renamed inside dir itself, so neither can land anywhere else, whatever
// happens meanwhile to the path that led to dir (a folder swapped for a
// symlink). A symlink named name is replaced, not followed.
func WriteIn(dir *os.Root, name string, data []byte, mode fs.FileMode) (err error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("write %q: not a file name", name)
	}
	var f *os.File
	var tmp string
	for range 10000 {
		tmp = "." + name + ".tmp-" + strconv.FormatUint(rand.Uint64(), 36)
		f, err = dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = dir.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err == nil {
		err = f.Chmod(mode) // on the open file: exact, whatever the umask
	}
	if cerr := SyncClose(f); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err = dir.Rename(tmp, name); err != nil {
		return err
	}
	// The rename lasts only once the folder itself is synced.
	if d, derr := dir.Open("."); derr == nil {
		_ = SyncClose(d)
	}
	return nil
}

// SyncClose makes what was written to f durable and closes it, returning the first
// error: a write is not known to have landed until both succeed.
func SyncClose(f *os.File) error {
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// SyncDir makes a new or renamed entry of dir durable. It is best effort: some file
// systems cannot sync a folder, and the data itself is synced.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = SyncClose(d)
	}
}
