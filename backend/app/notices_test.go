package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/applock"
	"hearth/backend/event"
	"hearth/backend/internal/fakeclock"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/reminders"
	"hearth/backend/schedule"
)

// hearthRun is one start of Hearth over the same directories: a Service
// with its own fake clock, holding hearth.lock once started.
type hearthRun struct {
	svc   *App
	clock *fakeclock.Clock
	ev    *bgEvents
	lock  *applock.Lock
}

// quit stops the background and lets go of the lock, as closing Hearth does.
func (h *hearthRun) quit() {
	_ = h.svc.Reminders.Close(context.Background())
	_ = h.svc.Close(context.Background())
	if h.lock != nil {
		h.lock.Release()
		h.lock = nil
	}
}

// openHearth opens a Service at now over the test's XDG dirs (setXDG first).
func openHearth(t *testing.T, url string, now time.Time) *hearthRun {
	t.Helper()
	h := &hearthRun{clock: fakeclock.New(now), ev: &bgEvents{ch: make(chan event.Background, 100)}}
	h.svc = open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1},
		Clock: h.clock})
	if err := h.svc.Settings.ConfigError(); err != nil {
		t.Fatal(err)
	}
	onBackground(t, h.svc, h.ev.sink)
	t.Cleanup(h.quit)
	return h
}

// start starts reminders and waits until the scheduler sleeps.
func (h *hearthRun) start(t *testing.T) {
	t.Helper()
	lock, err := applock.Acquire(h.svc.Settings.Paths().LockFile)
	if err != nil {
		t.Fatal(err)
	}
	h.lock = lock
	if err := h.svc.Reminders.Start(context.Background(), lock); err != nil {
		t.Fatal(err)
	}
	want := 1
	if h.svc.Settings.Config().Heartbeat.Enabled {
		want = 2
	}
	if !h.clock.WaitForWaiters(want) {
		t.Fatal("background loops never slept")
	}
}

func writeConfig(t *testing.T, cfgJSON string) {
	t.Helper()
	p := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "hearth", "config.json")
	os.MkdirAll(filepath.Dir(p), 0o700)
	if err := os.WriteFile(p, []byte(cfgJSON), 0o600); err != nil {
		t.Fatal(err)
	}
}

func missedFor(ns []reminders.Notice, jobID string) []reminders.Notice {
	var out []reminders.Notice
	for _, n := range ns {
		if n.Kind == reminders.NoticeMissed && n.JobID == jobID {
			out = append(out, n)
		}
	}
	return out
}

// addWhileOpen adds jobs in a first run of Hearth that then quits before
// they are due; the next start is at 12:00, three hours later.
func addWhileOpen(t *testing.T, url string, specs ...schedule.JobSpec) []schedule.Job {
	t.Helper()
	first := openHearth(t, url, bgT0)
	var jobs []schedule.Job
	for _, spec := range specs {
		j, err := first.svc.Reminders.AddJob(spec)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	first.quit()
	return jobs
}

var (
	hourly  = schedule.JobSpec{Name: "Morning brief", Message: "brief me", Schedule: schedule.Schedule{Kind: schedule.KindEvery, EverySeconds: 3600}}
	onceAt  = schedule.JobSpec{Name: "Call Anna", Message: "remind me to call Anna", Schedule: schedule.Schedule{Kind: schedule.KindAt, At: bgT0.Add(time.Hour)}}
	later   = schedule.JobSpec{Name: "Tomorrow", Message: "later", Schedule: schedule.Schedule{Kind: schedule.KindAt, At: bgT0.Add(30 * time.Hour)}}
	restart = bgT0.Add(3 * time.Hour)
)

func TestMissedRunsCaughtUpAreNoticesTheWindowFetchesAfterStart(t *testing.T) {
	setXDG(t)
	_, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Replies: []fakeollama.Reply{{Content: "Here is your brief."}}})
	jobs := addWhileOpen(t, url, hourly, later)

	h := openHearth(t, url, restart)
	if got := h.svc.Reminders.Notices(); len(got) != 0 {
		t.Fatalf("notices before any start: %+v", got)
	}
	h.start(t)
	// The desktop notification is raised as before.
	if ev := h.ev.wait(t, event.BackgroundNotice); !strings.Contains(ev.Text, "Morning brief") {
		t.Errorf("desktop notice %+v", ev)
	}
	// The window, loading after the start, still gets it: which job, due when,
	// caught up when and how it went.
	waitFor(t, func() bool {
		n := missedFor(h.svc.Reminders.Notices(), jobs[0].ID)
		return len(n) == 1 && n[0].Outcome == reminders.MissedDone
	}, "the catch-up run finished")
	got := h.svc.Reminders.Notices()
	if len(got) != 1 {
		t.Fatalf("notices %+v: want one, for the missed job only", got)
	}
	n := got[0]
	if n.ID == "" || n.Title != "Morning brief" || n.SessionID != "cron:"+jobs[0].ID || !n.Due.Equal(bgT0.Add(time.Hour)) ||
		!n.RanAt.Equal(restart) || !n.At.Equal(restart) || n.Error != "" {
		t.Errorf("notice %+v: want Morning brief, due 10:00, caught up at 12:00 in its chat", n)
	}
	sess, err := h.svc.Sessions.Load(n.SessionID)
	if err != nil || len(sess.Messages()) != 2 || sess.Messages()[1].Content != "Here is your brief." {
		t.Errorf("the caught-up run's chat: %v %+v", err, sess)
	}

	// It survives a quit before anyone looked; dismissing removes it for good.
	h.quit()
	again := openHearth(t, url, restart.Add(time.Minute))
	if got := again.svc.Reminders.Notices(); len(got) != 1 || got[0].ID != n.ID || got[0].Outcome != reminders.MissedDone {
		t.Fatalf("after a restart: %+v", got)
	}
	if err := again.svc.Reminders.DismissNotice(n.ID); err != nil {
		t.Fatal(err)
	}
	if err := again.svc.Reminders.DismissNotice(n.ID); err != nil {
		t.Errorf("dismissing twice: %v", err)
	}
	if err := again.svc.Reminders.DismissNotice(""); err == nil || !strings.Contains(err.Error(), "hint") {
		t.Errorf("empty id: %v", err)
	}
	if got := again.svc.Reminders.Notices(); len(got) != 0 {
		t.Errorf("after dismiss: %+v", got)
	}
	again.quit()
	if got := openHearth(t, url, restart.Add(2*time.Minute)).svc.Reminders.Notices(); len(got) != 0 {
		t.Errorf("dismissed notice back after a restart: %+v", got)
	}
}

