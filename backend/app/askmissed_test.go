package app

import (
	"testing"
	"time"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/reminders"
	"hearth/backend/schedule"
)

// schedule.missedRuns "ask" is every reminder's default: nothing runs at start, each
// missed one asks (a notification with Run / Skip and a notice). Skip leaves a skipped
// entry in the reminder's history — a one-shot moves to the Done list — and Run once runs
// it.
func TestMissedRunsAskByDefaultAndSkipIsInTheHistory(t *testing.T) {
	setXDG(t)
	writeConfig(t, `{"schedule":{"missedRuns":"ask"},"heartbeat":{"enabled":false}}`)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()},
		Default: &fakeollama.Reply{Content: "Here is your brief."}})
	jobs := addWhileOpen(t, url, hourly, onceAt)

	h := openHearth(t, url, restart)
	h.start(t)
	asked := map[string]event.Background{}
	for len(asked) < 2 {
		ev := h.ev.wait(t, event.BackgroundNotice)
		if ev.Ask == event.AskMissed {
			asked[ev.JobID] = ev
		}
	}
	if len(fake.ChatRequests()) != 0 {
		t.Fatal("a reminder that asks ran before the answer")
	}
	notices := h.svc.Reminders.Notices()
	brief, call := missedFor(notices, jobs[0].ID), missedFor(notices, jobs[1].ID)
	if len(brief) != 1 || len(call) != 1 || brief[0].Outcome != reminders.MissedAsking || call[0].Outcome != reminders.MissedAsking ||
		asked[jobs[1].ID].NoticeID != call[0].ID {
		t.Fatalf("notices %+v", notices)
	}

	// Skip the one-shot (from its notification: the notice id it carries).
	h.clock.Advance(2 * time.Minute)
	if err := h.svc.Reminders.AnswerMissed(asked[jobs[1].ID].NoticeID, false); err != nil {
		t.Fatal(err)
	}
	list, _ := h.svc.Reminders.ListJobs()
	var once, rep schedule.Job
	for _, j := range list {
		switch j.ID {
		case jobs[1].ID:
			once = j
		case jobs[0].ID:
			rep = j
		}
	}
	if !once.Done || once.LastStatus != schedule.StatusSkipped || len(once.History) != 1 ||
		!once.History[0].At.Equal(restart.Add(2*time.Minute)) || once.History[0].Status != schedule.StatusSkipped ||
		!once.History[0].Due.Equal(onceAt.Schedule.At) || once.LastError != "" {
		t.Errorf("skipped one-shot %+v", once)
	}
	if err := h.svc.Reminders.AnswerMissed(call[0].ID, true); err == nil {
		t.Error("a notice answered twice was taken")
	}

	// Run the repeating one once: it runs, and its history says so.
	if err := h.svc.Reminders.AnswerMissed(brief[0].ID, true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		n := missedFor(h.svc.Reminders.Notices(), jobs[0].ID)
		list, _ = h.svc.Reminders.ListJobs()
		for _, j := range list {
			if j.ID == rep.ID {
				rep = j
			}
		}
		return len(n) == 1 && n[0].Outcome == reminders.MissedDone && len(rep.History) > 0
	}, "the repeating reminder run once")
	if rep.LastStatus != schedule.StatusOK || rep.Done || len(rep.History) != 1 || len(fake.ChatRequests()) != 1 {
		t.Errorf("run once %+v", rep)
	}
}
