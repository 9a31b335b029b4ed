package app

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"hearth/backend/activity"
	"hearth/backend/audit"
	"hearth/backend/event"
	"hearth/backend/schedule"
)

// observeActivity keeps the Activity board from the runs' own events: a run_started
// puts its chat on the board as a chat, a reminder or the heartbeat, its run_finished
// takes it off; the pending events count the messages waiting for it. Helpers' runs (in sessions of their own) are left out: they stop with
// the chat that spawned them.
func (a *App) observeActivity(ev event.Event) {
	switch ev.Type {
	case event.RunStarted:
		if w, ok := a.workOf(ev.SessionID); ok {
			w.Run, w.Started = ev.RunID, time.Now()
			a.Activity.Begin(w)
		}
	case event.RunFinished:
		a.Activity.End(ev.RunID)
	case event.Pending:
		// A held message (its run stopped or failed) no longer waits for the run.
		if d, ok := ev.Data.(event.PendingData); ok {
			a.Activity.Wait(ev.RunID, d.ID, !d.Held)
		}
	case event.PendingTaken:
		if d, ok := ev.Data.(event.TakenData); ok {
			a.Activity.Wait(ev.RunID, d.ID, false)
		}
	case event.PendingDropped:
		if d, ok := ev.Data.(event.DroppedData); ok {
			a.Activity.Wait(ev.RunID, d.ID, false)
		}
	}
}

// workOf says what a run in sessionID is.
func (a *App) workOf(sessionID string) (activity.Work, bool) {
	if sessionID == schedule.HeartbeatSession {
		return activity.Work{Kind: activity.Heartbeat, ID: sessionID}, true
	}
	if j, ok := a.Reminders.RunningJob(sessionID); ok {
		return activity.Work{Kind: activity.Reminder, ID: sessionID, Title: j.Title()}, true
	}
	m, err := a.Sessions.Store().Meta(sessionID)
	if err != nil {
		return activity.Work{}, false // not one of the chats: a helper's
	}
	return activity.Work{Kind: activity.Chat, ID: sessionID, Title: m.Title}, true
}

// StopWork stops one thing the Activity board lists (the tray's Stop): a chat's,
// reminder's or the heartbeat's turn ends as cancelled, a Dream pass before it writes.
// It reports whether anything was running.
func (a *App) StopWork(w activity.Work) bool {
	if w.Kind == activity.Dream {
		return a.Dream.Stop()
	}
	return a.Chat.Stop(w.ID)
}

// compactIdle is the chat's idle compaction, by the current workspace's consolidator.
func (a *App) compactIdle(ctx context.Context, sessionID string) (int, error) {
	return a.Memory.Consolidations().Idle(ctx, sessionID)
}

// compacted records an idle compaction of a chat in the Activity log (tool
// "consolidation", in the chat it saved): the person sees what Hearth did in the
// background without a notice in the chat. A failure is told in the chat too, at its
// next turn (memory's TakeFailure).
func (a *App) compacted(sessionID string, started time.Time, saved int, err error) {
	args, _ := json.Marshal(map[string]any{"idle": true, "messages": saved})
	e := audit.Entry{Time: started, SessionID: sessionID, RunID: "idle-" + started.UTC().Format("20060102T150405"),
		Tool: "consolidation", Args: args, Approval: "auto", OK: err == nil, DurationMs: time.Since(started).Milliseconds()}
	if err != nil {
		e.Error = err.Error()
	}
	if werr := a.Guard.Audit.Write(e); werr != nil {
		slog.Warn("idle compaction not written to the activity log", "err", werr)
	}
	a.BackgroundNews.Publish(event.Background{Kind: event.BackgroundJobs})
}

// idleAfter is the chat's idle time: the injected one, else nil (the setting's).
func (o Options) idleAfter() func() time.Duration {
	if o.IdleAfter <= 0 {
		return nil
	}
	return func() time.Duration { return o.IdleAfter }
}
