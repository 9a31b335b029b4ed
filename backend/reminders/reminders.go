// Package reminders is the schedule service: the reminders (jobs.json, run as
// unattended turns in their own chats), the heartbeat, the notices the window shows
// about reminders missed while Hearth was closed, and the cron and message tools.
// Only the process holding hearth.lock runs the scheduler and the heartbeat.
package reminders

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"hearth/backend/agent"
	"hearth/backend/agent/prompt"
	"hearth/backend/applock"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/schedule"
	"hearth/backend/settings"
)

// Runs start the unattended turns (the chat service).
type Runs interface {
	Start(ctx context.Context, req agent.Request, sink event.Sink) (*agent.Run, error)
}

// Sessions keeps the heartbeat's chat short on disk (the session store).
type Sessions interface {
	KeepRecent(id string, runs int) (dropped int, err error)
}

// Options configure New; Settings, Runs and Sessions are required, Tasks for the
// heartbeat.
type Options struct {
	Settings *settings.Service
	Runs     Runs
	Sessions Sessions
	// Tasks reads the heartbeat's task list, HEARTBEAT.md (the memory service: it
	// reads workspace files confined to the workspace).
	Tasks func() (string, error)
	// News hears what reminders, the heartbeat and the message tool tell the user,
	// and that the jobs changed.
	News *event.Broker[event.Background]
	// Clock drives reminders and the heartbeat; nil means the system clock.
	Clock schedule.Clock
	// Deliver takes the notifications of reminders, the heartbeat and the message
	// tool where the person wants them (notifyIn: a reminder's choice, "" for the
	// default; chat: the channel chat it was made in) and reports whether the
	// desktop notifies too. Nil: the desktop only.
	Deliver func(ev event.Background, notifyIn, chat string) (desktop bool)
}

// Service is the schedule service. Building it reads nothing.
type Service struct {
	opts  Options
	clock schedule.Clock

	mu      sync.Mutex
	sched   *schedule.Scheduler // running only in the process holding hearth.lock
	hb      *schedule.Heartbeat
	paused  bool
	posted  map[string]bool         // run ids that used the message tool
	running map[string]schedule.Job // the reminders running now, by the chat they run in
	cancel  context.CancelFunc
	started bool
	ctx     context.Context // Start's, for restarting the heartbeat

	notices noticeBook // what the window shows until dismissed (notices.go)

	hbMu     sync.Mutex // serialises heartbeat restarts
	hbCancel context.CancelFunc
	wg       sync.WaitGroup // the heartbeat loop
}

// New returns the service. Reminders stay paused across restarts (schedule.paused).
func New(opts Options) *Service {
	s := &Service{opts: opts, clock: opts.Clock, posted: map[string]bool{}, running: map[string]schedule.Job{}}
	s.clock = cmp.Or[schedule.Clock](s.clock, schedule.SystemClock{})
	s.paused = opts.Settings.Config().Schedule.Paused
	return s
}

// notify raises a notification where the person wants it.
func (s *Service) notify(ev event.Background, notifyIn, chat string) {
	if s.opts.Deliver != nil && !s.opts.Deliver(ev, notifyIn, chat) {
		return
	}
	s.emit(ev)
}

func (s *Service) emit(ev event.Background) {
	if s.opts.News != nil {
		s.opts.News.Publish(ev)
	}
}

func (s *Service) jobStore() (*schedule.Store, error) {
	p := s.opts.Settings.Paths()
	if p.CronDir == "" {
		return nil, fmt.Errorf("reminders: no data directory: %v", s.opts.Settings.PathsError())
	}
	return schedule.NewStore(p.CronDir), nil
}

// scheduler returns the running scheduler, or a stopped one over the same file (the
// CLI's `hearth cron run`, which runs a job in its own process).
func (s *Service) scheduler() (*schedule.Scheduler, error) {
	s.mu.Lock()
	sc := s.sched
	s.mu.Unlock()
	if sc != nil {
		return sc, nil
	}
	st, err := s.jobStore()
	if err != nil {
		return nil, err
	}
	return schedule.New(schedule.Options{Store: st, Run: s.runJob, Clock: s.clock})
}

