package schedule

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/internal/fakeclock"
)

var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// recorder is a RunFunc that records which jobs ran and answers with out.
type recorder struct {
	mu   sync.Mutex
	ran  []string
	out  func(Job) Outcome
	runs chan string
}

func newRecorder() *recorder { return &recorder{runs: make(chan string, 100)} }

func (r *recorder) run(_ context.Context, j Job) Outcome {
	r.mu.Lock()
	r.ran = append(r.ran, j.ID)
	f := r.out
	r.mu.Unlock()
	r.runs <- j.ID
	if f != nil {
		return f(j)
	}
	return Outcome{Status: StatusOK, RunID: "run-" + j.ID}
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.ran)
}

type harness struct {
	store   *Store
	clock   *fakeclock.Clock
	rec     *recorder
	sched   *Scheduler
	notices []Notice
	mu      sync.Mutex
}

func newHarness(t *testing.T, dir string, missed string) *harness {
	t.Helper()
	h := &harness{store: NewStore(dir), clock: fakeclock.New(t0), rec: newRecorder()}
	var err error
	h.sched, err = New(Options{Store: h.store, Run: h.rec.run, Clock: h.clock, MissedRuns: missed,
		Notice: func(n Notice) { h.mu.Lock(); h.notices = append(h.notices, n); h.mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *harness) notice() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var texts []string
	for _, n := range h.notices {
		texts = append(texts, n.Text)
	}
	return strings.Join(texts, "\n")
}

// last is the last notice told, or the zero Notice.
func (h *harness) last() Notice {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.notices) == 0 {
		return Notice{}
	}
	return h.notices[len(h.notices)-1]
}

// tick advances the clock and runs one wake, waiting for the runs it started.
func (h *harness) tick(d time.Duration) time.Duration {
	h.clock.Advance(d)
	sleep := h.sched.Wake(context.Background())
	h.sched.Wait()
	return sleep
}

// waitRun waits for the next job run; a minute of real time without one is a hang.
func (h *harness) waitRun(t *testing.T, what string) {
	t.Helper()
	select {
	case <-h.rec.runs:
	case <-time.After(time.Minute):
		t.Fatal(what)
	}
}

func (h *harness) add(t *testing.T, spec JobSpec) Job {
	t.Helper()
	j, err := h.store.Add(spec, h.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestDueJobsRunAndReschedule(t *testing.T) {
	h := newHarness(t, t.TempDir(), "")
	every := h.add(t, JobSpec{Name: "stretch", Message: "stand up", Schedule: Schedule{Kind: KindEvery, EverySeconds: 300}})
	once := h.add(t, JobSpec{Name: "tea", Message: "tea is ready", Schedule: Schedule{Kind: KindAt, At: t0.Add(90 * time.Second)}})
	cron := h.add(t, JobSpec{Name: "standup", Message: "standup", Schedule: Schedule{Kind: KindCron, Expr: "30 9 * * *", TZ: "UTC"}})

	if sleep := h.tick(0); sleep != MaxSleep || h.rec.count() != 0 {
		t.Fatalf("nothing due: slept %v, ran %d", sleep, h.rec.count())
	}
	if sleep := h.tick(time.Minute); sleep != 30*time.Second {
		t.Errorf("sleep until the one-shot: %v, want 30s", sleep)
	}
	h.tick(30 * time.Second) // 09:01:30: the one-shot
	if got := h.rec.ran; len(got) != 1 || got[0] != once.ID {
		t.Fatalf("ran %v, want the one-shot", got)
	}
	// Done: kept for the Done list with its run, never due again.
	if got, err := h.store.Get(once.ID); err != nil || !got.Done || !got.NextRun.IsZero() || got.LastStatus != StatusOK || len(got.History) != 1 {
		t.Fatalf("one-shot after success: %+v %v", got, err)
	}
	h.tick(3*time.Minute + 30*time.Second) // 09:05
	h.tick(25 * time.Minute)               // 09:30: cron; every is due again at 09:10.. → one run, not a burst
	counts := map[string]int{}
	for _, id := range h.rec.ran {
		counts[id]++
	}
	if counts[every.ID] != 2 || counts[cron.ID] != 1 {
		t.Errorf("runs %v: want every twice (09:05, then once for the missed 09:10-09:30), cron once", counts)
	}
	got, _ := h.store.Get(every.ID)
	if want := t0.Add(35 * time.Minute); !got.NextRun.Equal(want) || got.LastStatus != StatusOK || len(got.History) != 2 {
		t.Errorf("every after runs: next %v (want %v), status %q, history %d", got.NextRun, want, got.LastStatus, len(got.History))
	}
	got, _ = h.store.Get(cron.ID)
	if want := time.Date(2026, 11, 24, 9, 30, 0, 0, time.UTC); !got.NextRun.Equal(want) || got.History[0].RunID != "run-"+cron.ID {
		t.Errorf("cron after run: next %v, want %v; history %+v", got.NextRun, want, got.History)
	}
}

func TestFailedOneShotKeptWithError(t *testing.T) {
	h := newHarness(t, t.TempDir(), "")
	h.rec.out = func(Job) Outcome { return Outcome{Status: StatusError, Err: errors.New("model unreachable")} }
	j := h.add(t, JobSpec{Message: "call mum", Schedule: Schedule{Kind: KindAt, At: t0.Add(time.Minute)}})
	h.tick(time.Minute)
	got, err := h.store.Get(j.ID)
	if err != nil {
		t.Fatalf("failed one-shot removed: %v", err)
	}
	if got.LastStatus != StatusError || got.LastError != "model unreachable" || !got.NextRun.IsZero() {
		t.Errorf("failed one-shot: %+v", got)
	}
	h.tick(time.Hour)
	if h.rec.count() != 1 {
		t.Errorf("failed one-shot ran again: %d runs", h.rec.count())
	}
}

func TestBusySessionRetriesLater(t *testing.T) {
	h := newHarness(t, t.TempDir(), "")
	busy := true
	h.rec.out = func(Job) Outcome {
		if busy {
			return Outcome{Busy: true}
		}
		return Outcome{Status: StatusOK}
	}
	j := h.add(t, JobSpec{Message: "x", Schedule: Schedule{Kind: KindAt, At: t0.Add(time.Minute)}})
	h.tick(time.Minute)
	got, _ := h.store.Get(j.ID)
	if len(got.History) != 0 || !got.NextRun.Equal(t0.Add(time.Minute+BusyRetry)) {
		t.Fatalf("busy: history %v next %v, want a retry in a minute and nothing recorded", got.History, got.NextRun)
	}
	busy = false
	h.tick(BusyRetry)
	if got, err := h.store.Get(j.ID); err != nil || !got.Done || h.rec.count() != 2 {
		t.Errorf("retry did not run: runs %d, job %+v, err %v", h.rec.count(), got, err)
	}
}

func TestMissedRunsCatchup(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir, MissedCatchup)
	a := h.add(t, JobSpec{Name: "hourly", Message: "x", Schedule: Schedule{Kind: KindEvery, EverySeconds: 3600}})
	b := h.add(t, JobSpec{Name: "later", Message: "y", Schedule: Schedule{Kind: KindAt, At: t0.Add(30 * time.Hour)}})
	// Hearth was closed for 5 hours: a new process starts.
	h2 := newHarness(t, dir, MissedCatchup)
	h2.clock.Set(t0.Add(5 * time.Hour))
	h2.sched.catchUp()
	if n := h2.last(); h2.notice() != "Running 1 reminder(s) missed while Hearth was closed, once each: hourly" ||
		n.Message.Code != "schedule.missed.running" || n.Message.Args["names"] != "hourly" || n.Message.Args["count"] != "1" {
		t.Errorf("notice %q %+v: want the catch-up and the missed job only", h2.notice(), n.Message)
	}
	if n := h2.last(); n.Kind != NoticeMissed || len(n.Missed) != 1 || n.Missed[0] != (MissedRun{JobID: a.ID,
		Title: "hourly", SessionID: "cron:" + a.ID, Due: t0.Add(time.Hour)}) {
		t.Errorf("structured notice %+v: want hourly, due 10:00, caught up", n)
	}
	h2.tick(0)
	if got := h2.rec.ran; len(got) != 1 || got[0] != a.ID {
		t.Fatalf("catch-up ran %v, want %s once", got, a.ID)
	}
	got, _ := h2.store.Get(a.ID)
	if !got.NextRun.Equal(t0.Add(6 * time.Hour)) {
		t.Errorf("after catch-up next run %v, want back on the hourly grid at 15:00", got.NextRun)
	}
	if got, _ := h2.store.Get(b.ID); !got.NextRun.Equal(t0.Add(30 * time.Hour)) {
		t.Errorf("future job touched: %v", got.NextRun)
	}
}

func TestMissedRunsSkip(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir, MissedSkip)
	a := h.add(t, JobSpec{Name: "daily", Message: "x", Schedule: Schedule{Kind: KindCron, Expr: "0 10 * * *", TZ: "UTC"}})
	o := h.add(t, JobSpec{Name: "once", Message: "y", Schedule: Schedule{Kind: KindAt, At: t0.Add(time.Hour)}})
	h2 := newHarness(t, dir, MissedSkip)
	h2.clock.Set(t0.Add(26 * time.Hour)) // 11:00 next day
	h2.sched.catchUp()
	h2.tick(0)
	if h2.rec.count() != 0 {
		t.Fatalf("skip policy ran %v", h2.rec.ran)
	}
	if n := h2.last(); !strings.Contains(h2.notice(), "Skipped 2") || n.Message.Code != "schedule.missed.skipped" {
		t.Errorf("notice %q %+v", h2.notice(), n.Message)
	}
	if n := h2.last(); n.Kind != NoticeMissed || len(n.Missed) != 2 || !n.Missed[0].Skipped || !n.Missed[1].Skipped ||
		!n.Missed[0].Due.Equal(t0.Add(time.Hour)) || !n.Missed[1].Due.Equal(t0.Add(time.Hour)) {
		t.Errorf("structured notice %+v: want both skipped, due 10:00", n)
	}
	got, _ := h2.store.Get(a.ID)
	if got.LastStatus != StatusSkipped || !got.NextRun.Equal(time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("skipped cron: status %q next %v", got.LastStatus, got.NextRun)
	}
	got, _ = h2.store.Get(o.ID)
	if got.LastStatus != StatusSkipped || !got.NextRun.IsZero() || !got.Done {
		t.Errorf("skipped one-shot: %+v (want kept in the Done list, marked skipped, not scheduled)", got)
	}
}

func TestPersistenceAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir, "")
	j := h.add(t, JobSpec{Name: "water", Message: "drink", Schedule: Schedule{Kind: KindEvery, EverySeconds: 600},
		AllowTools: []string{"exec"}})
	h.tick(10 * time.Minute)
	// A new process on the same directory sees the job, its history and next run.
	h2 := newHarness(t, dir, "")
	h2.clock.Set(h.clock.Now())
	jobs, problems, err := h2.sched.Jobs()
	if err != nil || len(problems) != 0 || len(jobs) != 1 {
		t.Fatalf("reload: %v %v %v", jobs, problems, err)
	}
	got := jobs[0]
	if got.ID != j.ID || got.Name != "water" || got.AllowTools[0] != "exec" || len(got.History) != 1 ||
		!got.NextRun.Equal(t0.Add(20*time.Minute)) || got.Description != "every 10 minutes" {
		t.Errorf("after restart: %+v", got)
	}
	fi, _ := os.Stat(h.store.Path())
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("jobs.json mode %v", fi.Mode().Perm())
	}
}

