package prompt

import (
	"testing"
	"time"
)

func TestRuntimeContext(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 13, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		tz      *time.Location
		channel string
		want    string
	}{
		{"berlin", berlin, ChannelDesktop, "[Runtime Context]\nCurrent time: 2026-11-22 14:30 (Sunday) CET +01:00\nChannel: desktop"},
		{"nil zone keeps the clock's", nil, ChannelCron, "[Runtime Context]\nCurrent time: 2026-11-22 13:30 (Sunday) UTC +00:00\nChannel: cron"},
		{"no channel", time.UTC, "", "[Runtime Context]\nCurrent time: 2026-11-22 13:30 (Sunday) UTC +00:00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RuntimeContext(now, tc.tz, tc.channel); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestAppendRuntimeContext(t *testing.T) {
	now := time.Date(2026, 11, 22, 13, 30, 0, 0, time.UTC)
	block := RuntimeContext(now, time.UTC, ChannelCLI)
	if got := AppendRuntimeContext("hello\n", now, time.UTC, ChannelCLI); got != "hello\n\n"+block {
		t.Errorf("got %q", got)
	}
	if got := AppendRuntimeContext(" ", now, time.UTC, ChannelCLI); got != block {
		t.Errorf("empty message: got %q", got)
	}
}
