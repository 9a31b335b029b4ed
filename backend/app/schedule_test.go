package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/agent"
	"hearth/backend/applock"
	"hearth/backend/autostart"
	"hearth/backend/config"
	"hearth/backend/event"
	"hearth/backend/internal/fakeclock"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
	"hearth/backend/schedule"
	"hearth/backend/session"
)

var bgT0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

type bgEvents struct {
	mu  sync.Mutex
	evs []event.Background
	ch  chan event.Background
	// patience bounds wait; zero means 10 s (a real model on a busy CI
	// machine needs longer).
	patience time.Duration
}

func (b *bgEvents) sink(ev event.Background) {
	b.mu.Lock()
	b.evs = append(b.evs, ev)
	b.mu.Unlock()
	if ev.Kind != event.BackgroundJobs {
		b.ch <- ev
	}
}

func (b *bgEvents) wait(t *testing.T, kind string) event.Background {
	t.Helper()
	patience := b.patience
	if patience == 0 {
		patience = 10 * time.Second
	}
	timeout := time.After(patience)
	for {
		select {
		case ev := <-b.ch:
			if ev.Kind == kind {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %s event; got %+v", kind, b.all())
		}
	}
}

func (b *bgEvents) all() []event.Background {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]event.Background(nil), b.evs...)
}

// bgService is a Service over a fake Ollama with a fake clock and a
// background sink, holding hearth.lock as the desktop does.
func bgService(t *testing.T, cfgJSON string, replies ...fakeollama.Reply) (*App, *fakeollama.Server, *fakeclock.Clock, *bgEvents) {
	t.Helper()
	setXDG(t)
	fake, url := fakeollama.Start(t, fakeollama.Script{Models: []fakeollama.Model{fakeollama.DefaultModel()}, Replies: replies})
	if cfgJSON != "" {
		p := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "hearth", "config.json")
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte(cfgJSON), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	clock := fakeclock.New(bgT0)
	ev := &bgEvents{ch: make(chan event.Background, 100)}
	svc := started(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": url}), Retry: llm.RetryPolicy{MaxAttempts: 1},
		Clock: clock})
	if err := svc.Settings.ConfigError(); err != nil {
		t.Fatal(err)
	}
	onBackground(t, svc, ev.sink)
	clocks.Store(svc, clock)
	t.Cleanup(func() {
		svc.Reminders.Close(context.Background())
		_ = svc.Close(context.Background())
	})
	return svc, fake, clock, ev
}

// clocks are the fake clocks of the Apps bgService opened.
var clocks sync.Map

func startBackground(t *testing.T, svc *App) {
	t.Helper()
	lock, err := applock.Acquire(svc.Settings.Paths().LockFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Release() })
	if err := svc.Reminders.Start(context.Background(), lock); err != nil {
		t.Fatal(err)
	}
	// A fake clock moved before the loops sleep would be missed: wait for
	// the scheduler's (and the heartbeat's) first sleep.
	want := 1
	if svc.Settings.Config().Heartbeat.Enabled {
		want = 2
	}
	clock, _ := clocks.Load(svc)
	if !clock.(*fakeclock.Clock).WaitForWaiters(want) {
		t.Fatal("background loops never slept")
	}
}