func (s *Service) jobsChanged() {
	s.mu.Lock()
	sc := s.sched
	s.mu.Unlock()
	if sc != nil {
		sc.Kick()
	}
	s.emit(event.Background{Kind: event.BackgroundJobs})
}

// ListJobs returns the reminders, soonest first (jobs that will not run again last),
// each with its schedule in words, next and last run, last status and error, and
// history. A damaged jobs.json is an error with a hint.
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
		if a.NextRun.IsZero() != b.NextRun.IsZero() {
			if a.NextRun.IsZero() {
				return 1
			}
			return -1
		}
		return a.NextRun.Compare(b.NextRun)
	})
	return jobs, nil
}

// JobProblems lists entries of jobs.json that could not be read (they are kept in
// the file, not run).
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
	j, err := st.Add(spec, s.clock.Now())
	if err != nil {
		return schedule.Job{}, err
	}
	s.jobsChanged()
	return j, nil
}

// EditJob changes a reminder (the same form as Add): its next run is computed anew
// when the schedule changed, and a done one-shot given a future time runs again.
func (s *Service) EditJob(id string, spec schedule.JobSpec) (schedule.Job, error) {
	st, err := s.jobStore()
	if err != nil {
		return schedule.Job{}, err
	}
	j, err := st.Edit(id, spec, s.clock.Now())
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
	s.book().removed(id)
	s.jobsChanged()
	return nil
}

// PauseJob pauses or resumes one reminder.
func (s *Service) PauseJob(id string, paused bool) error {
	st, err := s.jobStore()
	if err != nil {
		return err
	}
	if err := st.SetPaused(id, paused, s.clock.Now()); err != nil {
		return err
	}
	s.jobsChanged()
	return nil
}

// RunJobNow runs a reminder at once and waits for its turn to finish (the Reminders
// view's Run now, `hearth cron run ID`). Its schedule stays.
func (s *Service) RunJobNow(ctx context.Context, id string) error {
	sc, err := s.scheduler()
	if err != nil {
		return err
	}
	err = sc.RunNow(ctx, id)
	s.emit(event.Background{Kind: event.BackgroundJobs})
	return err
}

// SetPaused pauses or resumes every reminder and the heartbeat (the tray's Pause
// reminders). It is kept in config.json (schedule.paused) so a restart does not
// quietly resume what the user paused; a failed save still pauses this run.
func (s *Service) SetPaused(paused bool) {
	s.mu.Lock()
	s.paused = paused
	sc := s.sched
	s.mu.Unlock()
	if sc != nil {
		sc.SetPaused(paused)
	}
	if s.opts.Settings.Config().Schedule.Paused != paused {
		err := s.opts.Settings.Update(func(c *config.Config) error { c.Schedule.Paused = paused; return nil })
		if err != nil {
			slog.Warn("reminders paused for this run only", "err", err)
		}
	}
	s.emit(event.Background{Kind: event.BackgroundJobs})
}

// Paused reports the tray's Pause reminders state.
func (s *Service) Paused() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paused
}

// Next is the next reminder due, for the tray's "Next:" label. One running now is not
// next (the tray lists it under what runs), even before its run is recorded.
func (s *Service) Next() (schedule.Job, bool) {
	if s.Paused() {
		return schedule.Job{}, false
	}
	jobs, err := s.ListJobs()
	if err != nil {
		return schedule.Job{}, false
	}
	s.mu.Lock()
	running := map[string]bool{}
	for _, j := range s.running {
		running[j.ID] = true
	}
	s.mu.Unlock()
	for _, j := range jobs {
		if !j.Paused && !j.NextRun.IsZero() && !running[j.ID] {
			return j, true
		}
	}
	return schedule.Job{}, false
}