func TestReloadWhenAnotherProcessChangedTheFile(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir, "")
	h.tick(0)
	// The CLI (another Store on the same file) adds a job due in 30 s.
	cli := NewStore(dir)
	j, err := cli.Add(JobSpec{Message: "from the cli", Schedule: Schedule{Kind: KindAt, At: t0.Add(30 * time.Second)}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if sleep := h.tick(0); sleep != 30*time.Second {
		t.Errorf("after the CLI's change the scheduler sleeps %v, want 30s", sleep)
	}
	h.tick(30 * time.Second)
	if got := h.rec.ran; len(got) != 1 || got[0] != j.ID {
		t.Errorf("ran %v", got)
	}
}

func TestCorruptFileKeptAndReported(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir, "")
	os.WriteFile(h.store.Path(), []byte(`{"jobs": [ {"id": "a"`), 0o600)
	before, _ := os.ReadFile(h.store.Path())
	h.tick(0)
	_, _, err := h.sched.Jobs()
	var ce *CorruptError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "hint") {
		t.Fatalf("damaged file: %v, want a CorruptError with a hint", err)
	}
	if !strings.Contains(h.notice(), "damaged") || h.last().Message.Code != "schedule.jobsFile.damaged" || h.last().Message.Args["path"] == "" {
		t.Errorf("user not told: %q", h.notice())
	}
	if _, err := h.store.Add(JobSpec{Message: "x", Schedule: Schedule{Kind: KindEvery, EverySeconds: 60}}, t0); err == nil {
		t.Error("add over a damaged file succeeded")
	}
	if after, _ := os.ReadFile(h.store.Path()); !bytes.Equal(before, after) {
		t.Error("damaged jobs.json was rewritten")
	}
	if n := h.last(); n.Kind != NoticeJobsFile {
		t.Errorf("notice kind %q, want %q", n.Kind, NoticeJobsFile)
	}
	// Fixed by hand: the user is told nothing more, the stale notice can go.
	os.WriteFile(h.store.Path(), []byte(`{"version":1,"jobs":[]}`), 0o600)
	h.tick(time.Minute)
	if n := h.last(); n.Kind != NoticeJobsFileOK || n.Text != "" {
		t.Errorf("after the fix: %+v, want a textless %q", n, NoticeJobsFileOK)
	}
}

