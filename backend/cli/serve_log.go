package cli

import (
	"bytes"
	"io"
	"log/slog"
	"sync"
)

// serveLogger writes one text record a line to w. Under journald (JOURNAL_STREAM set)
// the time is left out, since the journal stamps each line, and each line starts with
// its syslog priority (<3> error … <7> debug), which journald reads as the entry's
// priority (journalctl -p warning).
func serveLogger(w io.Writer, journal bool) *slog.Logger {
	opts := &slog.HandlerOptions{}
	if journal {
		opts.ReplaceAttr = func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}
		w = &priorityWriter{w: w}
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// priorityWriter prefixes each record (slog's text handler writes one a call) with the
// priority of its level, read from the record's leading level=… field.
type priorityWriter struct {
	mu sync.Mutex
	w  io.Writer
}

var priorities = []struct{ level, prefix string }{
	{"level=ERROR", "<3>"}, {"level=WARN", "<4>"}, {"level=INFO", "<6>"}, {"level=DEBUG", "<7>"},
}

func (p *priorityWriter) Write(b []byte) (int, error) {
	prefix := "<6>"
	for _, pr := range priorities {
		if bytes.HasPrefix(b, []byte(pr.level)) {
			prefix = pr.prefix
			break
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := io.WriteString(p.w, prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
