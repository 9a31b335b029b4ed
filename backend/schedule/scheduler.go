package schedule

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"hearth/backend/event"
	"hearth/backend/i18n"
)

// MaxSleep bounds one sleep of the scheduler: the wall clock is read again
// at least this often, so a changed system clock or a resume from suspend
// is noticed within a minute (and idle wake-ups stay at one a minute).
const MaxSleep = time.Minute

// BusyRetry is how long a job waits when its session is busy with another run.
const BusyRetry = time.Minute

// Missed-run policies (config schedule.missedRuns).
const (
	MissedCatchup = "catchup"
	MissedSkip    = "skip"
	// MissedAsk (a reminder's own choice) runs nothing and asks the person: Run once
	// or Skip (the notice and its notification carry both).
	MissedAsk = "ask"
)

// Outcome is how one run of a job ended.
type Outcome struct {
	RunID string
	// Status is StatusOK, StatusError or StatusStopped.
	Status string
	Err    error
	// Busy means the job's session had a run already: try again later,
	// nothing is recorded.
	Busy bool
	// Interrupted means Hearth quit during the run: it is kept to continue,
	// nothing is recorded, and the next start catches up on the job.
	Interrupted bool
}

// RunFunc runs a job as an agent turn in job.Session() and waits for it.
// It must never wait for a human (docs/design/safety-defaults.md#unattended-runs).
type RunFunc func(ctx context.Context, job Job) Outcome

// Options configure a Scheduler. Store and Run are required.
type Options struct {
	Store *Store
	Run   RunFunc
	Clock Clock // nil means SystemClock
	// MissedRuns is the policy for jobs whose time passed while Hearth was
	// closed and that have no choice of their own: MissedCatchup (default),
	// MissedSkip or MissedAsk.
	MissedRuns string
	// Notice tells the user something (missed runs caught up or skipped, a
	// damaged jobs file, that file readable again). Called from the
	// scheduler's goroutine.
	Notice func(Notice)
	// News hears a BackgroundJobs after the jobs changed (a run finished,
	// another process edited the file): the tray's "Next:" label listens.
	News *event.Broker[event.Background]
	Log  *slog.Logger
	// Watch makes Start watch the cron directory, so a change by another
	// process (`hearth cron add`) is seen at once instead of at the next
	// wake-up (at most MaxSleep later).
	Watch bool
}

// Scheduler runs due jobs. Start it only in the process holding hearth.lock
// (docs/design/background.md#reminders); other processes use the Store directly.
type Scheduler struct {
	opts Options
	kick chan struct{}

	mu        sync.Mutex
	jobs      []Job
	problems  []JobProblem
	loadErr   error
	lastShown string // last load error told to the user
	stat      Stat
	loaded    bool
	running   map[string]bool
	paused    bool
	wg        sync.WaitGroup
}

// New returns a Scheduler; it does nothing until Start.
func New(opts Options) (*Scheduler, error) {
	if opts.Store == nil || opts.Run == nil {
		return nil, errors.New("schedule: Options.Store and Options.Run are required")
	}
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	opts.MissedRuns = cmp.Or(opts.MissedRuns, MissedCatchup)
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Scheduler{opts: opts, kick: make(chan struct{}, 1), running: map[string]bool{}}, nil
}

// Start applies the missed-run policy and runs the loop until ctx is done;
// it returns at once. Wait for the runs with Wait after cancelling ctx.
func (s *Scheduler) Start(ctx context.Context) {
	s.catchUp()
	if s.opts.Watch {
		s.watch(ctx)
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.loop(ctx)
	}()
}

