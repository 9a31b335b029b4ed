//go:build !headless

package main

import (
	"hearth/backend/reminders"
	"hearth/backend/schedule"
)

// The Reminders view's and the background settings' bindings, each a
// forward to the schedule service. Changes arrive back as "background" events of
// kind "jobs" (background.go); "notice" and "jobs" events refresh the notices.

// ListJobs lists the reminders, soonest first.
func (a *RemindersAPI) ListJobs() ([]schedule.Job, error) { return a.h.Reminders.ListJobs() }

// JobProblems lists entries of jobs.json that could not be read.
func (a *RemindersAPI) JobProblems() ([]schedule.JobProblem, error) {
	return a.h.Reminders.JobProblems()
}

// AddJob stores a new reminder; a wrong spec is an error with a hint.
func (a *RemindersAPI) AddJob(spec schedule.JobSpec) (schedule.Job, error) {
	return a.h.Reminders.AddJob(spec)
}

// EditJob changes a reminder; a wrong spec is an error with a hint.
func (a *RemindersAPI) EditJob(id string, spec schedule.JobSpec) (schedule.Job, error) {
	return a.h.Reminders.EditJob(id, spec)
}

// RemoveJob deletes a reminder.
func (a *RemindersAPI) RemoveJob(id string) error { return a.h.Reminders.RemoveJob(id) }

// RunJobNow runs a reminder at once and returns when its turn has finished.
func (a *RemindersAPI) RunJobNow(id string) error { return a.h.Reminders.RunJobNow(a.ctx, id) }

// PauseJob pauses or resumes one reminder.
func (a *RemindersAPI) PauseJob(id string, paused bool) error {
	return a.h.Reminders.PauseJob(id, paused)
}

// SetRemindersPaused pauses or resumes every reminder and the heartbeat.
func (a *RemindersAPI) SetRemindersPaused(paused bool) { a.h.Reminders.SetPaused(paused) }

// GetBackgroundSettings returns the heartbeat, missed-run, tray and login settings.
func (a *RemindersAPI) GetBackgroundSettings() reminders.BackgroundSettings {
	return a.h.Reminders.BackgroundSettings()
}

// SetHeartbeat turns the heartbeat on or off and sets its interval.
func (a *RemindersAPI) SetHeartbeat(enabled bool, intervalMinutes int) error {
	return a.h.Reminders.SetHeartbeat(enabled, intervalMinutes)
}

// SetMissedRuns sets the missed-run policy: "catchup" or "skip".
func (a *RemindersAPI) SetMissedRuns(policy string) error { return a.h.Reminders.SetMissedRuns(policy) }

// SetCloseToTray sets whether closing the window hides it to the tray.
func (a *RemindersAPI) SetCloseToTray(on bool) error { return a.h.Settings.SetCloseToTray(on) }

// SetLaunchAtLogin sets whether Hearth starts (in the tray) at login.
func (a *RemindersAPI) SetLaunchAtLogin(on bool) error { return a.h.Settings.SetLaunchAtLogin(on) }

// BackgroundNotices lists what the window shows until dismissed: reminders
// missed while Hearth was closed (caught up or skipped) and a damaged jobs file.
func (a *RemindersAPI) BackgroundNotices() []reminders.Notice { return a.h.Reminders.Notices() }

// DismissNotice removes one of them.
func (a *RemindersAPI) DismissNotice(id string) error { return a.h.Reminders.DismissNotice(id) }

// AnswerMissed answers a reminder that asks about a run missed while Hearth was
// closed: run it once now, or skip it.
func (a *RemindersAPI) AnswerMissed(noticeID string, run bool) error {
	return a.h.Reminders.AnswerMissed(noticeID, run)
}
