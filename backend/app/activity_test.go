package app

import (
	"context"
	"slices"
	"testing"
	"time"

	"hearth/backend/activity"
	"hearth/backend/agent"
	"hearth/backend/chat"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/schedule"
	"hearth/backend/session"
)

// The tray's "what runs now": a chat's reply and a reminder's turn are on the Activity
// board while they run (each change told as news), and Stop ends each — a stopped
// reminder sends no notification and its one-shot is done, marked stopped.
func TestActivityListsRunsAndStopsThem(t *testing.T) {
	svc, fake, _, ev := bgService(t, "", fakeollama.Reply{Content: "Monday: ", Hang: true},
		fakeollama.Reply{Content: "The kettle ", Hang: true})
	news := make(chan struct{}, 100)
	ch := svc.BackgroundNews.Subscribe(t.Context())
	go func() {
		for e := range ch {
			if e.Kind == event.BackgroundActivity {
				news <- struct{}{}
			}
		}
	}()
	on := func(kind, id string) func() bool {
		return func() bool {
			return slices.ContainsFunc(svc.Activity.List(), func(w activity.Work) bool { return w.Kind == kind && w.ID == id })
		}
	}

	run, err := svc.Chat.Start(context.Background(), agent.Request{Text: "Plan the week"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, on(activity.Chat, run.SessionID), "the chat's reply on the board")
	waitFor(t, func() bool { return len(fake.ChatRequests()) == 1 }, "the chat's request")
	j, err := svc.Reminders.AddJob(schedule.JobSpec{Name: "Tea", Message: "tell me the tea is ready",
		Schedule: schedule.Schedule{Kind: schedule.KindAt, At: bgT0.Add(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- svc.Reminders.RunJobNow(context.Background(), j.ID) }()
	waitFor(t, on(activity.Reminder, "cron:"+j.ID), "the reminder's turn on the board")

	// The running one-shot is not "next" in the tray: it is listed as running.
	if j, ok := svc.Reminders.Next(); ok {
		t.Errorf("next reminder while the only one runs: %+v", j)
	}
	list := svc.Activity.List()
	if len(list) != 2 || list[0].Title != session.AutoTitle("Plan the week") || list[1].Title != "Tea" || list[0].Started.IsZero() {
		t.Fatalf("board %+v", list)
	}
	if svc.StopWork(activity.Work{Kind: activity.Dream, ID: activity.DreamID}) {
		t.Error("Stop found a Dream pass that never ran")
	}

	if !svc.StopWork(list[1]) {
		t.Fatal("Stop did not find the reminder's turn")
	}
	if err := <-ran; err != nil {
		t.Errorf("stopped reminder: %v", err)
	}
	jobs, _ := svc.Reminders.ListJobs()
	if len(jobs) != 1 || !jobs[0].Done || jobs[0].LastStatus != schedule.StatusStopped {
		t.Errorf("stopped one-shot %+v", jobs)
	}
	// The reminder notified as it started (the promise); stopped, it adds no follow-up.
	for _, e := range ev.all() {
		if e.Kind == event.BackgroundReminderAnswer {
			t.Errorf("a stopped reminder notified its answer: %+v", e)
		}
	}

	if !svc.StopWork(list[0]) {
		t.Fatal("Stop did not find the chat's reply")
	}
	if res := run.Wait(); res.Status != event.StatusCancelled {
		t.Errorf("stopped chat ended %s", res.Status)
	}
	waitFor(t, func() bool { return len(svc.Activity.List()) == 0 }, "an empty board")
	// Each start and end was news (it reaches the subscriber on its own goroutine).
	waitFor(t, func() bool { return len(news) >= 4 }, "activity news for two runs started and ended")
}

// A run is named for what it is: the heartbeat's chat, a reminder's while its turn runs,
// a chat; a helper's session (not one of the chats) is left out.
func TestWorkOfASession(t *testing.T) {
	svc := started(t, Options{})
	if w, ok := svc.workOf(schedule.HeartbeatSession); !ok || w.Kind != activity.Heartbeat {
		t.Errorf("heartbeat: %+v %v", w, ok)
	}
	if _, ok := svc.workOf("sub-no-such-chat"); ok {
		t.Error("a session that is not a chat is on the board")
	}
}

// A saved setting is news for the tray (its model line, its language): no polling needed.
func TestSavedSettingIsTrayNews(t *testing.T) {
	svc := started(t, Options{})
	news := svc.BackgroundNews.Subscribe(t.Context())
	if err := svc.Settings.Update(func(c *config.Config) error { c.UI.Language = "zh-CN"; return nil }); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case e := <-news:
			if e.Kind == event.BackgroundSettings {
				return
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no settings news after a save")
		}
	}
}

// The tray counts the messages sent to a chat while it runs: each that waits is on the
// chat's line until it is removed or taken, and a Stop clears the line with the run.
func TestActivityCountsWaitingMessages(t *testing.T) {
	svc, fake, _, _ := bgService(t, "", fakeollama.Reply{Content: "Monday: ", Hang: true})
	run, err := svc.Chat.Start(context.Background(), agent.Request{Text: "Plan the week"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	waiting := func(n int) func() bool {
		return func() bool {
			l := svc.Activity.List()
			return len(l) == 1 && l[0].ID == run.SessionID && l[0].Waiting == n
		}
	}
	waitFor(t, waiting(0), "the chat's reply on the board")
	// The steer message below must find the model answering: sent before the turn's
	// first request (a loaded machine gets there late), the turn takes it into that
	// request and it never waits (CI failed so once).
	waitFor(t, func() bool { return len(fake.ChatRequests()) == 1 }, "the model asked")
	send := func(text, mode string) string {
		t.Helper()
		sent, err := svc.Chat.Submit(chat.Input{SessionID: run.SessionID, Text: text, Mode: mode}, nil)
		if err != nil || sent.Pending == nil {
			t.Fatalf("submit %q: %+v %v", text, sent, err)
		}
		return sent.Pending.ID
	}
	first := send("and Tuesday", "queue")
	second := send("skip the weekend", "steer")
	waitFor(t, waiting(2), "two messages waiting")
	if _, err := svc.Chat.EditPending(run.SessionID, second, "skip Sunday", "queue"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Chat.RemovePending(run.SessionID, first); err != nil {
		t.Fatal(err)
	}
	waitFor(t, waiting(1), "one left after an edit and a removal")
	if !svc.StopWork(svc.Activity.List()[0]) {
		t.Fatal("Stop did not find the chat's reply")
	}
	run.Wait()
	waitFor(t, func() bool { return len(svc.Activity.List()) == 0 }, "an empty board")
	if held, err := svc.Chat.Pending(run.SessionID); err != nil || len(held) != 1 || !held[0].Held {
		t.Errorf("after the stop: %+v %v", held, err)
	}
}