func TestReminderRunsAsATurnInItsChat(t *testing.T) {
	svc, fake, clock, ev := bgService(t, "", fakeollama.Reply{Content: "Time to stretch!"})
	j, err := svc.Reminders.AddJob(schedule.JobSpec{Name: "stretch", Message: "remind me to stretch",
		Schedule: schedule.Schedule{Kind: schedule.KindAt, At: bgT0.Add(30 * time.Second)}})
	if err != nil {
		t.Fatal(err)
	}
	startBackground(t, svc)
	if len(fake.ChatRequests()) != 0 {
		t.Fatal("ran before it was due")
	}
	clock.Advance(30 * time.Second)
	got := ev.wait(t, event.BackgroundReminder)
	// The notification says what the person asked for; the answer is in the chat.
	if got.Title != "stretch" || got.Text != "remind me to stretch" || got.Code != "" || got.SessionID != "cron:"+j.ID || got.JobID != j.ID {
		t.Errorf("notification %+v", got)
	}
	// The model's answer follows, quieter.
	if ans := ev.wait(t, event.BackgroundReminderAnswer); ans.Title != "stretch" || ans.Text != "Time to stretch!" || ans.SessionID != "cron:"+j.ID {
		t.Errorf("answer notification %+v", ans)
	}
	sess, err := svc.Sessions.Load("cron:" + j.ID)
	if err != nil {
		t.Fatal(err)
	}
	msgs := sess.Messages()
	if len(msgs) != 2 || msgs[0].Content != "remind me to stretch" || msgs[1].Content != "Time to stretch!" {
		t.Errorf("chat %+v", msgs)
	}
	waitFor(t, func() bool { jobs, _ := svc.Reminders.ListJobs(); return len(jobs) == 1 && jobs[0].Done }, "one-shot done after success")
	// The turn knows it is a cron run (docs/design/prompt-size.md#runtime-context).
	req := fake.ChatRequests()[0].Messages
	if last := req[len(req)-1].Content; !strings.Contains(last, "Channel: cron") {
		t.Errorf("the turn does not say its channel is cron: %q", last)
	}
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestMessageToolNotifiesOnce(t *testing.T) {
	args, _ := json.Marshal(map[string]string{"content": "Tea is ready"})
	svc, _, _, ev := bgService(t, "",
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "message", Arguments: args}}},
		fakeollama.Reply{Content: "I told the user."})
	j, err := svc.Reminders.AddJob(schedule.JobSpec{Name: "tea", Message: "tell me the tea is ready",
		Schedule: schedule.Schedule{Kind: schedule.KindEvery, EverySeconds: 600}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Reminders.RunJobNow(context.Background(), j.ID); err != nil {
		t.Fatal(err)
	}
	// The reminder's notification, in the person's words, then the posted message as
	// its quieter follow-up; the model's final answer does not notify a third time.
	got := ev.wait(t, event.BackgroundReminder)
	if got.Title != "tea" || got.Text != "tell me the tea is ready" || got.SessionID != "cron:"+j.ID {
		t.Errorf("reminder event %+v", got)
	}
	if ans := ev.wait(t, event.BackgroundReminderAnswer); ans.Text != "Tea is ready" || ans.Title != "tea" {
		t.Errorf("posted message %+v", ans)
	}
	answers := 0
	for _, e := range ev.all() {
		if e.Kind == event.BackgroundMessage {
			t.Errorf("the posted message notified as a message too: %+v", e)
		}
		if e.Kind == event.BackgroundReminderAnswer {
			answers++
		}
	}
	if answers != 1 {
		t.Errorf("%d follow-ups, want the posted message alone: %+v", answers, ev.all())
	}
	jobs, _ := svc.Reminders.ListJobs()
	if len(jobs) != 1 || jobs[0].LastStatus != schedule.StatusOK || !jobs[0].NextRun.Equal(bgT0.Add(10*time.Minute)) {
		t.Errorf("after run now: %+v", jobs)
	}
}

func TestReminderRunsBesideAChat(t *testing.T) {
	svc, fake, clock, ev := bgService(t, "",
		fakeollama.Reply{Content: "a long answer", Hang: true},
		fakeollama.Reply{Content: "Reminder done."})
	chat, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "chat", Text: "hello"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return len(fake.ChatRequests()) == 1 }, "the chat's request reached the model")
	if _, err := svc.Reminders.AddJob(schedule.JobSpec{Message: "ping", Schedule: schedule.Schedule{Kind: schedule.KindAt, At: bgT0.Add(time.Minute)}}); err != nil {
		t.Fatal(err)
	}
	startBackground(t, svc)
	clock.Advance(time.Minute)
	got := ev.wait(t, event.BackgroundReminder)
	select {
	case <-chat.Done():
		t.Fatal("the chat finished before the reminder: no overlap tested")
	default:
	}
	if got.Text != "ping" || got.Title != "Reminder" {
		t.Errorf("reminder %+v", got)
	}
	if !svc.Chat.Stop("chat") {
		t.Error("the chat was not running any more")
	}
	if res := chat.Wait(); res.Status != event.StatusCancelled || res.Final != "a long answer" {
		t.Errorf("chat %+v", res)
	}
}