// watch kicks the loop when jobs.json is replaced; without inotify the
// loop's wake-ups still notice within a minute.
func (s *Scheduler) watch(ctx context.Context) {
	dir := filepath.Dir(s.opts.Store.Path())
	w, err := fsnotify.NewWatcher()
	if err == nil {
		err = os.MkdirAll(dir, 0o700)
		if err == nil {
			err = w.Add(dir)
		}
		if err != nil {
			w.Close()
		}
	}
	if err != nil {
		s.opts.Log.Warn("reminders: not watching jobs.json; changes by other processes are seen within a minute", "err", err)
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer w.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if filepath.Base(ev.Name) == FileName {
					s.Kick()
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
}

// Wait blocks until the loop and every run it started have returned.
func (s *Scheduler) Wait() { s.wg.Wait() }

// Kick makes the loop look at the jobs now (after an in-process change).
func (s *Scheduler) Kick() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *Scheduler) loop(ctx context.Context) {
	for {
		d := s.Wake(ctx)
		select {
		case <-ctx.Done():
			return
		case <-s.opts.Clock.After(d):
		case <-s.kick:
		}
	}
}

// catchUp applies schedule.missedRuns to jobs whose time passed while no
// scheduler ran, and tells the user which policy applied to which jobs.
func (s *Scheduler) catchUp() {
	now := s.opts.Clock.Now()
	var names []string
	var missed []MissedRun
	err := s.opts.Store.Update(func(jobs []Job) ([]Job, error) {
		names, missed = names[:0], missed[:0]
		for i := range jobs {
			j := &jobs[i]
			if j.Paused || j.NextRun.IsZero() || !j.NextRun.Before(now) {
				continue
			}
			policy := j.MissedRuns
			policy = cmp.Or(policy, s.opts.MissedRuns)
			names = append(names, j.Title())
			missed = append(missed, MissedRun{JobID: j.ID, Title: j.Title(), SessionID: j.Session(), Due: j.NextRun,
				Skipped: policy == MissedSkip, Ask: policy == MissedAsk})
			switch policy {
			case MissedSkip:
				j.record(RunRecord{At: now, Status: StatusSkipped, Due: j.NextRun})
				j.Done = j.Schedule.Kind == KindAt // a skipped one-shot is over: the Done list says so
			case MissedAsk:
				// Nothing runs until the person answers; a repeating one keeps its
				// schedule meanwhile.
			default:
				continue // due: the first wake runs it once
			}
			j.NextRun = time.Time{}
			if j.Schedule.Kind != KindAt {
				j.NextRun, _ = j.Schedule.Next(now, time.Time{})
			}
		}
		if len(names) == 0 {
			return nil, errNoChange
		}
		return jobs, nil
	})
	if err != nil && !errors.Is(err, errNoChange) {
		s.opts.Log.Warn("reminders: missed-run check", "err", err)
		return
	}
	if len(names) == 0 {
		return
	}
	n := Notice{Kind: NoticeMissed, Missed: missed}
	skipped, ran, asked := 0, 0, 0
	for _, m := range missed {
		switch {
		case m.Skipped:
			skipped++
		case m.Ask:
			asked++
		default:
			ran++
		}
	}
	count, list := strconv.Itoa(len(names)), strings.Join(names, ", ")
	switch {
	case asked == len(missed):
		// Each one asks with its own notice and notification: nothing more to say.
	case skipped == len(missed):
		n = n.told(i18n.M("schedule.missed.skipped", "count", count, "names", list))
	case ran == len(missed):
		n = n.told(i18n.M("schedule.missed.running", "count", count, "names", list))
	default:
		n = n.told(i18n.M("schedule.missed.mixed", "count", count, "names", list))
	}
	s.notice(n)
}

var errNoChange = errors.New("no change")

// MaxDone bounds the finished one-shots kept for the Done list.
const MaxDone = 50

// pruneDone drops the oldest finished one-shots beyond MaxDone.
func pruneDone(jobs []Job) []Job {
	var done []Job
	for _, j := range jobs {
		if j.Done {
			done = append(done, j)
		}
	}
	if len(done) <= MaxDone {
		return jobs
	}
	slices.SortFunc(done, func(a, b Job) int { return b.LastRun.Compare(a.LastRun) })
	cutoff := done[MaxDone-1].LastRun
	kept := 0
	return slices.DeleteFunc(jobs, func(j Job) bool {
		if !j.Done {
			return false
		}
		if j.LastRun.Before(cutoff) || kept >= MaxDone {
			return true
		}
		kept++
		return false
	})
}

// Wake is one pass of the loop: re-read the wall clock, reload jobs.json if
// another process changed it, start the due jobs, and return how long to
// sleep (at most MaxSleep). Exported for the benchmark.
func (s *Scheduler) Wake(ctx context.Context) time.Duration {
	now := s.opts.Clock.Now()
	s.reloadIfChanged()
	s.mu.Lock()
	defer s.mu.Unlock()
	sleep := MaxSleep
	if s.paused {
		return sleep
	}
	for i := range s.jobs {
		j := s.jobs[i]
		if j.Paused || j.NextRun.IsZero() || s.running[j.ID] {
			continue
		}
		if !j.NextRun.After(now) {
			if ctx.Err() == nil {
				s.startLocked(ctx, j, false)
			}
			continue
		}
		sleep = min(sleep, j.NextRun.Sub(now))
	}
	return sleep
}

func (s *Scheduler) reloadIfChanged() {
	st := s.opts.Store.Stat()
	s.mu.Lock()
	same := s.loaded && st == s.stat
	s.mu.Unlock()
	if !same {
		s.reload()
	}
}

// reload reads jobs.json into memory. A damaged file keeps the jobs last
// read (so valid jobs still run) and tells the user once.
func (s *Scheduler) reload() {
	st := s.opts.Store.Stat()
	jobs, problems, err := s.opts.Store.Load()
	s.mu.Lock()
	s.stat, s.loaded, s.loadErr = st, true, err
	if err == nil {
		s.jobs, s.problems = jobs, problems
	}
	var msg i18n.Message
	var corrupt *CorruptError
	switch {
	case errors.As(err, &corrupt):
		msg = i18n.M("schedule.jobsFile.damaged", "path", corrupt.Path, "error", corrupt.Err.Error())
	case err != nil:
		msg = i18n.M("schedule.jobsFile.unreadable", "error", err.Error())
	case len(problems) > 0:
		msg = i18n.M("schedule.jobsFile.entries", "count", strconv.Itoa(len(problems)), "path", s.opts.Store.Path(),
			"error", problems[0].Error)
	}
	text := ""
	if msg.Code != "" {
		text = msg.String()
	}
	tell := text != "" && text != s.lastShown
	fixed := text == "" && s.lastShown != ""
	s.lastShown = text
	s.mu.Unlock()
	switch {
	case tell:
		s.notice(Notice{Kind: NoticeJobsFile}.told(msg))
	case fixed:
		s.notice(Notice{Kind: NoticeJobsFileOK})
	}
	s.changed()
}

func (s *Scheduler) notice(n Notice) {
	if n.Text != "" {
		s.opts.Log.Info("reminders: " + n.Text)
	}
	if s.opts.Notice != nil {
		s.opts.Notice(n)
	}
}

func (s *Scheduler) startLocked(ctx context.Context, j Job, manual bool) {
	s.running[j.ID] = true
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.execute(ctx, j, manual)
	}()
}

