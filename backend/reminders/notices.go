package reminders

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"hearth/backend/event"
	"hearth/backend/i18n"
	"hearth/backend/internal/atomicfile"

	"hearth/backend/schedule"
)

// A Notice is something the reminders scheduler told the user that the
// window keeps showing until it is dismissed: a reminder missed while
// Hearth was closed (one notice per reminder), or a damaged jobs file. The
// desktop notification says the same once; the window fetches these after
// it loads (BackgroundNotices), so a notice raised before the window
// subscribed, or on a desktop without notifications, still reaches the user.
type Notice struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // NoticeMissed or NoticeJobsFile
	// At is when Hearth noticed (the start that found the missed run).
	At time.Time `json:"at"`
	// Text is the jobs file's problem, with its hint (NoticeJobsFile only), in English;
	// Code and Args name it for the window to word in its language.
	Text string            `json:"text,omitempty"`
	Code string            `json:"code,omitempty"`
	Args map[string]string `json:"args,omitempty"`

	// The missed reminder (NoticeMissed): which one, the chat it runs in,
	// when it was due, and what became of it.
	JobID     string    `json:"jobId,omitempty"`
	Title     string    `json:"title,omitempty"`
	SessionID string    `json:"sessionId,omitempty"`
	Due       time.Time `json:"due,omitzero"`
	// Outcome is MissedSkipped, or for a caught-up run MissedRunning until
	// it has finished, then MissedDone or MissedFailed (with Error), or
	// MissedInterrupted when Hearth quit before it finished, MissedRemoved
	// when the reminder was deleted before its catch-up ran.
	Outcome string    `json:"outcome,omitempty"`
	RanAt   time.Time `json:"ranAt,omitzero"` // when the catch-up run started
	Error   string    `json:"error,omitempty"`
}

// Notice kinds.
const (
	NoticeMissed   = "missed"
	NoticeJobsFile = "jobsFile"
)

// Outcomes of a missed run (Notice.Outcome).
const (
	MissedSkipped     = "skipped"
	MissedRunning     = "running"
	MissedDone        = "done"
	MissedFailed      = "failed"
	MissedInterrupted = "interrupted"
	MissedRemoved     = "removed"
	// MissedAsking: its reminder asks (missedRuns "ask"); Run once or Skip answers.
	MissedAsking = "asking"
)

// NoticesFile keeps the missed-run notices in the state directory.
const NoticesFile = "notices.json"

// maxNotices bounds the notices kept; the oldest go first.
const maxNotices = 50

// noticeBook holds the notices. Missed-run notices are kept in
// StateDir/notices.json: they record what happened once (the skip or the
// catch-up already changed jobs.json), so a quit before the window opened
// must not lose them. Jobs-file notices live in memory only: every start
// reads the file again and tells anew while it is damaged, and a notice
// kept across a fix made while Hearth was closed would be wrong.
type noticeBook struct {
	mu     sync.Mutex
	path   string // "" keeps them in memory only
	loaded bool
	list   []Notice // newest first
}

// book returns the Service's notices, read from disk on first use.
func (s *Service) book() *noticeBook {
	b := &s.notices
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.loaded {
		b.loaded = true
		if dir := s.opts.Settings.Paths().StateDir; dir != "" {
			b.path = filepath.Join(dir, NoticesFile)
			b.list = readNotices(b.path)
		}
	}
	return b
}

// readNotices reads the file; a damaged one is moved aside (kept for the
// user to look at) and the book starts empty.
func readNotices(path string) []Notice {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	var list []Notice
	if err == nil {
		err = json.Unmarshal(data, &list)
	}
	if err != nil {
		aside := path + ".damaged"
		slog.Warn("reminder notices unreadable: starting empty", "file", path, "movedTo", aside, "err", err)
		_ = os.Rename(path, aside)
		return nil
	}
	return list
}

