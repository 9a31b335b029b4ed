package schedule

import (
	"strings"
	"testing"
	"time"
)

func TestParseAt(t *testing.T) {
	berlin := mustLoc(t, "Europe/Berlin")
	now := time.Date(2026, 11, 23, 16, 30, 10, 0, berlin)
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"in 10 minutes", now.Add(10 * time.Minute)},
		{"+2h", now.Add(2 * time.Hour)},
		{"90s", now.Add(90 * time.Second)},
		{"in 1h30m", now.Add(90 * time.Minute)},
		{"in 3 seconds", now.Add(3 * time.Second)},
		{"2 days", now.Add(48 * time.Hour)},
		{"2026-11-24T09:00", time.Date(2026, 11, 24, 9, 0, 0, 0, berlin)},
		{"2026-11-24 09:00:30", time.Date(2026, 11, 24, 9, 0, 30, 0, berlin)},
		{"2026-11-24T09:00:00Z", time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)},
		{"2026-11-24T09:00+09:00", time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)},
		{"17:45", time.Date(2026, 11, 23, 17, 45, 0, 0, berlin)},
		{"08:00", time.Date(2026, 11, 24, 8, 0, 0, 0, berlin)}, // passed today: tomorrow
	} {
		got, err := ParseAt(c.in, now, berlin)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("%q: %v (%v), want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "someday", "25:00", "in ten minutes"} {
		if _, err := ParseAt(bad, now, berlin); err == nil || !strings.Contains(err.Error(), "hint") {
			t.Errorf("%q: %v, want an error with a hint", bad, err)
		}
	}
	if got := Until(now.Add(125*time.Minute), now); got != "in 2 h 5 min" {
		t.Errorf("Until: %q", got)
	}
}
