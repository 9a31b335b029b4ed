package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"hearth/backend/internal/atomicfile"
	"hearth/backend/internal/flock"
	"hearth/backend/internal/safefile"
)

// KeepRecent rewrites session id to hold only its last keep finished runs (and anything
// written after them), once it holds more than twice that many; it returns how many
// messages it dropped. Sessions that run unattended forever (the heartbeat) call it so
// their file, and the time to load it, stays bounded. Rewriting only past 2×keep makes
// the cost of a rewrite rare: one in every keep runs.
//
// The metadata (title, model, archive flag, consolidation mark) is folded into a fresh
// first line. The rewrite holds the file's lock and replaces the file by rename, so
// a concurrent reader sees the old file or the new one, and a concurrent Append lands in
// the new file (it notices the move and retries, as it does for the trash).
func (s *Store) KeepRecent(id string, keep int) (dropped int, err error) {
	if keep < 1 {
		return 0, fmt.Errorf("trim session %s: keep %d runs: want at least 1", id, keep)
	}
	p, err := s.Path(id)
	if err != nil {
		return 0, fmt.Errorf("trim session: %w", err)
	}
	for range 3 {
		dropped, moved, err := s.trimOnce(id, p, keep)
		if moved {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("trim session %s: %w", id, err)
		}
		return dropped, nil
	}
	return 0, fmt.Errorf("trim session %s: %w (the file kept moving)", id, ErrNotFound)
}

func (s *Store) trimOnce(id, path string, keep int) (dropped int, moved bool, err error) {
	// Non-blocking, and a regular file of bounded size only: a FIFO in its place
	// must not hang the heartbeat.
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, ErrNotFound
	}
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	if err := flock.Lock(f, true); err != nil {
		return 0, false, fmt.Errorf("lock: %w", err)
	}
	defer func() { _ = flock.Unlock(f) }()
	fi, err := f.Stat()
	if err != nil {
		return 0, false, err
	}
	if err := safefile.Check(path, fi, MaxFileBytes); err != nil {
		return 0, false, err
	}
	if pi, err := os.Stat(path); err != nil || !os.SameFile(fi, pi) {
		return 0, true, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes))
	if err != nil {
		return 0, false, err
	}

	cut := cutAfterRuns(data, keep)
	if cut <= 0 {
		return 0, false, nil
	}
	whole := parse(id, data, fi.ModTime())
	head := parse(id, data[:cut], fi.ModTime())
	dropped = len(head.Entries)
	meta := whole.Meta
	meta.LastConsolidated = max(meta.LastConsolidated-dropped, NoneConsolidated)

	out, err := encodeMeta(make([]byte, 0, len(data)-cut+512), meta)
	if err != nil {
		return 0, false, err
	}
	// Metadata changes after the cut are already in the new first line; a consolidation
	// mark among them counts messages of the old file, so none of them is copied.
	for rest := data[cut:]; len(rest) > 0; {
		line, next, _ := bytes.Cut(rest, []byte{'\n'})
		switch lineKind(bytes.TrimSpace(line)) {
		case kindUpdate:
		case kindRewind:
			// It counts messages of the old file too: the dropped ones are gone.
			var r rewindLine
			if json.Unmarshal(line, &r) == nil {
				r.To = max(r.To-dropped, 0)
				out, _ = encodeLine(out, r)
			}
		default:
			out = append(out, rest[:len(rest)-len(next)]...)
		}
		rest = next
	}
	if err := replaceFile(path, out); err != nil {
		return 0, false, fmt.Errorf("%w (check free disk space; the session is unchanged)", err)
	}
	return dropped, false, nil
}

// cutAfterRuns is the offset just past the run line that leaves keep run lines after it,
// or 0 when the file holds no more than 2×keep runs.
func cutAfterRuns(data []byte, keep int) int {
	var ends []int // offset after each run line
	for off := 0; off < len(data); {
		line, _, _ := bytes.Cut(data[off:], []byte{'\n'})
		next := off + len(line) + 1
		if lineKind(bytes.TrimSpace(line)) == kindRun {
			ends = append(ends, min(next, len(data)))
		}
		off = next
	}
	if len(ends) <= 2*keep {
		return 0
	}
	return ends[len(ends)-keep-1]
}

// replaceFile writes data to a temporary file beside path and renames it over path.
func replaceFile(path string, data []byte) error {
	if err := atomicfile.WriteExact(path, data, fileMode); err != nil {
		return err
	}
	atomicfile.SyncDir(filepath.Dir(path))
	return nil
}
