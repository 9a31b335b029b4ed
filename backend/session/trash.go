package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/confined"
	"hearth/backend/internal/flock"
)

// Delete moves session id to the trash (sessions/.trash/) and, when
// workspace is not empty, removes the session's spilled tool results
// (<workspace>/.hearth/results/<id>/). A session deleted earlier under the same
// id stays in the trash under a name with a time suffix.
func (s *Store) Delete(id, workspace string) error {
	p, err := s.Path(id)
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	trash := filepath.Join(s.dir, TrashDir)
	dst := filepath.Join(trash, filepath.Base(p))
	if err := os.MkdirAll(trash, dirMode); err != nil {
		return fmt.Errorf("delete session %s: %w (check that %s is writable)", id, err, s.dir)
	}
	// Non-blocking: a FIFO in the session's place must not hang the delete.
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("delete session %s: %w (check the file's permissions)", id, err)
	}
	// Wait for a writer to finish its record; writers that queued behind us
	// notice the move and fail with ErrNotFound instead of writing to the trash.
	err = flock.Lock(f, true)
	if err == nil {
		err = moveAside(dst, s.now().UnixNano())
	}
	if err == nil {
		err = os.Rename(p, dst)
	}
	_ = flock.Unlock(f)
	_ = f.Close()
	if err != nil {
		return fmt.Errorf("delete session %s: move to trash: %w (check that %s is writable)", id, err, trash)
	}
	s.removePending(id) // messages waiting for a chat that is gone
	atomicfile.SyncDir(s.dir)
	atomicfile.SyncDir(trash)
	if workspace == "" {
		return nil
	}
	rd, err := ResultsDir(workspace, id)
	if err == nil {
		err = removeConfined(workspace, rd)
	}
	if err != nil {
		return fmt.Errorf("delete session %s: moved to trash, but removing its tool results failed: %w (remove %s by hand)", id, err, rd)
	}
	return nil
}

// removeConfined removes the tree dir beneath workspace without following a
// symlink on the way: a .hearth/results swapped for a symlink (a command can
// do that) must not make deleting a chat delete a folder elsewhere.
func removeConfined(workspace, dir string) error {
	r, err := confined.Open(workspace, confined.Options{})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer r.Close()
	rel, ok := r.Rel(dir)
	if !ok {
		return fmt.Errorf("%s is not inside the workspace %s", dir, workspace)
	}
	return r.RemoveAll(rel)
}

// moveAside renames an existing file dst to dst.<suffix>, so it is kept but
// no longer listed or restored.
func moveAside(dst string, suffix int64) error {
	if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return os.Rename(dst, dst+"."+strconv.FormatInt(suffix, 10))
}
