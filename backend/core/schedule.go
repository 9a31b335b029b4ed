package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/applock"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/schedule"
)

// BackgroundEvent is something reminders, the heartbeat or the message tool
// tell the user. The desktop shows it as a notification (clicking opens
// SessionID) and refreshes the Reminders view and the tray on BackgroundJobs.
type BackgroundEvent struct {
	Kind      string `json:"kind"`
	Title     string `json:"title"`
	Text      string `json:"text"`
	SessionID string `json:"sessionId,omitempty"`
	JobID     string `json:"jobId,omitempty"`
}

// BackgroundEvent kinds.
const (
	BackgroundMessage   = "message"   // the message tool posted content
	BackgroundReminder  = "reminder"  // a reminder's answer
	BackgroundHeartbeat = "heartbeat" // a heartbeat reply that is not HEARTBEAT_OK
	BackgroundNotice    = "notice"    // missed runs caught up or skipped, a damaged jobs file
	BackgroundJobs      = "jobs"      // the jobs changed (no text): refresh lists and the tray
	BackgroundSubagent  = "subagent"  // a spawned helper finished; its report is in SessionID
)

// BackgroundSink receives BackgroundEvents; it must not block.
type BackgroundSink func(BackgroundEvent)

// background is the Service's reminders and heartbeat state.
type background struct {
	sink  BackgroundSink
	clock schedule.Clock

	mu      sync.Mutex
	sched   *schedule.Scheduler // running only in the process holding hearth.lock
	hb      *schedule.Heartbeat
	paused  bool
	posted  map[string]bool // run ids that used the message tool
	cancel  context.CancelFunc
	started bool
	ctx     context.Context // StartBackground's, for restarting the heartbeat

	notices noticeBook // what the window shows until dismissed (notices.go)

	hbMu     sync.Mutex // serialises heartbeat restarts
	hbCancel context.CancelFunc
	wg       sync.WaitGroup // the heartbeat loop
}

func (b *background) init(sink BackgroundSink, clock schedule.Clock) {
	if clock == nil {
		clock = schedule.SystemClock{}
	}
	b.sink, b.clock, b.posted = sink, clock, map[string]bool{}
}

func (b *background) emit(ev BackgroundEvent) {
	b.mu.Lock()
	sink := b.sink
	b.mu.Unlock()
	if sink != nil {
		sink(ev)
	}
}

// SetBackgroundSink sets where BackgroundEvents go (the desktop sets it
// once its window exists; Options.Background is the same at Open).
func (s *Service) SetBackgroundSink(sink BackgroundSink) {
	s.bg.mu.Lock()
	s.bg.sink = sink
	s.bg.mu.Unlock()
}

// heartbeatWindow keeps the heartbeat session's requests to its last turns: it
// runs every half hour and must not send a longer history each time.
func heartbeatWindow(sessionID string) int {
	if sessionID == schedule.HeartbeatSession {
		return schedule.HeartbeatTurns
	}
	return 0
}

func (s *Service) jobStore() (*schedule.Store, error) {
	p := s.Paths()
	if p.CronDir == "" {
		return nil, fmt.Errorf("reminders: no data directory: %v", s.settings.PathsError())
	}
	return schedule.NewStore(p.CronDir), nil
}

// scheduler returns the running scheduler, or a stopped one over the same
// file (the CLI's `hearth cron run`, which runs a job in its own process).
func (s *Service) scheduler() (*schedule.Scheduler, error) {
	s.bg.mu.Lock()
	sc := s.bg.sched
	s.bg.mu.Unlock()
	if sc != nil {
		return sc, nil
	}
	st, err := s.jobStore()
	if err != nil {
		return nil, err
	}
	return schedule.New(schedule.Options{Store: st, Run: s.runJob, Clock: s.bg.clock})
}

func (s *Service) jobsChanged() {
	s.bg.mu.Lock()
	sc := s.bg.sched
	s.bg.mu.Unlock()
	if sc != nil {
		sc.Kick()
	}
	s.bg.emit(BackgroundEvent{Kind: BackgroundJobs})
}