func TestReminderInABusyChatWaits(t *testing.T) {
	svc, _, clock, _ := bgService(t, "",
		fakeollama.Reply{Content: "slow answer, word after word after word", DelayMS: 60},
		fakeollama.Reply{Content: "Later."})
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "mine", Text: "hi"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	j, err := svc.Reminders.AddJob(schedule.JobSpec{Message: "in my chat", SessionID: "mine",
		Schedule: schedule.Schedule{Kind: schedule.KindAt, At: bgT0.Add(time.Minute)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Reminders.RunJobNow(context.Background(), j.ID); err == nil || !strings.Contains(err.Error(), "busy") {
		t.Errorf("run now in a busy chat: %v", err)
	}
	startBackground(t, svc)
	clock.Advance(time.Minute)
	waitFor(t, func() bool {
		jobs, _ := svc.Reminders.ListJobs()
		return len(jobs) == 1 && jobs[0].NextRun.Equal(bgT0.Add(2*time.Minute))
	}, "busy reminder retried a minute later")
	run.Wait()
}

func TestHeartbeatThroughCore(t *testing.T) {
	svc, fake, _, ev := bgService(t, `{"heartbeat": {"enabled": true, "intervalMinutes": 5}}`,
		fakeollama.Reply{Content: "All quiet. HEARTBEAT_OK"},
		fakeollama.Reply{Content: "Rain expected at 3 pm."})
	startBackground(t, svc)
	ran, err := svc.Reminders.HeartbeatNow(context.Background())
	if ran || err != nil || len(fake.ChatRequests()) != 0 {
		t.Fatalf("template HEARTBEAT.md: ran=%v err=%v requests=%d, want zero model calls", ran, err, len(fake.ChatRequests()))
	}
	hb := filepath.Join(svc.Settings.Paths().Workspace, "HEARTBEAT.md")
	if err := os.WriteFile(hb, []byte("## Active tasks\n- Warn me about rain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ran, err := svc.Reminders.HeartbeatNow(context.Background()); !ran || err != nil {
		t.Fatalf("with a task: ran=%v err=%v", ran, err)
	}
	for _, e := range ev.all() {
		if e.Kind == event.BackgroundHeartbeat {
			t.Fatalf("HEARTBEAT_OK notified: %+v", e)
		}
	}
	svc.Reminders.HeartbeatNow(context.Background())
	if got := ev.wait(t, event.BackgroundHeartbeat); got.Text != "Rain expected at 3 pm." || got.SessionID != schedule.HeartbeatSession {
		t.Errorf("heartbeat event %+v", got)
	}
	req := fake.ChatRequests()[1]
	if last := req.Messages[len(req.Messages)-1].Content; !strings.HasPrefix(last, schedule.HeartbeatPrompt) || !strings.Contains(last, "Channel: heartbeat") {
		t.Errorf("heartbeat prompt %q", last)
	}
}

// The heartbeat chat's file stays bounded: after a run it holds its last runs only.
func TestHeartbeatChatStaysShortOnDisk(t *testing.T) {
	svc, _, _, _ := bgService(t, `{"heartbeat": {"enabled": true, "intervalMinutes": 5}}`,
		fakeollama.Reply{Content: "HEARTBEAT_OK"})
	startBackground(t, svc)
	store := session.NewStore(svc.Settings.Paths().SessionsDir, session.Options{})
	if _, err := store.Ensure(session.CreateOptions{ID: schedule.HeartbeatSession}); err != nil {
		t.Fatal(err)
	}
	for i := range 2*schedule.HeartbeatKeepRuns + 20 {
		run := fmt.Sprintf("old%d", i)
		if err := store.Append(schedule.HeartbeatSession,
			session.MessageRecord(run, llm.Message{Role: llm.RoleUser, Content: "tick"}),
			session.MessageRecord(run, llm.Message{Role: llm.RoleAssistant, Content: "HEARTBEAT_OK"}),
			session.RunRecord(session.Run{ID: run, Status: session.StatusOK, Final: "HEARTBEAT_OK"})); err != nil {
			t.Fatal(err)
		}
	}
	hb := filepath.Join(svc.Settings.Paths().Workspace, "HEARTBEAT.md")
	if err := os.WriteFile(hb, []byte("## Active tasks\n- Warn me about rain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ran, err := svc.Reminders.HeartbeatNow(context.Background()); !ran || err != nil {
		t.Fatalf("heartbeat: ran=%v err=%v", ran, err)
	}
	sess, err := store.Load(schedule.HeartbeatSession)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sess.Runs); n != schedule.HeartbeatKeepRuns {
		t.Fatalf("heartbeat chat holds %d runs, want %d", n, schedule.HeartbeatKeepRuns)
	}
	if last := sess.Runs[len(sess.Runs)-1]; strings.HasPrefix(last.ID, "old") {
		t.Errorf("the new run was trimmed away: last run %s", last.ID)
	}
}

func TestCronToolAddsFromChat(t *testing.T) {
	args, _ := json.Marshal(map[string]any{"action": "add", "name": "call", "message": "call the dentist", "at": "in 10 minutes"})
	svc, fake, _, _ := bgService(t, "",
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "cron", Arguments: args}}},
		fakeollama.Reply{Content: "Done."})
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "c", Text: "remind me in 10 minutes to call the dentist"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	run.Wait()
	jobs, err := svc.Reminders.ListJobs()
	if err != nil || len(jobs) != 1 {
		t.Fatalf("jobs %v %v", jobs, err)
	}
	if !jobs[0].NextRun.Equal(bgT0.Add(10*time.Minute)) || jobs[0].Message != "call the dentist" {
		t.Errorf("job %+v", jobs[0])
	}
	msgs := fake.ChatRequests()[1].Messages
	result := msgs[len(msgs)-1].Content
	if !strings.Contains(result, "Added reminder "+jobs[0].ID) || !strings.Contains(result, "in 10 min") {
		t.Errorf("tool result does not echo the exact time: %q", result)
	}
}

func TestLaunchAtLoginSetting(t *testing.T) {
	svc, _, _, _ := bgService(t, "")
	entry := func() bool { _, err := os.Stat(autostart.Path()); return err == nil }
	if err := svc.Settings.SetLaunchAtLogin(true); err != nil {
		t.Fatal(err)
	}
	if !entry() {
		t.Fatal("no autostart entry")
	}
	data, _ := os.ReadFile(svc.Settings.Paths().ConfigFile)
	if !strings.Contains(string(data), `"launchAtLogin": true`) {
		t.Errorf("config not saved:\n%s", data)
	}
	if err := svc.Settings.SetLaunchAtLogin(false); err != nil || entry() {
		t.Errorf("disable: %v, entry still there: %v", err, entry())
	}
	if err := svc.Settings.SetCloseToTray(false); err != nil || svc.Settings.Config().UI.CloseToTray {
		t.Errorf("close to tray: %v", err)
	}
}

// Started by the `hearth` launcher, the desktop image writes an autostart entry that
// runs the launcher: the unpacked image is replaced by every new version.
func TestLaunchAtLoginNamesTheLauncher(t *testing.T) {
	setXDG(t)
	launcher := filepath.Join(t.TempDir(), "bin dir", "hearth")
	os.MkdirAll(filepath.Dir(launcher), 0o755)
	if err := os.WriteFile(launcher, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	svc := open(t, Options{Getenv: env(map[string]string{"OLLAMA_HOST": "127.0.0.1:9", "HEARTH_LAUNCHER": launcher})})
	if err := svc.Settings.SetLaunchAtLogin(true); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(autostart.Path())
	if err != nil {
		t.Fatal(err)
	}
	if want := "Exec=\"" + launcher + "\" --hidden\n"; !strings.Contains(string(data), want) {
		t.Errorf("entry does not run the launcher (%q):\n%s", want, data)
	}
}

// gateRecorder is a Gate that records what it is asked and allows all.

// A failed run still reminds: the notification carries the message and why.
func TestFailedReminderStillNotifies(t *testing.T) {
	svc, _, _, ev := bgService(t, "", fakeollama.Reply{Status: 500, Error: "model crashed"})
	j, err := svc.Reminders.AddJob(schedule.JobSpec{Name: "pills", Message: "Take your pills",
		Schedule: schedule.Schedule{Kind: schedule.KindAt, At: bgT0.Add(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Reminders.RunJobNow(context.Background(), j.ID); err == nil {
		t.Fatal("run now of a failing reminder reported no error")
	}
	// The reminder is told first, in the person's words; the failure follows.
	got := ev.wait(t, event.BackgroundReminder)
	if got.Title != "pills" || got.Text != "Take your pills" {
		t.Errorf("reminder notification %+v", got)
	}
	if got := ev.wait(t, event.BackgroundReminderAnswer); got.Title != "pills" || got.Code != "notify.reminder.answerFailed" || !strings.Contains(got.Text, "model crashed") {
		t.Errorf("failure notification %+v", got)
	}
	jobs, _ := svc.Reminders.ListJobs()
	if len(jobs) != 1 || jobs[0].LastStatus != schedule.StatusError || jobs[0].LastError == "" || !jobs[0].NextRun.Equal(bgT0.Add(time.Hour)) {
		t.Errorf("failed one-shot: %+v", jobs)
	}
}

// The notification is the promise: a reminder due while the model is slow (here it
// never finishes) notifies at its time, before the answer; the answer is not awaited.
func TestReminderNotifiesBeforeTheModelAnswers(t *testing.T) {
	svc, fake, clock, ev := bgService(t, "", fakeollama.Reply{Content: "a long considered answer", Hang: true})
	j, err := svc.Reminders.AddJob(schedule.JobSpec{Name: "call", Message: "call Anna",
		Schedule: schedule.Schedule{Kind: schedule.KindAt, At: bgT0.Add(time.Minute)}})
	if err != nil {
		t.Fatal(err)
	}
	startBackground(t, svc)
	clock.Advance(time.Minute)
	got := ev.wait(t, event.BackgroundReminder)
	if got.Text != "call Anna" || got.Code != "" || got.SessionID != "cron:"+j.ID {
		t.Errorf("notification %+v", got)
	}
	// The clock has not moved since the due time, and the model is still answering.
	if now := clock.Now(); !now.Equal(bgT0.Add(time.Minute)) {
		t.Errorf("notified at %v, due %v", now, bgT0.Add(time.Minute))
	}
	if _, running := svc.Reminders.RunningJob("cron:" + j.ID); !running {
		t.Error("the run was over before the notification: nothing shows it did not wait")
	}
	waitFor(t, func() bool { return len(fake.ChatRequests()) == 1 }, "the reminder's request reached the model")
	if !svc.Chat.Stop("cron:" + j.ID) {
		t.Fatal("the reminder's run was not running")
	}
	waitFor(t, func() bool { _, running := svc.Reminders.RunningJob("cron:" + j.ID); return !running }, "the stopped run ended")
	for _, e := range ev.all() {
		if e.Kind == event.BackgroundReminderAnswer {
			t.Errorf("a stopped run notified its answer: %+v", e)
		}
	}
}

// A run that starts late (caught up after Hearth was closed) says when it was due.
func TestLateReminderSaysWhenItWasDue(t *testing.T) {
	svc, _, clock, ev := bgService(t, "", fakeollama.Reply{Content: "Done."})
	if _, err := svc.Reminders.AddJob(schedule.JobSpec{Message: "water the plants",
		Schedule: schedule.Schedule{Kind: schedule.KindAt, At: bgT0.Add(time.Minute)}}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Hour) // Hearth was closed at the due time
	startBackground(t, svc)
	got := ev.wait(t, event.BackgroundReminder)
	due := bgT0.Add(time.Minute).Local().Format("Mon 15:04")
	if got.Code != "notify.reminder.late" || got.Args["due"] != due || !strings.HasPrefix(got.Text, "water the plants") ||
		!strings.Contains(got.Text, "due "+due) {
		t.Errorf("late notification %+v", got)
	}
}

func TestSetHeartbeatRestartsIt(t *testing.T) {
	svc, fake, clock, _ := bgService(t, `{"heartbeat": {"enabled": false}}`, fakeollama.Reply{Content: "HEARTBEAT_OK"})
	startBackground(t, svc)
	if _, err := svc.Reminders.HeartbeatNow(context.Background()); err == nil {
		t.Fatal("heartbeat runs although disabled")
	}
	os.WriteFile(filepath.Join(svc.Settings.Paths().Workspace, "HEARTBEAT.md"), []byte("- check the mail\n"), 0o644)
	if err := svc.Reminders.SetHeartbeat(true, 5); err != nil {
		t.Fatal(err)
	}
	for range 5 { // both loops asleep (the heartbeat's started by SetHeartbeat), then a minute on
		if !clock.WaitForWaiters(2) {
			t.Fatal("heartbeat loop not started")
		}
		clock.Advance(time.Minute)
	}
	waitFor(t, func() bool { return len(fake.ChatRequests()) == 1 }, "one heartbeat run after 5 minutes")
	if svc.Settings.Config().Heartbeat != (config.Heartbeat{Enabled: true, IntervalMinutes: 5}) {
		t.Errorf("config %+v", svc.Settings.Config().Heartbeat)
	}
	if err := svc.Reminders.SetHeartbeat(true, 0); err == nil {
		t.Error("interval 0 accepted")
	}
	if err := svc.Reminders.SetMissedRuns("never"); err == nil {
		t.Error("bad missed-run policy accepted")
	}
	if err := svc.Reminders.SetMissedRuns("skip"); err != nil || svc.Settings.Config().Schedule.MissedRuns != "skip" {
		t.Errorf("set missed runs: %v", err)
	}
}