// RunNow runs job id at once and waits for it (Run now in the UI, `hearth
// cron run ID`). Works without Start: the CLI uses it that way.
func (s *Scheduler) RunNow(ctx context.Context, id string) error {
	s.reloadIfChanged()
	s.mu.Lock()
	if s.loadErr != nil {
		s.mu.Unlock()
		return s.loadErr
	}
	i := slices.IndexFunc(s.jobs, func(j Job) bool { return j.ID == id })
	if i < 0 {
		s.mu.Unlock()
		return fmt.Errorf("reminder %q not found (hint: `hearth cron list` shows the ids)", id)
	}
	if s.running[id] {
		s.mu.Unlock()
		return fmt.Errorf("reminder %q is running already", id)
	}
	j := s.jobs[i]
	s.running[id] = true
	s.mu.Unlock()
	out := s.execute(ctx, j, true)
	if out.Busy {
		return fmt.Errorf("reminder %q: its chat %s is busy with another run (hint: try again when it has finished)", id, j.Session())
	}
	return out.Err
}

// execute runs j, then records the outcome in jobs.json: history, next run,
// and a one-shot's removal after success.
func (s *Scheduler) execute(ctx context.Context, j Job, manual bool) Outcome {
	defer func() {
		s.mu.Lock()
		delete(s.running, j.ID)
		s.mu.Unlock()
		s.Kick()
	}()
	started := s.opts.Clock.Now()
	out := s.runSafely(ctx, j)
	now := s.opts.Clock.Now()
	if (ctx.Err() != nil || out.Interrupted) && !manual {
		return out // shutting down: the run is interrupted, its next start catches up
	}
	rec := RunRecord{At: started, Status: out.Status, RunID: out.RunID, DurationMs: now.Sub(started).Milliseconds()}
	if out.Err != nil {
		rec.Status, rec.Error = StatusError, out.Err.Error()
	}
	rec.Status = cmp.Or(rec.Status, StatusOK)
	err := s.opts.Store.Update(func(jobs []Job) ([]Job, error) {
		i := slices.IndexFunc(jobs, func(x Job) bool { return x.ID == j.ID })
		if i < 0 {
			return nil, errNoChange // removed while it ran
		}
		cur := &jobs[i]
		if out.Busy {
			if !manual {
				cur.NextRun = now.Add(BusyRetry)
			}
			return jobs, nil
		}
		cur.record(rec)
		switch {
		case cur.Schedule.Kind == KindAt && (rec.Status == StatusOK || rec.Status == StatusStopped):
			// Done (a run the person stopped too: they saw it and ended it): kept
			// for the Done list (when it ran, how, its chat), the oldest beyond
			// MaxDone go.
			cur.NextRun, cur.Done = time.Time{}, true
			return pruneDone(jobs), nil
		case manual && !cur.NextRun.IsZero() && cur.NextRun.After(now):
			// A manual run leaves the schedule as it was.
		case cur.Schedule.Kind == KindAt:
			cur.NextRun = time.Time{} // failed: kept, with its error, for the user to see
		default:
			cur.NextRun, _ = cur.Schedule.Next(now, j.NextRun)
		}
		return jobs, nil
	})
	if err != nil && !errors.Is(err, errNoChange) {
		s.opts.Log.Warn("reminders: record run", "job", j.ID, "err", err)
	}
	s.reload()
	return out
}

func (s *Scheduler) runSafely(ctx context.Context, j Job) (out Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Status: StatusError, Err: fmt.Errorf("reminder run crashed: %v", r)}
		}
	}()
	return s.opts.Run(ctx, j)
}

// Jobs returns the jobs as last read, the entries that could not be read,
// and the file's error (a damaged file: the jobs are those read before).
func (s *Scheduler) Jobs() ([]Job, []JobProblem, error) {
	s.reloadIfChanged()
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.jobs), slices.Clone(s.problems), s.loadErr
}

// SetPaused pauses or resumes all reminders (the tray's Pause reminders).
// Jobs due while paused run once when resumed.
func (s *Scheduler) SetPaused(paused bool) {
	s.mu.Lock()
	s.paused = paused
	s.mu.Unlock()
	s.Kick()
	s.changed()
}

// Paused reports whether reminders are paused.
func (s *Scheduler) Paused() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paused
}

// changed tells News that the jobs changed.
func (s *Scheduler) changed() {
	if s.opts.News != nil {
		s.opts.News.Publish(event.Background{Kind: event.BackgroundJobs})
	}
}