// ListJobs returns the reminders, soonest first (jobs that will not run
// again last), each with its schedule in words, next and last run, last
// status and error, and history. A damaged jobs.json is an error with a hint.
func (s *Service) ListJobs() ([]schedule.Job, error) {
	sc, err := s.scheduler()
	if err != nil {
		return nil, err
	}
	jobs, _, err := sc.Jobs()
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(jobs, func(a, b schedule.Job) int {
		switch {
		case a.NextRun.IsZero() != b.NextRun.IsZero():
			if a.NextRun.IsZero() {
				return 1
			}
			return -1
		}
		return a.NextRun.Compare(b.NextRun)
	})
	return jobs, nil
}

// JobProblems lists entries of jobs.json that could not be read (they are
// kept in the file, not run).
func (s *Service) JobProblems() ([]schedule.JobProblem, error) {
	sc, err := s.scheduler()
	if err != nil {
		return nil, err
	}
	_, problems, err := sc.Jobs()
	return problems, err
}

// AddJob stores a new reminder and returns it with its first run time.
func (s *Service) AddJob(spec schedule.JobSpec) (schedule.Job, error) {
	st, err := s.jobStore()
	if err != nil {
		return schedule.Job{}, err
	}
	j, err := st.Add(spec, s.bg.clock.Now())
	if err != nil {
		return schedule.Job{}, err
	}
	s.jobsChanged()
	return j, nil
}

// RemoveJob deletes a reminder.
func (s *Service) RemoveJob(id string) error {
	st, err := s.jobStore()
	if err != nil {
		return err
	}
	if err := st.Remove(id); err != nil {
		return err
	}
	s.notices().removed(id)
	s.jobsChanged()
	return nil
}

// PauseJob pauses or resumes one reminder.
func (s *Service) PauseJob(id string, paused bool) error {
	st, err := s.jobStore()
	if err != nil {
		return err
	}
	if err := st.SetPaused(id, paused, s.bg.clock.Now()); err != nil {
		return err
	}
	s.jobsChanged()
	return nil
}

// RunJobNow runs a reminder at once and waits for its turn to finish (the
// Reminders view's Run now, `hearth cron run ID`). Its schedule stays.
func (s *Service) RunJobNow(ctx context.Context, id string) error {
	sc, err := s.scheduler()
	if err != nil {
		return err
	}
	err = sc.RunNow(ctx, id)
	s.bg.emit(BackgroundEvent{Kind: BackgroundJobs})
	return err
}

// SetRemindersPaused pauses or resumes every reminder and the heartbeat
// (the tray's Pause reminders). It lasts until Hearth quits.
func (s *Service) SetRemindersPaused(paused bool) {
	s.bg.mu.Lock()
	s.bg.paused = paused
	sc := s.bg.sched
	s.bg.mu.Unlock()
	if sc != nil {
		sc.SetPaused(paused)
	}
	// Kept in config.json (schedule.paused) so a restart does not quietly
	// resume what the user paused; a failed save still pauses this run.
	if s.Config().Schedule.Paused != paused {
		err := s.settings.Update(func(c *config.Config) error { c.Schedule.Paused = paused; return nil })
		if err != nil {
			slog.Warn("reminders paused for this run only", "err", err)
		}
	}
	s.bg.emit(BackgroundEvent{Kind: BackgroundJobs})
}

// RemindersPaused reports the tray's Pause reminders state.
func (s *Service) RemindersPaused() bool {
	s.bg.mu.Lock()
	defer s.bg.mu.Unlock()
	return s.bg.paused
}

// NextReminder is the next reminder due, for the tray's "Next:" label.
func (s *Service) NextReminder() (schedule.Job, bool) {
	if s.RemindersPaused() {
		return schedule.Job{}, false
	}
	jobs, err := s.ListJobs()
	if err != nil {
		return schedule.Job{}, false
	}
	for _, j := range jobs {
		if !j.Paused && !j.NextRun.IsZero() {
			return j, true
		}
	}
	return schedule.Job{}, false
}