func TestBadEntriesKeptValidJobsRun(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir, "")
	good := `{"id":"good1","message":"run me","schedule":{"kind":"at","at":"2026-11-23T09:01:00Z"},"nextRun":"2026-11-23T09:01:00Z","created":"2026-11-23T08:00:00Z"}`
	bad := `{"id":"bad1","message":"x","schedule":{"kind":"cron","expr":"99 * * * *"}}`
	os.WriteFile(h.store.Path(), []byte(`{"version":1,"jobs":[`+bad+`,`+good+`]}`), 0o600)
	h.tick(time.Minute)
	if got := h.rec.ran; len(got) != 1 || got[0] != "good1" {
		t.Fatalf("ran %v, want the valid job", got)
	}
	_, problems, err := h.sched.Jobs()
	if err != nil || len(problems) != 1 || problems[0].ID != "bad1" {
		t.Errorf("problems %v err %v", problems, err)
	}
	data, _ := os.ReadFile(h.store.Path())
	if !strings.Contains(string(data), `"bad1"`) || !strings.Contains(string(data), `99 * * * *`) {
		t.Errorf("invalid entry dropped on save:\n%s", data)
	}
	if !strings.Contains(h.notice(), "could not be read") || h.last().Message.Code != "schedule.jobsFile.entries" || h.last().Message.Args["count"] != "1" {
		t.Errorf("notice %q", h.notice())
	}
}

