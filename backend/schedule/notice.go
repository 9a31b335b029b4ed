package schedule

import (
	"time"

	"hearth/backend/i18n"
)

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

// Notice is something the scheduler tells the user. Message is it as a catalog code
// with arguments (backend/i18n, codes schedule.*), which the window, the tray and the
// notifications word in the UI language; Text is its English, for the CLI and the log.
// A Notice without Text has nothing to show (it only updates what the window lists).
type Notice struct {
	Kind    string
	Text    string
	Message i18n.Message
	Missed  []MissedRun
}

// told sets m as the notice's message and its English as Text.
func (n Notice) told(m i18n.Message) Notice {
	n.Message, n.Text = m, m.String()
	return n
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
