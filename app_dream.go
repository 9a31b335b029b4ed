//go:build !headless

package main

import "hearth/backend/dream"

// Dream, the memory upkeep job, as a system row in the Reminders view: it can be
// paused or run now, never deleted. A finished pass sends a "background" event of
// kind "jobs".

// DreamStatus is the job's state: paused, running, next run, the last pass's report.
func (a *MemoryAPI) DreamStatus() dream.Status { return a.h.Dream.Status() }

// PauseDream pauses or resumes the job (kept across restarts).
func (a *MemoryAPI) PauseDream(paused bool) error { return a.h.Dream.SetPaused(paused) }

// RunDreamNow runs a pass at once and returns its report when it ends.
func (a *MemoryAPI) RunDreamNow() (dream.Report, error) { return a.h.Dream.RunNow(a.context()) }