// StartBackground starts the reminders scheduler and the heartbeat. Only
// the process holding hearth.lock may run them (SPEC §2), so the caller
// proves it holds the lock. They stop when ctx is done or StopBackground.
func (s *Service) StartBackground(ctx context.Context, held *applock.Lock) error {
	if held == nil {
		return errors.New("reminders: start needs hearth.lock held (hint: only the desktop app runs reminders)")
	}
	st, err := s.jobStore()
	if err != nil {
		return err
	}
	cfg := s.Config()
	sc, err := schedule.New(schedule.Options{
		Store: st, Run: s.runJob, Clock: s.bg.clock, MissedRuns: cfg.Schedule.MissedRuns, Watch: true,
		Notice:  s.schedulerNotice,
		Changed: func() { s.bg.emit(BackgroundEvent{Kind: BackgroundJobs}) },
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.bg.mu.Lock()
	if s.bg.started {
		s.bg.mu.Unlock()
		cancel()
		return nil
	}
	s.bg.sched, s.bg.cancel, s.bg.ctx, s.bg.started = sc, cancel, ctx, true
	paused := s.bg.paused
	s.bg.mu.Unlock()
	// Callbacks below emit events, which take s.bg.mu: never call them under it.
	if paused {
		sc.SetPaused(true)
	}
	s.notices().interruptStale()
	sc.Start(ctx)
	return s.restartHeartbeat()
}

// StopBackground stops the scheduler and heartbeat and waits for their runs
// (which end interrupted; the next start catches up on them).
func (s *Service) StopBackground() {
	s.bg.mu.Lock()
	sc, hbCancel := s.bg.sched, s.bg.cancel
	s.bg.mu.Unlock()
	if hbCancel != nil {
		hbCancel()
	}
	if sc != nil {
		sc.Wait()
	}
	s.bg.wg.Wait()
}

// runJob runs a reminder as an unattended turn in its session: tools that
// need approval run only when the job allows them (F-APPROVAL, enforced by
// the Gate from Request.Unattended and AllowTools); nothing ever waits for
// a human. The answer is delivered as a notification unless the run already
// reached the user with the message tool.
func (s *Service) runJob(ctx context.Context, j schedule.Job) (out schedule.Outcome) {
	started := s.bg.clock.Now()
	defer func() {
		// A missed run being caught up: its notice says how it went. A busy
		// chat retries later; a run cut by shutdown is caught up next start.
		if !out.Busy && ctx.Err() == nil {
			s.notices().ran(j.ID, started, out)
		}
	}()
	run, err := s.SendRequest(ctx, agent.Request{SessionID: j.Session(), Text: j.Message, Unattended: true,
		AllowTools: j.AllowTools, Channel: prompt.ChannelCron}, nil)
	if errors.Is(err, agent.ErrBusy) {
		return schedule.Outcome{Busy: true}
	}
	if err != nil {
		return schedule.Outcome{Status: schedule.StatusError, Err: err}
	}
	res := run.Wait()
	s.bg.mu.Lock()
	posted := s.bg.posted[run.ID]
	delete(s.bg.posted, run.ID)
	s.bg.mu.Unlock()
	out = schedule.Outcome{RunID: run.ID, Status: schedule.StatusOK}
	switch res.Status {
	case event.StatusOK:
	case event.StatusError:
		out.Status, out.Err = schedule.StatusError, res.Err
		if out.Err == nil {
			out.Err = errors.New("the run failed")
		}
	default:
		out.Status, out.Err = schedule.StatusError, fmt.Errorf("the run ended %s", res.Status)
	}
	if out.Status == schedule.StatusOK && !posted && strings.TrimSpace(res.Final) != "" {
		s.bg.emit(BackgroundEvent{Kind: BackgroundReminder, Title: j.Title(), Text: strings.TrimSpace(res.Final),
			SessionID: j.Session(), JobID: j.ID})
	}
	if out.Err != nil && ctx.Err() == nil {
		slog.Warn("reminder run failed", "job", j.ID, "err", out.Err)
		// The reminder itself must not be lost because the model failed.
		s.bg.emit(BackgroundEvent{Kind: BackgroundReminder, Title: j.Title(), SessionID: j.Session(), JobID: j.ID,
			Text: j.Message + "\n\n(Hearth could not run this reminder: " + firstLineOf(out.Err.Error()) + ")"})
	}
	return out
}

// postMessage delivers the message tool's content: it is already in the
// chat (as the tool call); this raises the notification that opens it.
func (s *Service) postMessage(_ context.Context, p schedule.Post) error {
	title := "Hearth"
	if id, ok := strings.CutPrefix(p.SessionID, "cron:"); ok {
		if st, err := s.jobStore(); err == nil {
			if j, err := st.Get(id); err == nil {
				title = j.Title()
			}
		}
	}
	s.bg.mu.Lock()
	if p.RunID != "" {
		s.bg.posted[p.RunID] = true
	}
	s.bg.mu.Unlock()
	s.bg.emit(BackgroundEvent{Kind: BackgroundMessage, Title: title, Text: p.Content, SessionID: p.SessionID})
	return nil
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