// RunningJob is the reminder whose turn runs in the chat sessionID now, if one does
// (the tray names it and offers Stop).
func (s *Service) RunningJob(sessionID string) (schedule.Job, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.running[sessionID]
	return j, ok
}

// Start starts the reminders scheduler and the heartbeat. Only the process holding
// hearth.lock may run them, so the caller proves it holds the lock. They run until
// Close.
func (s *Service) Start(ctx context.Context, held *applock.Lock) error {
	if held == nil {
		return errors.New("reminders: start needs hearth.lock held (hint: only the desktop app runs reminders)")
	}
	st, err := s.jobStore()
	if err != nil {
		return err
	}
	sc, err := schedule.New(schedule.Options{
		Store: st, Run: s.runJob, Clock: s.clock, MissedRuns: s.opts.Settings.Config().Schedule.MissedRuns, Watch: true,
		Notice: s.schedulerNotice, News: s.opts.News,
	})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		cancel()
		return nil
	}
	s.sched, s.cancel, s.ctx, s.started = sc, cancel, ctx, true
	paused := s.paused
	s.mu.Unlock()
	// Callbacks below emit events and take s.mu: never call them under it.
	if paused {
		sc.SetPaused(true)
	}
	s.book().interruptStale()
	sc.Start(ctx)
	return s.restartHeartbeat()
}

// Close stops the scheduler and the heartbeat and waits for their runs (which end
// interrupted when the chat service closed first; the next start catches up on them).
func (s *Service) Close(context.Context) error {
	s.mu.Lock()
	sc, cancel := s.sched, s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if sc != nil {
		sc.Wait()
	}
	s.wg.Wait()
	return nil
}

// runJob runs a reminder as an unattended turn in its session: tools that need
// approval run only when the job allows them (the gate reads Request.Unattended and
// AllowTools); nothing ever waits for a human.
//
// The notification is the promise: it says the person's words as soon as the turn has
// started, before the model answers (a cold model or a slow CPU takes minutes), and a
// run that starts late says when it was due. The model's work follows in the chat, and
// its answer (or what it posted with the message tool, or why it failed) in a second,
// quieter notification.
func (s *Service) runJob(ctx context.Context, j schedule.Job) (out schedule.Outcome) {
	started := s.clock.Now()
	s.mu.Lock()
	s.running[j.Session()] = j
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.running, j.Session())
		s.mu.Unlock()
		// A missed run being caught up: its notice says how it went. A busy chat
		// retries later; a run cut by shutdown is caught up next start.
		if !out.Busy && !out.Interrupted && ctx.Err() == nil {
			s.book().ran(j.ID, started, out)
		}
	}()
	run, err := s.opts.Runs.Start(ctx, agent.Request{SessionID: j.Session(), Text: j.Message, Unattended: true,
		AllowTools: j.AllowTools, Channel: prompt.ChannelCron}, nil)
	if errors.Is(err, agent.ErrBusy) {
		return schedule.Outcome{Busy: true}
	}
	if err != nil {
		if ctx.Err() == nil {
			// The reminder itself must not be lost because the turn could not start.
			s.notify(reminderNews(j, "notify.reminder.failed", map[string]string{"error": firstLineOf(err.Error())}), j.NotifyIn, j.NotifyChat)
		}
		return schedule.Outcome{Status: schedule.StatusError, Err: err}
	}
	s.notify(reminderNews(j, lateCode(j, started), nil), j.NotifyIn, j.NotifyChat)
	res := run.Wait()
	posted := s.takePosted(run.ID)
	out = schedule.Outcome{RunID: run.ID, Status: schedule.StatusOK}
	switch res.Status {
	case event.StatusInterrupted: // Hearth is quitting: nobody is told, nothing is lost
		return schedule.Outcome{RunID: run.ID, Interrupted: true}
	case event.StatusOK:
	case event.StatusCancelled: // the person stopped it (the tray's Stop): nothing more to say
		return schedule.Outcome{RunID: run.ID, Status: schedule.StatusStopped}
	case event.StatusError:
		out.Status, out.Err = schedule.StatusError, res.Err
		if out.Err == nil {
			out.Err = errors.New("the run failed")
		}
	default:
		out.Status, out.Err = schedule.StatusError, fmt.Errorf("the run ended %s", res.Status)
	}
	switch {
	case out.Err != nil && ctx.Err() == nil:
		slog.Warn("reminder run failed", "job", j.ID, "err", out.Err)
		s.notify(answerNews(j, "", "notify.reminder.answerFailed", map[string]string{"error": firstLineOf(out.Err.Error())}), j.NotifyIn, j.NotifyChat)
	case out.Status == schedule.StatusOK && !posted && strings.TrimSpace(res.Final) != "":
		s.notify(answerNews(j, res.Final, "", nil), j.NotifyIn, j.NotifyChat)
	}
	return out
}

