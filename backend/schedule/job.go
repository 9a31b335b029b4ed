// Package schedule holds Hearth's reminders (docs/design/background.md#reminders) and the heartbeat
// (docs/design/background.md#heartbeat): jobs persisted in cron/jobs.json, a scheduler that runs each
// due job as an unattended agent turn in its own session, and the cron and
// message tools the model uses to manage reminders and reach the user.
//
// Time is injected (Clock) so every schedule kind, time zone and DST edge is
// testable without waiting; nothing here imports Wails.
package schedule

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/adhocore/gronx"
)

// Kind is how a job repeats.
type Kind string

// Schedule kinds (docs/design/background.md#reminders).
const (
	KindAt    Kind = "at"    // once, at an exact time
	KindEvery Kind = "every" // every N seconds
	KindCron  Kind = "cron"  // a cron expression in a time zone
)

// MinEvery is the shortest interval an "every" job may have: a reminder is
// an agent turn, and a tighter loop would only burn the model.
const MinEvery = 10 * time.Second

// Schedule says when a job runs.
type Schedule struct {
	Kind Kind `json:"kind"`
	// At is the one-shot time (KindAt).
	At time.Time `json:"at,omitzero"`
	// EverySeconds is the interval (KindEvery).
	EverySeconds int64 `json:"everySeconds,omitempty"`
	// Expr is a 5-field (or 6 with seconds) cron expression (KindCron).
	Expr string `json:"expr,omitempty"`
	// TZ is the IANA zone Expr is read in; empty means the local zone.
	TZ string `json:"tz,omitempty"`
}

// Validate reports what is wrong with s, with a hint.
func (s Schedule) Validate() error {
	switch s.Kind {
	case KindAt:
		if s.At.IsZero() {
			return errors.New("an at schedule needs a time (hint: ISO 8601, e.g. 2026-11-24T09:00)")
		}
	case KindEvery:
		if time.Duration(s.EverySeconds)*time.Second < MinEvery {
			return fmt.Errorf("every %d seconds is too often (hint: at least %d seconds)", s.EverySeconds, int(MinEvery.Seconds()))
		}
	case KindCron:
		if strings.TrimSpace(s.Expr) == "" || !gronx.IsValid(s.Expr) {
			return fmt.Errorf("cron expression %q is not valid (hint: five fields, minute hour day month weekday, e.g. \"0 9 * * 1-5\")", s.Expr)
		}
		if _, err := s.location(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("schedule kind %q is unknown (hint: at, every or cron)", s.Kind)
	}
	return nil
}

func (s Schedule) location() (*time.Location, error) {
	if s.TZ == "" {
		return time.Local, nil
	}
	loc, err := time.LoadLocation(s.TZ)
	if err != nil {
		return nil, fmt.Errorf("time zone %q is unknown (hint: an IANA name such as Europe/Berlin or America/New_York)", s.TZ)
	}
	return loc, nil
}

// Next returns the first run time strictly after `after`, or the zero time
// when the schedule has no further run (a one-shot whose time passed is
// still due: Next returns its time so the scheduler runs it late, once).
// last is the previous run (zero if none); an every job counts from it.
func (s Schedule) Next(after, last time.Time) (time.Time, error) {
	switch s.Kind {
	case KindAt:
		return s.At, nil
	case KindEvery:
		d := time.Duration(s.EverySeconds) * time.Second
		if d <= 0 {
			return time.Time{}, s.Validate()
		}
		if last.IsZero() {
			return after.Add(d), nil
		}
		next := last.Add(d)
		if !next.After(after) {
			// Skip the intervals that passed (sleep, app closed): one run, not a burst.
			n := after.Sub(last)/d + 1
			next = last.Add(n * d)
		}
		return next, nil
	case KindCron:
		return s.nextCron(after)
	}
	return time.Time{}, s.Validate()
}

// nextCron asks gronx for the next tick of the job's wall clock. gronx walks
// time fields, so it is given the wall clock as if it were UTC (no DST), and
// the answer is placed back in the job's zone: a time that does not exist
// (02:30 on spring-forward day) runs right after the gap instead of being
// skipped, and a repeated hour (fall back) runs once.
func (s Schedule) nextCron(after time.Time) (time.Time, error) {
	loc, err := s.location()
	if err != nil {
		return time.Time{}, err
	}
	w := after.In(loc)
	from := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, time.UTC)
	for range 4 {
		next, err := gronx.NextTickAfter(s.Expr, from, false)
		if err != nil {
			return time.Time{}, fmt.Errorf("cron %q: %w", s.Expr, err)
		}
		at := time.Date(next.Year(), next.Month(), next.Day(), next.Hour(), next.Minute(), next.Second(), 0, loc)
		if at.After(after) {
			return at, nil
		}
		from = next
	}
	return time.Time{}, fmt.Errorf("cron %q: no next run after %s", s.Expr, after.Format(time.RFC3339))
}

// Describe says the schedule in words for lists and the Reminders view.
func (s Schedule) Describe() string {
	switch s.Kind {
	case KindAt:
		return "once at " + s.At.Format("Mon 2 Jan 2006 15:04 MST")
	case KindEvery:
		return "every " + words(time.Duration(s.EverySeconds)*time.Second)
	case KindCron:
		zone := ""
		if s.TZ != "" {
			zone = " (" + s.TZ + ")"
		}
		return describeCron(s.Expr) + zone
	}
	return string(s.Kind)
}

func words(d time.Duration) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	switch {
	case d%(24*time.Hour) == 0:
		return unit(int64(d/(24*time.Hour)), "day")
	case d%time.Hour == 0:
		return unit(int64(d/time.Hour), "hour")
	case d%time.Minute == 0:
		return unit(int64(d/time.Minute), "minute")
	}
	return unit(int64(d/time.Second), "second")
}

var weekdays = map[string]string{
	"*": "every day", "1-5": "on weekdays", "0,6": "on weekends", "6,0": "on weekends",
	"0": "on Sundays", "1": "on Mondays", "2": "on Tuesdays", "3": "on Wednesdays",
	"4": "on Thursdays", "5": "on Fridays", "6": "on Saturdays", "7": "on Sundays",
}

// describeCron words the common shapes ("every day at 09:00"); anything
// else is shown as the expression itself.
func describeCron(expr string) string {
	f := strings.Fields(expr)
	if len(f) == 5 && f[2] == "*" && f[3] == "*" {
		var m, h int
		_, errM := fmt.Sscanf(f[0], "%d", &m)
		_, errH := fmt.Sscanf(f[1], "%d", &h)
		if day, ok := weekdays[f[4]]; ok && errM == nil && errH == nil && isNum(f[0]) && isNum(f[1]) {
			return fmt.Sprintf("%s at %02d:%02d", day, h, m)
		}
		if isNum(f[0]) && f[1] == "*" && f[4] == "*" {
			return fmt.Sprintf("every hour at minute %s", f[0])
		}
	}
	if expr == "* * * * *" {
		return "every minute"
	}
	return "cron " + expr
}

func isNum(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
