package session

import (
	"testing"
	"time"
)

// FuzzParse: any bytes in a session file give a Session (damaged lines are skipped
// and counted), never a panic. Seeds: testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"type":"meta","id":"s","created":"2026-01-01T00:00:00Z"}` + "\n" +
		`{"type":"message","role":"user","content":"hi"}` + "\n"))
	f.Add([]byte(`{"type":"message","role":"assistant","toolCalls":[{"id":"1","name":"exec","arguments":"{\"command\":\"ls\"}"}]}` + "\n"))
	f.Add([]byte(`{"type":"run","runId":"r","status":"error","error":"x"}` + "\n{not json\n"))
	f.Add([]byte("\x00\xff\n\n{\"type\":\"message\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := parse("s", data, time.Unix(0, 0))
		if s == nil {
			t.Fatal("nil session")
		}
		_ = s.Messages()
	})
}
