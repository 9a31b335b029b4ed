package schedule

import "time"

// Notice kinds: what the scheduler tells the user.
const (
	// NoticeMissed: jobs whose time passed while no scheduler ran were
	// caught up or skipped at start (Notice.Missed names them).
	NoticeMissed = "missed"
	// NoticeJobsFile: jobs.json is damaged, or some of its entries are.
	NoticeJobsFile = "jobsFile"
	// NoticeJobsFileOK: the problem told by the last NoticeJobsFile is gone
	// (no Text: nothing to show, earlier notices about the file are stale).
	NoticeJobsFileOK = "jobsFileOK"
)

// Notice is something the scheduler tells the user. Text is a sentence in
// plain English for a desktop notification or a log.
type Notice struct {
	Kind   string
	Text   string
	Missed []MissedRun
}

// MissedRun is one job whose time passed while Hearth was not running.
type MissedRun struct {
	JobID     string
	Title     string
	SessionID string
	// Due is when it should have run (its first missed time).
	Due time.Time
	// Skipped is true under the skip policy; Ask under the ask policy (nothing ran:
	// the person is asked whether to run it once); else the job runs once now.
	Skipped bool
	Ask     bool
}
