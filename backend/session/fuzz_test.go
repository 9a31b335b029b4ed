package session

import (
	"testing"
	"time"
)

// FuzzParseRewinds feeds session files of any shape to the loader: it never panics, and what
// it returns holds together (rewinds included: versions depart inside the conversation,
// the consolidation mark stays inside it). Seeds: testdata/fuzz/FuzzParseRewinds.
func FuzzParseRewinds(f *testing.F) {
	f.Add([]byte(`{"type":"meta","v":1,"id":"x","title":"","created":"2026-11-22T04:00:01Z","updated":"2026-11-22T04:00:01Z","model":"","lastConsolidated":1,"archived":false}
{"type":"message","at":"2026-11-22T04:00:02Z","runId":"r1","role":"user","content":"Hi"}
{"type":"message","at":"2026-11-22T04:00:03Z","runId":"r1","role":"assistant","content":"Hello"}
{"type":"run","at":"2026-11-22T04:00:04Z","runId":"r1","status":"ok","final":"Hello","usage":{},"durationMs":5}
{"type":"rewind","at":"2026-11-22T04:00:05Z","to":1}
{"type":"message","at":"2026-11-22T04:00:06Z","runId":"r2","role":"assistant","content":"Hey"}
{"type":"rewind","at":"2026-11-22T04:00:07Z","to":0}
`))
	f.Add([]byte(`{"type":"rewind","to":-3}` + "\n" + `{"type":"rewind","to":99}`))
	f.Add([]byte("{\"type\":\"message\",\"role\":\"user\",\"content\":\"a\"}\n{\"type\":\"rew"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := parse("x", data, time.Unix(0, 0))
		if s.Meta.LastConsolidated >= len(s.Entries) && s.Meta.LastConsolidated != NoneConsolidated && len(s.Branches) > 0 {
			t.Fatalf("consolidation mark %d past %d messages after a rewind", s.Meta.LastConsolidated, len(s.Entries))
		}
		for _, b := range s.Branches {
			if b.At < 0 || b.At > len(s.Entries) {
				t.Fatalf("version departs at %d of %d messages", b.At, len(s.Entries))
			}
		}
		for _, in := range s.Interrupted {
			if in.First < 0 || in.First >= len(s.Entries) {
				t.Fatalf("interrupted run starts at %d of %d messages", in.First, len(s.Entries))
			}
		}
		_ = s.Messages()
	})
}