// lateAfter is how late a run may start and still be "on time": past it, the
// notification says when the reminder was due (a missed run caught up, a run after a
// busy chat or a sleeping computer).
const lateAfter = time.Minute

// lateCode names the notification of a run that started late, "" for one on time.
func lateCode(j schedule.Job, started time.Time) string {
	if j.NextRun.IsZero() || started.Sub(j.NextRun) < lateAfter {
		return ""
	}
	return "notify.reminder.late"
}

// reminderNews is the notification of a reminder's run: titled with its name (or
// "Reminder"), saying the message the person wrote; with a code (and args, e.g. the
// error) it says that message of the catalog instead. Every code has {due}: when the
// run was due.
func reminderNews(j schedule.Job, code string, args map[string]string) event.Background {
	a := map[string]string{"name": j.Name, "message": strings.TrimSpace(j.Message)}
	if !j.NextRun.IsZero() {
		a["due"] = j.NextRun.Local().Format("Mon 15:04")
	}
	maps.Copy(a, args)
	ev := event.Background{Kind: event.BackgroundReminder, Title: j.Name, Text: a["message"], SessionID: j.Session(),
		JobID: j.ID, Args: a}
	if ev.Title == "" {
		ev.TitleCode = "notify.reminder.title"
		ev.Title = i18n.M(ev.TitleCode).String()
	}
	if code != "" {
		ev.Code = code
		ev.Text = i18n.Message{Code: code, Args: a}.String()
	}
	return ev
}

// answerNews is the quieter second notification of a reminder: what the model answered
// or posted (text), or with a code why it could not.
func answerNews(j schedule.Job, text, code string, args map[string]string) event.Background {
	ev := reminderNews(j, code, args)
	ev.Kind = event.BackgroundReminderAnswer
	if code == "" {
		ev.Text = text
	}
	return ev
}

// takePosted reports whether run used the message tool, and forgets it.
func (s *Service) takePosted(runID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	posted := s.posted[runID]
	delete(s.posted, runID)
	return posted
}

// Post delivers the message tool's content (schedule.Tools takes it with the service
// as the cron tool's JobManager): it is already in the chat (as the tool call); this
// raises the notification that opens it. In a reminder's own run it is that
// reminder's second, quieter notification (its first said the person's words).
func (s *Service) Post(_ context.Context, p schedule.Post) error {
	s.mu.Lock()
	if p.RunID != "" {
		s.posted[p.RunID] = true
	}
	s.mu.Unlock()
	if id, ok := strings.CutPrefix(p.SessionID, "cron:"); ok {
		if st, err := s.jobStore(); err == nil {
			if j, err := st.Get(id); err == nil {
				s.notify(answerNews(j, p.Content, "", nil), j.NotifyIn, j.NotifyChat)
				return nil
			}
		}
	}
	s.notify(event.Background{Kind: event.BackgroundMessage, Title: i18n.T(i18n.English, "notify.message.title"), Text: p.Content,
		SessionID: p.SessionID, TitleCode: "notify.message.title"}, "", "")
	return nil
}

func firstLineOf(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