func TestMissedRunsSkippedAreNoticesAndNothingRuns(t *testing.T) {
	setXDG(t)
	writeConfig(t, `{"schedule":{"missedRuns":"skip"},"heartbeat":{"enabled":false}}`)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}})
	jobs := addWhileOpen(t, url, hourly, onceAt, later)

	h := openHearth(t, url, restart)
	h.start(t)
	got := h.svc.Reminders.Notices()
	if len(got) != 2 {
		t.Fatalf("notices %+v: want the two missed jobs", got)
	}
	for _, j := range jobs[:2] {
		n := missedFor(got, j.ID)
		if len(n) != 1 || n[0].Outcome != reminders.MissedSkipped || !n[0].Due.Equal(bgT0.Add(time.Hour)) || n[0].Title != j.Name ||
			!n[0].RanAt.IsZero() {
			t.Errorf("notice for %s: %+v, want skipped, due 10:00", j.Name, n)
		}
	}
	if len(fake.ChatRequests()) != 0 {
		t.Error("a skipped job ran")
	}
	// Dismissing one leaves the other, on disk too.
	if err := h.svc.Reminders.DismissNotice(got[0].ID); err != nil {
		t.Fatal(err)
	}
	var stored []reminders.Notice
	data, err := os.ReadFile(filepath.Join(h.svc.Settings.Paths().StateDir, reminders.NoticesFile))
	if err == nil {
		err = json.Unmarshal(data, &stored)
	}
	if err != nil || len(stored) != 1 || stored[0].ID != got[1].ID {
		t.Errorf("notices.json after dismiss: %v %+v", err, stored)
	}
}

func TestCatchUpCutByQuitIsToldOnceAndCaughtUpNextStart(t *testing.T) {
	setXDG(t)
	writeConfig(t, `{"heartbeat":{"enabled":false}}`)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Replies: []fakeollama.Reply{{Content: "starting…", Hang: true}, {Content: "Brief, at last."}}})
	jobs := addWhileOpen(t, url, hourly)

	h := openHearth(t, url, restart)
	h.start(t)
	waitFor(t, func() bool { return len(fake.ChatRequests()) == 1 }, "the catch-up run reached the model")
	if n := missedFor(h.svc.Reminders.Notices(), jobs[0].ID); len(n) != 1 || n[0].Outcome != reminders.MissedRunning {
		t.Fatalf("while it runs: %+v", n)
	}
	h.quit() // the run is cut: jobs.json keeps it due

	next := openHearth(t, url, restart.Add(time.Hour))
	if n := next.svc.Reminders.Notices(); len(n) != 1 || n[0].Outcome != reminders.MissedRunning {
		t.Fatalf("kept across the quit: %+v", n)
	}
	next.start(t)
	waitFor(t, func() bool {
		n := missedFor(next.svc.Reminders.Notices(), jobs[0].ID)
		return len(n) == 1 && n[0].Outcome == reminders.MissedDone
	}, "caught up on the next start")
	n := next.svc.Reminders.Notices()
	if len(n) != 1 || !n[0].RanAt.Equal(restart.Add(time.Hour)) || !n[0].Due.Equal(bgT0.Add(time.Hour)) {
		t.Errorf("one notice for the job, caught up at 13:00: %+v", n)
	}
}