func TestPauseAndResume(t *testing.T) {
	h := newHarness(t, t.TempDir(), "")
	j := h.add(t, JobSpec{Message: "x", Schedule: Schedule{Kind: KindEvery, EverySeconds: 60}})
	h.sched.SetPaused(true)
	h.tick(5 * time.Minute)
	if h.rec.count() != 0 || h.sched.Paused() != true {
		t.Fatal("ran while reminders were paused")
	}
	h.sched.SetPaused(false)
	h.tick(0)
	if h.rec.count() != 1 {
		t.Fatalf("resume: %d runs, want the overdue one once", h.rec.count())
	}
	if err := h.store.SetPaused(j.ID, true, h.clock.Now()); err != nil {
		t.Fatal(err)
	}
	h.tick(10 * time.Minute)
	if h.rec.count() != 1 {
		t.Error("a paused job ran")
	}
}

func TestLoopCatchesClockJumpsWithinAMinute(t *testing.T) {
	h := newHarness(t, t.TempDir(), "")
	h.add(t, JobSpec{Message: "x", Schedule: Schedule{Kind: KindAt, At: t0.Add(3 * time.Hour)}})
	ctx, cancel := context.WithCancel(context.Background())
	h.sched.Start(ctx)
	if !h.clock.WaitForWaiters(1) {
		t.Fatal("loop never slept")
	}
	if d := h.clock.NextTimer().Sub(h.clock.Now()); d != MaxSleep {
		t.Errorf("first sleep %v, want %v although the job is 3 h away", d, MaxSleep)
	}
	// Suspend/resume or a changed system clock: wall time jumps 3 hours.
	h.clock.Set(t0.Add(3 * time.Hour))
	h.waitRun(t, "job not run after the clock jumped past it")
	// An in-process change wakes the loop at once (Kick).
	h.add(t, JobSpec{Message: "y", Schedule: Schedule{Kind: KindAt, At: t0.Add(3*time.Hour + 5*time.Second)}})
	h.sched.Kick()
	if !h.clock.WaitForTimerAt(t0.Add(3*time.Hour + 5*time.Second)) {
		t.Fatalf("kick not seen: next wake %v", h.clock.NextTimer())
	}
	h.clock.Advance(5 * time.Second)
	h.waitRun(t, "kicked job not run")
	cancel()
	h.sched.Wait()
}

