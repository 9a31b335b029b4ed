package config

import "testing"

// schedule.missedRuns takes "ask" beside "catchup" and "skip" (the default of every
// reminder's own choice); anything else is a problem on that key.
func TestMissedRunsChoices(t *testing.T) {
	for _, v := range []string{"catchup", "skip", "ask"} {
		c := Default()
		c.Schedule.MissedRuns = v
		if ps := c.Validate(); len(ps) != 0 {
			t.Errorf("%q: %+v", v, ps)
		}
	}
	c := Default()
	c.Schedule.MissedRuns = "sometimes"
	ps := c.Validate()
	if len(ps) != 1 || ps[0].Key != "schedule.missedRuns" {
		t.Errorf("an unknown choice: %+v", ps)
	}
}
