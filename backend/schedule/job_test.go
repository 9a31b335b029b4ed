package schedule

import (
	"strings"
	"testing"
	"time"
)

func mustLoc(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return loc
}

func TestNextEveryKind(t *testing.T) {
	base := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	at := Schedule{Kind: KindAt, At: base.Add(time.Hour)}
	if got, _ := at.Next(base, time.Time{}); !got.Equal(base.Add(time.Hour)) {
		t.Errorf("at: next %v", got)
	}
	every := Schedule{Kind: KindEvery, EverySeconds: 600}
	if got, _ := every.Next(base, time.Time{}); !got.Equal(base.Add(10 * time.Minute)) {
		t.Errorf("every, first: %v", got)
	}
	// After a long sleep the intervals that passed are skipped: one run, on the grid.
	last := base
	got, _ := every.Next(base.Add(95*time.Minute), last)
	if !got.Equal(base.Add(100 * time.Minute)) {
		t.Errorf("every after 95 min asleep: %v, want 10:00+100m", got)
	}
	cron := Schedule{Kind: KindCron, Expr: "0 9 * * 1-5", TZ: "UTC"}
	// 2026-03-01 is a Sunday: the next weekday 09:00 is Monday 2 March.
	if got, _ := cron.Next(base, time.Time{}); !got.Equal(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("cron weekdays: %v", got)
	}
}

func TestCronTimeZones(t *testing.T) {
	// 09:00 in Tokyo is 00:00 UTC; in New York (EST, UTC-5) 14:00 UTC.
	after := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		tz   string
		want time.Time
	}{
		{"Asia/Tokyo", time.Date(2026, 1, 11, 0, 0, 0, 0, time.UTC)},
		{"America/New_York", time.Date(2026, 1, 10, 14, 0, 0, 0, time.UTC)},
		{"Europe/Berlin", time.Date(2026, 1, 11, 8, 0, 0, 0, time.UTC)},
	} {
		got, err := Schedule{Kind: KindCron, Expr: "0 9 * * *", TZ: c.tz}.Next(after, time.Time{})
		if err != nil || !got.Equal(c.want) {
			t.Errorf("%s: next %v (%v), want %v", c.tz, got.UTC(), err, c.want)
		}
	}
}

func TestCronDSTEdges(t *testing.T) {
	berlin := mustLoc(t, "Europe/Berlin")
	// Spring forward: 29 March 2026, 02:00 → 03:00. 02:30 does not exist that day;
	// the run happens once, right after the gap, and the next day is normal again.
	s := Schedule{Kind: KindCron, Expr: "30 2 * * *", TZ: "Europe/Berlin"}
	after := time.Date(2026, 3, 28, 12, 0, 0, 0, berlin)
	got, err := s.Next(after, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Day() != 29 || !got.After(after) {
		t.Fatalf("spring forward: next %v, want a run on 29 March", got)
	}
	got2, _ := s.Next(got, time.Time{})
	if want := time.Date(2026, 3, 30, 2, 30, 0, 0, berlin); !got2.Equal(want) {
		t.Errorf("day after spring forward: %v, want %v", got2, want)
	}
	// Hourly across the spring gap: strictly increasing and 1 hour apart in absolute time.
	h := Schedule{Kind: KindCron, Expr: "0 * * * *", TZ: "Europe/Berlin"}
	cur := time.Date(2026, 3, 29, 0, 30, 0, 0, berlin)
	for range 4 {
		n, err := h.Next(cur, time.Time{})
		if err != nil || !n.After(cur) || n.Sub(cur) > time.Hour {
			t.Fatalf("hourly across spring forward from %v: %v (%v)", cur, n, err)
		}
		cur = n
	}
	// Fall back: 25 October 2026, 03:00 → 02:00. A daily 02:30 job runs once that day.
	after = time.Date(2026, 10, 25, 1, 0, 0, 0, berlin)
	first, _ := s.Next(after, time.Time{})
	second, _ := s.Next(first, time.Time{})
	if first.Day() != 25 || second.Day() != 26 {
		t.Errorf("fall back: runs %v then %v, want one on the 25th then the 26th", first, second)
	}
	// New York, the same rules on other dates (8 March / 1 November 2026).
	ny := Schedule{Kind: KindCron, Expr: "0 9 * * *", TZ: "America/New_York"}
	n1, _ := ny.Next(time.Date(2026, 3, 7, 12, 0, 0, 0, time.UTC), time.Time{})
	n2, _ := ny.Next(n1, time.Time{})
	if n2.Sub(n1) != 23*time.Hour {
		t.Errorf("New York spring forward: %v → %v is %v, want 23h", n1, n2, n2.Sub(n1))
	}
}

func TestScheduleValidate(t *testing.T) {
	for _, c := range []struct {
		s    Schedule
		want string
	}{
		{Schedule{Kind: "weekly"}, "unknown"},
		{Schedule{Kind: KindAt}, "needs a time"},
		{Schedule{Kind: KindEvery, EverySeconds: 1}, "too often"},
		{Schedule{Kind: KindCron, Expr: "61 * * * *"}, "not valid"},
		{Schedule{Kind: KindCron, Expr: "0 9 * * *", TZ: "Mars/Olympus"}, "time zone"},
	} {
		err := c.s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "hint") {
			t.Errorf("%+v: %v, want %q with a hint", c.s, err, c.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	for _, c := range []struct {
		s    Schedule
		want string
	}{
		{Schedule{Kind: KindEvery, EverySeconds: 1800}, "every 30 minutes"},
		{Schedule{Kind: KindEvery, EverySeconds: 3600}, "every hour"},
		{Schedule{Kind: KindCron, Expr: "0 9 * * 1-5"}, "on weekdays at 09:00"},
		{Schedule{Kind: KindCron, Expr: "15 18 * * *", TZ: "Asia/Tokyo"}, "every day at 18:15 (Asia/Tokyo)"},
		{Schedule{Kind: KindCron, Expr: "*/5 * * * *"}, "cron */5 * * * *"},
		{Schedule{Kind: KindAt, At: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}, "once at Tue 24 Nov 2026 09:00 UTC"},
	} {
		if got := c.s.Describe(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}