func TestRunNow(t *testing.T) {
	h := newHarness(t, t.TempDir(), "")
	j := h.add(t, JobSpec{Message: "x", Schedule: Schedule{Kind: KindCron, Expr: "0 18 * * *", TZ: "UTC"}})
	if err := h.sched.RunNow(context.Background(), j.ID); err != nil {
		t.Fatal(err)
	}
	got, _ := h.store.Get(j.ID)
	if len(got.History) != 1 || !got.NextRun.Equal(time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)) {
		t.Errorf("run now: history %v next %v (schedule must stay)", got.History, got.NextRun)
	}
	if err := h.sched.RunNow(context.Background(), "nope"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown id: %v", err)
	}
}

func TestWatchSeesOtherProcessAtOnce(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir, "")
	h.sched.opts.Watch = true
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); h.sched.Wait() }()
	h.sched.Start(ctx)
	if !h.clock.WaitForWaiters(1) {
		t.Fatal("loop not sleeping")
	}
	// `hearth cron add` in another process: due in 1 s, far before the 60 s wake-up.
	if _, err := NewStore(dir).Add(JobSpec{Message: "x", Schedule: Schedule{Kind: KindAt, At: t0.Add(time.Second)}}, t0); err != nil {
		t.Fatal(err)
	}
	if !h.clock.WaitForTimerAt(t0.Add(time.Second)) {
		t.Fatalf("the change was not noticed: next wake at %v", h.clock.NextTimer())
	}
	h.clock.Advance(time.Second)
	h.waitRun(t, "job from the other process did not run")
}

func TestEditReschedulesAndDoneRunsAgainOnlyWhenEdited(t *testing.T) {
	h := newHarness(t, t.TempDir(), "")
	j := h.add(t, JobSpec{Name: "tea", Message: "tea", Schedule: Schedule{Kind: KindAt, At: t0.Add(time.Minute)}})
	if _, err := h.store.Edit(j.ID, JobSpec{Message: " "}, t0); err == nil {
		t.Error("an empty message was accepted")
	}
	got, err := h.store.Edit(j.ID, JobSpec{Name: " green tea ", Message: "green tea is ready", Schedule: Schedule{Kind: KindAt, At: t0.Add(2 * time.Minute)}}, t0)
	if err != nil || got.Name != "green tea" || !got.NextRun.Equal(t0.Add(2*time.Minute)) || got.Description == "" {
		t.Fatalf("edit: %+v %v", got, err)
	}
	h.tick(time.Minute)
	if h.rec.count() != 0 {
		t.Fatal("ran at the old time")
	}
	h.tick(time.Minute)
	if got, _ := h.store.Get(j.ID); !got.Done || h.rec.count() != 1 {
		t.Fatalf("not done: %+v", got)
	}
	h.tick(time.Hour)
	if h.rec.count() != 1 {
		t.Fatal("a done one-shot ran again")
	}
	if _, err := h.store.Edit(j.ID, JobSpec{Message: "again", Schedule: Schedule{Kind: KindAt, At: t0}}, t0.Add(time.Hour)); err == nil {
		t.Error("a done one-shot was given a past time")
	}
	got, err = h.store.Edit(j.ID, JobSpec{Message: "again", Schedule: Schedule{Kind: KindAt, At: t0.Add(2 * time.Hour)}}, t0.Add(time.Hour))
	if err != nil || got.Done || !got.NextRun.Equal(t0.Add(2*time.Hour)) || len(got.History) != 1 {
		t.Errorf("done edited to a new time: %+v %v", got, err)
	}
	if _, err := h.store.Edit("nope", JobSpec{Message: "x", Schedule: Schedule{Kind: KindEvery, EverySeconds: 60}}, t0); err == nil {
		t.Error("edited a missing job")
	}
}

