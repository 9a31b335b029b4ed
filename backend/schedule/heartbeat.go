package schedule

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"hearth/backend/event"
	"hearth/backend/i18n"
)

// Heartbeat constants (docs/design/background.md#heartbeat).
const (
	HeartbeatSession = "heartbeat"
	HeartbeatOK      = "HEARTBEAT_OK"
	HeartbeatPrompt  = "Read HEARTBEAT.md in your workspace and do its active tasks. " +
		"If nothing needs the user's attention, reply with just " + HeartbeatOK + "."
	// HeartbeatTurns is how many past turns of the heartbeat session a run
	// sees: enough to avoid repeating itself, not a growing token bill.
	HeartbeatTurns = 3
	// HeartbeatKeepRuns is how many runs the heartbeat chat keeps on disk. It runs every
	// half hour forever; without a bound its file (and the time to open it) would grow
	// by some 17 000 runs a year.
	HeartbeatKeepRuns = 50
)

var (
	htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	heading     = regexp.MustCompile(`^(#{1,6})\s*(.*?)\s*#*$`)
	emptyItem   = regexp.MustCompile(`^([-*+]|\d+[.)])?\s*(\[[ xX]?\])?\s*$`)
	doneItem    = regexp.MustCompile(`^([-*+]|\d+[.)])\s*\[[xX]\]`)
)

// ActiveTasks returns the task lines of HEARTBEAT.md, or "" when it has none
// (only headings, comments, blank lines, empty or ticked checkboxes). When
// the file has an "Active tasks" heading only the lines under it count, so
// a "Done" section is ignored.
func ActiveTasks(content string) string {
	content = htmlComment.ReplaceAllString(content, "")
	lines := strings.Split(content, "\n")
	scoped := false
	for _, l := range lines {
		if m := heading.FindStringSubmatch(strings.TrimSpace(l)); m != nil && strings.EqualFold(m[2], "active tasks") {
			scoped = true
		}
	}
	var out []string
	in, level := !scoped, 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if m := heading.FindStringSubmatch(t); m != nil {
			if scoped {
				switch {
				case strings.EqualFold(m[2], "active tasks"):
					in, level = true, len(m[1])
				case in && len(m[1]) <= level:
					in = false
				}
			}
			continue
		}
		if !in || emptyItem.MatchString(t) || doneItem.MatchString(t) {
			continue
		}
		out = append(out, t)
	}
	return strings.Join(out, "\n")
}

// HeartbeatOptions configure a Heartbeat. Read and Run are required.
type HeartbeatOptions struct {
	Interval time.Duration // default 30 minutes
	Clock    Clock
	// Read returns HEARTBEAT.md (a missing file is no tasks).
	Read func() (string, error)
	// Run runs prompt as an unattended turn in HeartbeatSession and returns the final text.
	Run func(ctx context.Context, prompt string) (string, error)
	// News hears a reply that is not HEARTBEAT_OK (a BackgroundHeartbeat: a
	// notification that opens the heartbeat's chat).
	News *event.Broker[event.Background]
	// Notify, when set, takes the notification instead of News (where the person
	// wants it: the desktop, a paired phone, or both).
	Notify func(event.Background)
	// Paused reports whether background work is paused (the tray's Pause).
	Paused func() bool
	Log    *slog.Logger
}

// Heartbeat runs the periodic HEARTBEAT.md check.
type Heartbeat struct {
	opts HeartbeatOptions

	mu    sync.Mutex
	last  time.Time
	calls int
}

// NewHeartbeat returns a Heartbeat; it does nothing until Start or Tick.
func NewHeartbeat(opts HeartbeatOptions) (*Heartbeat, error) {
	if opts.Read == nil || opts.Run == nil {
		return nil, errors.New("heartbeat: Options.Read and Options.Run are required")
	}
	if opts.Interval <= 0 {
		opts.Interval = 30 * time.Minute
	}
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Heartbeat{opts: opts}, nil
}

// Start runs the loop until ctx is done: the first check one interval after
// start, then every interval, with wake-ups at most a minute apart so a
// changed clock or a resume is noticed. It returns at once.
func (h *Heartbeat) Start(ctx context.Context, done *sync.WaitGroup) {
	h.mu.Lock()
	h.last = h.opts.Clock.Now()
	h.mu.Unlock()
	done.Add(1)
	go func() {
		defer done.Done()
		for {
			h.mu.Lock()
			due := h.last.Add(h.opts.Interval)
			h.mu.Unlock()
			now := h.opts.Clock.Now()
			if !now.Before(due) {
				if _, err := h.Tick(ctx); err != nil && ctx.Err() == nil {
					h.opts.Log.Warn("heartbeat", "err", err)
				}
				continue
			}
			select {
			case <-ctx.Done():
				return
			case <-h.opts.Clock.After(min(due.Sub(now), MaxSleep)):
			}
		}
	}()
}

// Tick is one check: read HEARTBEAT.md and, when it has active tasks, run
// them; a reply containing HEARTBEAT_OK is silent, anything else notifies.
// It reports whether the model was called.
func (h *Heartbeat) Tick(ctx context.Context) (bool, error) {
	h.mu.Lock()
	h.last = h.opts.Clock.Now()
	h.mu.Unlock()
	if h.opts.Paused != nil && h.opts.Paused() {
		return false, nil
	}
	content, err := h.opts.Read()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, err
	}
	if ActiveTasks(content) == "" {
		return false, nil // zero model calls (docs/design/background.md#heartbeat)
	}
	h.mu.Lock()
	h.calls++
	h.mu.Unlock()
	final, err := h.opts.Run(ctx, HeartbeatPrompt)
	if err != nil {
		return true, err
	}
	final = strings.TrimSpace(final)
	if final == "" || strings.Contains(final, HeartbeatOK) {
		return true, nil
	}
	ev := event.Background{Kind: event.BackgroundHeartbeat, Title: i18n.T(i18n.English, "notify.heartbeat.title"),
		Text: final, SessionID: HeartbeatSession, TitleCode: "notify.heartbeat.title"}
	switch {
	case h.opts.Notify != nil:
		h.opts.Notify(ev)
	case h.opts.News != nil:
		h.opts.News.Publish(ev)
	}
	return true, nil
}
