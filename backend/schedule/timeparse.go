package schedule

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var relative = regexp.MustCompile(`^(?:in\s+)?\+?\s*(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|days?)$`)

// ParseAt reads a one-shot time as a person or a model writes it, in the
// user's zone loc: an ISO 8601 time with or without an offset
// ("2026-11-24T09:00", "2026-11-24 09:00:00+01:00"), a clock time today or
// tomorrow ("17:30"), or a delay ("in 10 minutes", "+2h", "90s", "1h30m").
func ParseAt(s string, now time.Time, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, fmt.Errorf("no time given (hint: ISO 8601 like 2026-11-24T09:00, or a delay like \"in 10 minutes\")")
	}
	low := strings.ToLower(s)
	if m := relative.FindStringSubmatch(low); m != nil {
		n, _ := strconv.ParseFloat(m[1], 64)
		unit := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}[m[2][0]]
		return now.Add(time.Duration(n * float64(unit))).Truncate(time.Second), nil
	}
	if d, err := time.ParseDuration(strings.TrimPrefix(strings.TrimPrefix(low, "in "), "+")); err == nil && d > 0 {
		return now.Add(d).Truncate(time.Second), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	for _, layout := range []string{"15:04", "15:04:05"} {
		if c, err := time.Parse(layout, s); err == nil {
			n := now.In(loc)
			t := time.Date(n.Year(), n.Month(), n.Day(), c.Hour(), c.Minute(), c.Second(), 0, loc)
			if !t.After(now) {
				t = t.AddDate(0, 0, 1)
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("cannot read %q as a time (hint: ISO 8601 like 2026-11-24T09:00 in the user's time zone, HH:MM, or a delay like \"in 10 minutes\")", s)
}

// Until says how far t is from now in words ("in 10 min", "in 2 h 5 min").
func Until(t, now time.Time) string {
	d := t.Sub(now).Round(time.Minute)
	if d < time.Minute {
		return "in under a minute"
	}
	days, d := d/(24*time.Hour), d%(24*time.Hour)
	h, m := d/time.Hour, (d%time.Hour)/time.Minute
	var parts []string
	if days > 0 {
		parts = append(parts, fmt.Sprintf("%d d", days))
	}
	if h > 0 {
		parts = append(parts, fmt.Sprintf("%d h", h))
	}
	if m > 0 {
		parts = append(parts, fmt.Sprintf("%d min", m))
	}
	return "in " + strings.Join(parts, " ")
}