// A reminder's own choice wins over schedule.missedRuns: "ask" runs nothing and moves a
// repeating one on (a one-shot waits), "skip" skips under the catch-up default, and the
// notice says which asks.
func TestMissedRunsPerReminder(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir, "")
	ask := h.add(t, JobSpec{Name: "plants", Message: "x", MissedRuns: MissedAsk, Schedule: Schedule{Kind: KindCron, Expr: "0 10 * * *", TZ: "UTC"}})
	once := h.add(t, JobSpec{Name: "call", Message: "y", MissedRuns: MissedAsk, Schedule: Schedule{Kind: KindAt, At: t0.Add(time.Hour)}})
	skip := h.add(t, JobSpec{Name: "news", Message: "z", MissedRuns: MissedSkip, Schedule: Schedule{Kind: KindCron, Expr: "0 10 * * *", TZ: "UTC"}})
	run := h.add(t, JobSpec{Name: "brief", Message: "w", Schedule: Schedule{Kind: KindCron, Expr: "0 10 * * *", TZ: "UTC"}})
	if _, err := h.store.Add(JobSpec{Message: "bad", MissedRuns: "sometimes", Schedule: Schedule{Kind: KindEvery, EverySeconds: 60}}, t0); err == nil {
		t.Error("an unknown missed-run choice was accepted")
	}
	h2 := newHarness(t, dir, MissedCatchup)
	h2.clock.Set(t0.Add(26 * time.Hour))
	h2.sched.catchUp()
	h2.tick(0)
	if got := h2.rec.ran; len(got) != 1 || got[0] != run.ID {
		t.Fatalf("ran %v, want only the catch-up default %s", got, run.ID)
	}
	byID := map[string]MissedRun{}
	for _, m := range h2.last().Missed {
		byID[m.JobID] = m
	}
	if !byID[ask.ID].Ask || !byID[once.ID].Ask || !byID[skip.ID].Skipped || byID[run.ID].Ask || byID[run.ID].Skipped {
		t.Errorf("notice %+v", byID)
	}
	if got, _ := h2.store.Get(ask.ID); len(got.History) != 0 || !got.NextRun.Equal(time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("asking repeating job %+v", got)
	}
	if got, _ := h2.store.Get(once.ID); !got.NextRun.IsZero() || got.Done {
		t.Errorf("asking one-shot %+v: want waiting, not due", got)
	}
	if got, _ := h2.store.Get(skip.ID); got.LastStatus != StatusSkipped || got.LastError != "" ||
		!got.History[0].Due.Equal(time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("skipped job %+v", got)
	}
	// Run once (the answer): a manual run; the one-shot is then done.
	if err := h2.sched.RunNow(context.Background(), once.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := h2.store.Get(once.ID); !got.Done {
		t.Errorf("answered one-shot %+v", got)
	}
}

// When every missed reminder asks, each says so with its own notice: the summary has no
// text (no second notification).
func TestMissedRunsAllAskingSayNothingMore(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir, MissedAsk)
	h.add(t, JobSpec{Name: "plants", Message: "x", Schedule: Schedule{Kind: KindCron, Expr: "0 10 * * *", TZ: "UTC"}})
	h2 := newHarness(t, dir, MissedAsk)
	h2.clock.Set(t0.Add(26 * time.Hour))
	h2.sched.catchUp()
	if n := h2.last(); n.Kind != NoticeMissed || len(n.Missed) != 1 || !n.Missed[0].Ask || n.Text != "" || n.Message.Code != "" {
		t.Errorf("notice %+v", n)
	}
}