func TestFailedCatchUpSaysWhy(t *testing.T) {
	setXDG(t)
	writeConfig(t, `{"heartbeat":{"enabled":false}}`)
	_, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Replies: []fakeollama.Reply{{Status: 500, Error: "out of memory"}}})
	jobs := addWhileOpen(t, url, hourly)
	h := openHearth(t, url, restart)
	h.start(t)
	waitFor(t, func() bool {
		n := missedFor(h.svc.Reminders.Notices(), jobs[0].ID)
		return len(n) == 1 && n[0].Outcome == reminders.MissedFailed
	}, "the failed catch-up is told")
	if n := h.svc.Reminders.Notices()[0]; !strings.Contains(n.Error, "out of memory") || !n.RanAt.Equal(restart) {
		t.Errorf("failed notice %+v", n)
	}
}

func TestDamagedJobsFileIsANoticeUntilFixed(t *testing.T) {
	setXDG(t)
	writeConfig(t, `{"heartbeat":{"enabled":false}}`)
	_, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}})
	h := openHearth(t, url, bgT0)
	jobsFile := filepath.Join(h.svc.Settings.Paths().CronDir, schedule.FileName)
	os.MkdirAll(filepath.Dir(jobsFile), 0o700)
	os.WriteFile(jobsFile, []byte(`{"jobs": [ {"id": "a"`), 0o600)
	h.start(t)
	got := h.svc.Reminders.Notices()
	if len(got) != 1 || got[0].Kind != reminders.NoticeJobsFile || !strings.Contains(got[0].Text, "damaged") || !strings.Contains(got[0].Text, "hint") {
		t.Fatalf("notices %+v: want the damaged file with its hint", got)
	}
	if _, err := os.Stat(filepath.Join(h.svc.Settings.Paths().StateDir, reminders.NoticesFile)); err == nil {
		data, _ := os.ReadFile(filepath.Join(h.svc.Settings.Paths().StateDir, reminders.NoticesFile))
		if strings.Contains(string(data), "damaged") {
			t.Errorf("a jobs-file notice was stored (a fix while closed would leave it stale): %s", data)
		}
	}
	// Fixed by hand while Hearth runs: the scheduler sees the file change and the
	// notice goes by itself.
	os.WriteFile(jobsFile, []byte(`{"version":1,"jobs":[]}`), 0o600)
	waitFor(t, func() bool { return len(h.svc.Reminders.Notices()) == 0 }, "the stale notice dropped")
}

func TestDamagedNoticesFileIsMovedAside(t *testing.T) {
	setXDG(t)
	h := openHearth(t, "127.0.0.1:9", bgT0)
	p := filepath.Join(h.svc.Settings.Paths().StateDir, reminders.NoticesFile)
	os.MkdirAll(filepath.Dir(p), 0o700)
	os.WriteFile(p, []byte("[{"), 0o600)
	if got := h.svc.Reminders.Notices(); len(got) != 0 {
		t.Errorf("notices from a damaged file: %+v", got)
	}
	if data, err := os.ReadFile(p + ".damaged"); err != nil || string(data) != "[{" {
		t.Errorf("damaged file not kept aside: %v %q", err, data)
	}
}

func TestCatchUpOfADeletedReminderSaysItWillNotRun(t *testing.T) {
	setXDG(t)
	writeConfig(t, `{"heartbeat":{"enabled":false},"schedule":{"paused":true}}`)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}})
	jobs := addWhileOpen(t, url, hourly)
	h := openHearth(t, url, restart)
	h.start(t)
	// Reminders are paused: the catch-up waits for Resume.
	if n := h.svc.Reminders.Notices(); len(n) != 1 || n[0].Outcome != reminders.MissedRunning {
		t.Fatalf("while paused: %+v", n)
	}
	if err := h.svc.Reminders.RemoveJob(jobs[0].ID); err != nil {
		t.Fatal(err)
	}
	if n := h.svc.Reminders.Notices(); len(n) != 1 || n[0].Outcome != reminders.MissedRemoved || n[0].Title != "Morning brief" {
		t.Errorf("after deleting it: %+v", n)
	}
	if len(fake.ChatRequests()) != 0 {
		t.Error("a paused reminder ran")
	}
}
