// Package atomicfile writes a file whole or not at all: the data goes to a temporary
// file that is synced and renamed over the target (github.com/google/renameio), so a
// crash or a full disk leaves the old file or the new one, never half of one.
//
// The temporary file always sits beside the target. renameio's default would first
// probe, with two extra files on every write, whether os.TempDir shares the target's
// file system.
package atomicfile

import (
	"io/fs"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// Write replaces path with data. A new file gets perm (less the umask); an existing one
// keeps its mode.
func Write(path string, data []byte, perm fs.FileMode) error {
	return renameio.WriteFile(path, data, perm, beside(path, nil)...)
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
