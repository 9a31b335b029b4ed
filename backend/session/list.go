package session

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hearth/backend/internal/safefile"
)

// Summary is one row of the sessions list.
type Summary struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	Model    string    `json:"model"`
	Messages int       `json:"messages"`
	Archived bool      `json:"archived"`
	// Interrupted is set when a run wrote messages but never finished.
	Interrupted bool `json:"interrupted"`
}

// summaryState is what List knows about one file. Files are append-only, so
// a file that grew is scanned from where the last scan stopped; message lines
// are counted from their first bytes without being decoded.
type summaryState struct {
	file      fs.FileInfo // identity, size and time at the last scan
	offset    int64       // end of the last complete line scanned
	started   bool
	meta      Meta
	title     string
	autoTitle string
	messages  int
	open      map[string]bool
	firstAt   string // of the first record, the creation time of a file without metadata
	lastAt    string
}

// List returns the sessions newest first (by Updated), archived ones
// included with their flag set. Files List cannot read are listed with what
// their name tells. A line being written or torn at the end of a file is not
// counted until it is complete.
func (s *Store) List() ([]Summary, error) {
	out, err := s.list(s.dir)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}

func (s *Store) list(dir string) ([]Summary, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []Summary{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w (check the permissions of %s)", err, dir)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]bool{}
	out := make([]Summary, 0, len(ents))
	for _, e := range ents {
		id, ok := IDFromFileName(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		fi, err := os.Stat(p)
		if err != nil {
			continue // deleted meanwhile
		}
		seen[p] = true
		st := s.cache[p]
		if st == nil || !os.SameFile(st.file, fi) || fi.Size() < st.offset {
			st = &summaryState{meta: Meta{ID: id, LastConsolidated: NoneConsolidated}, open: map[string]bool{}}
			s.cache[p] = st
		}
		if st.file == nil || fi.Size() != st.file.Size() || !fi.ModTime().Equal(st.file.ModTime()) {
			// A file that cannot be read is still listed, from its name.
			_ = st.scan(p)
			st.file = fi
		}
		out = append(out, st.summary(fi))
	}
	for p := range s.cache {
		if filepath.Dir(p) == dir && !seen[p] {
			delete(s.cache, p)
		}
	}
	slices.SortFunc(out, func(a, b Summary) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out, nil
}

func (st *summaryState) scan(path string) error {
	f, fi, err := safefile.Open(path, MaxFileBytes)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(st.offset, io.SeekStart); err != nil {
		return err
	}
	// Line by line, a line over MaxLineBytes skipped as Load skips it; a line not
	// ended yet (being written, or torn) is read again next time.
	_, _, err = readLines(io.LimitReader(f, MaxFileBytes), fi.Size()-st.offset, MaxLineBytes, func(data []byte) {
		for len(data) > 0 {
			line, rest, ended := bytes.Cut(data, []byte{'\n'})
			if !ended {
				return
			}
			data = rest
			st.offset += int64(len(line)) + 1
			switch {
			case len(line) > MaxLineBytes:
				st.started = true
			case len(bytes.TrimSpace(line)) > 0:
				st.line(line)
			}
		}
	}, func(size int64, ended bool) {
		if ended {
			st.offset += size + 1
			st.started = true
		}
	})
	return err
}

func (st *summaryState) line(line []byte) {
	first := !st.started
	st.started = true
	h, ok := peek(line)
	if !ok {
		return
	}
	switch h.Type {
	case kindMeta:
		var m metaLine
		if first && json.Unmarshal(line, &m) == nil {
			st.meta.Created, st.meta.Updated, st.meta.Model, st.meta.Archived = m.Created, m.Updated, m.Model, m.Archived
			st.title = m.Title
		}
	case kindMessage:
		st.messages++
		st.at(h.At)
		if h.RunID != "" {
			st.open[h.RunID] = true
		}
		if st.autoTitle == "" && h.Role == "user" {
			var m messageLine
			if json.Unmarshal(line, &m) == nil {
				st.autoTitle = AutoTitle(m.Content)
			}
		}
	case kindRun:
		st.at(h.At)
		delete(st.open, h.RunID)
	case kindRewind:
		var r rewindLine
		if json.Unmarshal(line, &r) == nil && r.To >= 0 {
			st.messages = min(st.messages, r.To)
		}
	case kindUpdate:
		var u updateLine
		if json.Unmarshal(line, &u) != nil {
			return
		}
		if u.Title != nil {
			st.title = *u.Title
		}
		if u.Model != nil {
			st.meta.Model = *u.Model
		}
		if u.Archived != nil {
			st.meta.Archived = *u.Archived
		}
	}
}

func (st *summaryState) at(t string) {
	st.firstAt = cmp.Or(st.firstAt, t)
	st.lastAt = t
}

func (st *summaryState) summary(fi fs.FileInfo) Summary {
	sum := Summary{ID: st.meta.ID, Title: st.title, Created: st.meta.Created, Updated: st.meta.Updated,
		Model: st.meta.Model, Messages: st.messages, Archived: st.meta.Archived, Interrupted: len(st.open) > 0}
	sum.Title = cmp.Or(sum.Title, st.autoTitle)
	if t, err := time.Parse(time.RFC3339Nano, st.lastAt); err == nil && t.After(sum.Updated) {
		sum.Updated = t
	}
	if sum.Updated.IsZero() {
		sum.Updated = fi.ModTime()
	}
	if sum.Created.IsZero() {
		sum.Created = sum.Updated
		if t, err := time.Parse(time.RFC3339Nano, st.firstAt); err == nil {
			sum.Created = t
		}
	}
	return sum
}