// saveLocked writes the missed-run notices atomically; a failure is logged
// (the notices stay in memory for this run).
func (b *noticeBook) saveLocked() {
	if b.path == "" {
		return
	}
	keep := make([]Notice, 0, len(b.list))
	for _, n := range b.list {
		if n.Kind == NoticeMissed {
			keep = append(keep, n)
		}
	}
	if err := atomicfile.WriteJSON(b.path, keep); err != nil {
		slog.Warn("reminder notices not saved: they last until Hearth quits", "err", err)
	}
}

func newNoticeID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// addLocked puts n first, dropping the notices replace says are superseded
// and the oldest beyond maxNotices.
func (b *noticeBook) addLocked(n Notice, replace func(Notice) bool) {
	b.list = slices.DeleteFunc(b.list, replace)
	b.list = append([]Notice{n}, b.list...)
	if len(b.list) > maxNotices {
		b.list = b.list[:maxNotices]
	}
}

// interruptStale marks catch-up runs a previous Hearth left running: they
// did not finish (if still due, this start catches them up again).
func (b *noticeBook) interruptStale() {
	b.mu.Lock()
	defer b.mu.Unlock()
	changed := false
	for i := range b.list {
		if b.list[i].Kind == NoticeMissed && b.list[i].Outcome == MissedRunning {
			b.list[i].Outcome, changed = MissedInterrupted, true
		}
	}
	if changed {
		b.saveLocked()
	}
}

// record keeps what the scheduler told: one notice per missed reminder
// (replacing an unfinished one of the same reminder), the jobs-file
// problem (replacing the last one), or that the problem is gone.
func (b *noticeBook) record(n schedule.Notice, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch n.Kind {
	case schedule.NoticeMissed:
		for _, m := range n.Missed {
			out := MissedRunning
			switch {
			case m.Skipped:
				out = MissedSkipped
			case m.Ask:
				out = MissedAsking
			}
			b.addLocked(Notice{ID: newNoticeID(), Kind: NoticeMissed, At: now, JobID: m.JobID, Title: m.Title,
				SessionID: m.SessionID, Due: m.Due, Outcome: out},
				func(x Notice) bool {
					return x.Kind == NoticeMissed && x.JobID == m.JobID &&
						(x.Outcome == MissedRunning || x.Outcome == MissedInterrupted || x.Outcome == MissedAsking)
				})
		}
		b.saveLocked()
	case schedule.NoticeJobsFile:
		b.addLocked(Notice{ID: newNoticeID(), Kind: NoticeJobsFile, At: now, Text: n.Text, Code: n.Message.Code, Args: n.Message.Args},
			func(x Notice) bool { return x.Kind == NoticeJobsFile })
	case schedule.NoticeJobsFileOK:
		b.list = slices.DeleteFunc(b.list, func(x Notice) bool { return x.Kind == NoticeJobsFile })
	}
}

// removed marks a catch-up still to run of a deleted reminder: it never will.
func (b *noticeBook) removed(jobID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	changed := false
	for i := range b.list {
		if n := &b.list[i]; n.Kind == NoticeMissed && n.JobID == jobID && n.Outcome == MissedRunning {
			n.Outcome, changed = MissedRemoved, true
		}
	}
	if changed {
		b.saveLocked()
	}
}

// ran records how a reminder's run ended if it was a missed one being
// caught up; it reports whether a notice changed.
func (b *noticeBook) ran(jobID string, at time.Time, out schedule.Outcome) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := slices.IndexFunc(b.list, func(x Notice) bool {
		return x.Kind == NoticeMissed && x.JobID == jobID && x.Outcome == MissedRunning
	})
	if i < 0 {
		return false
	}
	n := &b.list[i]
	n.RanAt, n.Outcome = at, MissedDone
	if out.Status == schedule.StatusError || out.Err != nil {
		n.Outcome = MissedFailed
		if out.Err != nil {
			n.Error = firstLineOf(out.Err.Error())
		}
	}
	b.saveLocked()
	return true
}

