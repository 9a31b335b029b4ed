package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"hearth/backend/internal/safefile"
)

// Filter selects entries; the zero value selects all.
type Filter struct {
	// Since and Until bound Time (Until exclusive); zero means unbounded.
	Since time.Time `json:"since"`
	Until time.Time `json:"until"`
	// SessionID, RunID and Tool must match exactly when set.
	SessionID string `json:"sessionId"`
	RunID     string `json:"runId"`
	Tool      string `json:"tool"`
	// Approval is one of the Approval values, or "asked" for every call the
	// user was asked about.
	Approval string `json:"approval"`
	// Failed keeps only calls that did not work.
	Failed bool `json:"failed"`
	// Text must occur (case-insensitively) in the tool, arguments or error.
	Text string `json:"text"`
	// Limit keeps the newest Limit entries; 0 keeps all.
	Limit int `json:"limit"`
}

func (f Filter) match(e Entry) bool {
	switch {
	case !f.Since.IsZero() && e.Time.Before(f.Since),
		!f.Until.IsZero() && !e.Time.Before(f.Until),
		f.SessionID != "" && e.SessionID != f.SessionID,
		f.RunID != "" && e.RunID != f.RunID,
		f.Tool != "" && e.Tool != f.Tool,
		f.Failed && e.OK:
		return false
	}
	if f.Approval == "asked" {
		if !e.Asked {
			return false
		}
	} else if f.Approval != "" && e.Approval != f.Approval {
		return false
	}
	if f.Text != "" {
		hay := strings.ToLower(e.Tool + "\x00" + string(e.Args) + "\x00" + e.Error)
		if !strings.Contains(hay, strings.ToLower(f.Text)) {
			return false
		}
	}
	return true
}

// Query returns the entries that match f, oldest first. Lines that do not
// parse (a torn last line after a crash) are skipped.
func (l *Log) Query(f Filter) ([]Entry, error) {
	out, _, err := l.read(f)
	return out, err
}

// position is where a reader stopped: a day's file and a byte offset in it.
type position struct {
	day    string
	offset int64
}

// read returns the matching entries and the end of the newest file read.
func (l *Log) read(f Filter) ([]Entry, position, error) {
	days, err := l.days()
	if err != nil {
		return nil, position{}, err
	}
	var out []Entry
	var end position
	for _, d := range days {
		// A file holds one local day: skip days wholly outside the range.
		if !f.Since.IsZero() && d < f.Since.Local().Format(time.DateOnly) {
			continue
		}
		if !f.Until.IsZero() && d > f.Until.Local().Format(time.DateOnly) {
			continue
		}
		data, err := safefile.ReadFile(filepath.Join(l.opts.Dir, d+".jsonl"), maxDayBytes)
		if errors.Is(err, safefile.ErrNotRegular) {
			continue // a pipe or a device is no day of the log: the other days still answer
		}
		if err != nil {
			return nil, position{}, fmt.Errorf("audit: %w", err)
		}
		n, entries := parse(data)
		for _, e := range entries {
			if f.match(e) {
				out = append(out, e)
			}
		}
		end = position{day: d, offset: int64(n)}
		if f.Limit > 0 && len(out) > 4*f.Limit {
			out = append([]Entry(nil), out[len(out)-f.Limit:]...) // bound memory over 30 days
		}
	}
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[len(out)-f.Limit:]
	}
	return out, end, nil
}

// parse reads the complete lines of data; n is the bytes they span (a
// partial last line is left for later).
func parse(data []byte) (n int, out []Entry) {
	for {
		i := bytes.IndexByte(data[n:], '\n')
		if i < 0 {
			return n, out
		}
		line := data[n : n+i]
		n += i + 1
		var e Entry
		if len(bytes.TrimSpace(line)) > 0 && json.Unmarshal(line, &e) == nil {
			out = append(out, e)
		}
	}
}

// PollInterval is how often Tail looks for new lines when following.
const PollInterval = 300 * time.Millisecond

// Tail calls fn with the last n entries (all when n <= 0), oldest first; with
// follow it then calls fn for every entry written later — also by other
// processes, and across midnight into the next day's file — until ctx ends.
func (l *Log) Tail(ctx context.Context, n int, follow bool, fn func(Entry)) error {
	n = max(n, 0)
	entries, pos, err := l.read(Filter{Limit: n})
	if err != nil {
		return err
	}
	for _, e := range entries {
		fn(e)
	}
	if !follow {
		return nil
	}
	if pos.day == "" {
		pos.day = l.opts.Now().Local().Format(time.DateOnly)
	}
	t := time.NewTicker(PollInterval)
	defer t.Stop()
	var partial []byte
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		for {
			next, err := l.dayAfter(pos.day)
			if err != nil {
				return err
			}
			// Read the current file to its end, then (a later day exists, so
			// nothing more lands here in practice) move on to the next one.
			data, err := readFrom(filepath.Join(l.opts.Dir, pos.day+".jsonl"), pos.offset)
			if err != nil {
				return err
			}
			partial = append(partial, data...)
			pos.offset += int64(len(data))
			used, es := parse(partial)
			partial = append(partial[:0], partial[used:]...)
			for _, e := range es {
				fn(e)
			}
			if next == "" {
				break
			}
			pos, partial = position{day: next}, nil
		}
	}
}

// dayAfter is the first day after day that has a file, or "".
func (l *Log) dayAfter(day string) (string, error) {
	days, err := l.days()
	if err != nil {
		return "", err
	}
	for _, d := range days {
		if d > day {
			return d, nil
		}
	}
	return "", nil
}

// maxDayBytes is no bound: the log is Hearth's own record, appended to all day, and
// a query must not hide a long day. What the query refuses is a pipe or a device in a
// day's place (safefile), which would hang it or never end.
const maxDayBytes = 0

func readFrom(path string, off int64) ([]byte, error) {
	f, _, err := safefile.Open(path, maxDayBytes)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	return io.ReadAll(f)
}