// Notices returns the notices the user has not dismissed, newest
// first: reminders missed while Hearth was closed (each caught up or
// skipped) and a damaged jobs file.
func (s *Service) Notices() []Notice {
	b := s.book()
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.list)
}

// DismissNotice removes a notice; one already gone is no error (the window
// may dismiss twice).
func (s *Service) DismissNotice(id string) error {
	if id == "" {
		return errors.New("dismiss notice: no id (hint: take it from Notices)")
	}
	b := s.book()
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(b.list)
	b.list = slices.DeleteFunc(b.list, func(x Notice) bool { return x.ID == id })
	if len(b.list) != n {
		b.saveLocked()
	}
	return nil
}

// schedulerNotice is the scheduler's Notice: kept for the window, then
// raised as a desktop notification as before (the window refreshes on it).
func (s *Service) schedulerNotice(n schedule.Notice) {
	s.book().record(n, s.clock.Now())
	for _, m := range n.Missed {
		if m.Ask {
			s.askMissed(m)
		}
	}
	if n.Text != "" {
		s.emit(event.Background{Kind: event.BackgroundNotice, Title: i18n.T(i18n.English, "notify.reminders.title"), Text: n.Text,
			TitleCode: "notify.reminders.title", Code: n.Message.Code, Args: n.Message.Args})
	}
}

// askMissed raises the notification of a reminder that asks before a missed run:
// its name, when it was due, and Run / Skip.
func (s *Service) askMissed(m schedule.MissedRun) {
	id := ""
	b := s.book()
	b.mu.Lock()
	for _, x := range b.list {
		if x.Kind == NoticeMissed && x.JobID == m.JobID && x.Outcome == MissedAsking {
			id = x.ID
			break
		}
	}
	b.mu.Unlock()
	args := map[string]string{"due": m.Due.Local().Format("Mon 15:04")}
	s.emit(event.Background{Kind: event.BackgroundNotice, Title: m.Title, SessionID: m.SessionID, JobID: m.JobID,
		Code: "notify.missed.ask", Args: args, Text: i18n.Message{Code: "notify.missed.ask", Args: args}.String(),
		Ask: event.AskMissed, NoticeID: id})
}

// AnswerMissed answers a reminder that asked about its missed run: run it once now (in
// the background; its notice follows the run) or skip it. A notice that no longer asks
// is an error with a hint (it was answered already, from the window or the notification).
func (s *Service) AnswerMissed(noticeID string, run bool) error {
	b := s.book()
	b.mu.Lock()
	i := slices.IndexFunc(b.list, func(x Notice) bool { return x.ID == noticeID })
	if i < 0 || b.list[i].Outcome != MissedAsking {
		b.mu.Unlock()
		return fmt.Errorf("missed reminder %q: not waiting for an answer (hint: it was answered already or dismissed)", noticeID)
	}
	n := &b.list[i]
	jobID, due := n.JobID, n.Due
	if run {
		n.Outcome = MissedRunning
	} else {
		n.Outcome = MissedSkipped
	}
	b.saveLocked()
	b.mu.Unlock()
	if !run {
		// Skipped is an answer too: the reminder's history (and a one-shot's Done entry)
		// says so, as it would say a run.
		st, err := s.jobStore()
		if err == nil {
			err = st.Skip(jobID, s.clock.Now(), due)
		}
		if err != nil { // deleted meanwhile, say: the answer stands
			slog.Info("skipped reminder not recorded in its history", "job", jobID, "err", err)
		}
		s.jobsChanged()
		return nil
	}
	s.emit(event.Background{Kind: event.BackgroundJobs})
	s.mu.Lock()
	ctx := s.ctx
	s.mu.Unlock()
	if ctx == nil {
		ctx = context.Background()
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := s.RunJobNow(ctx, jobID); err != nil {
			slog.Warn("missed reminder not run", "job", jobID, "err", err)
			s.book().ran(jobID, s.clock.Now(), schedule.Outcome{Status: schedule.StatusError, Err: err})
		}
	}()
	return nil
}
