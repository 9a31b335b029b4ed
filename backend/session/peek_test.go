package session

import (
	"testing"
	"time"

	"hearth/backend/llm"
)

func TestPeek(t *testing.T) {
	at := time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)
	enc := func(r Record) string {
		b, err := encodeRecord(nil, r, at)
		if err != nil {
			t.Fatal(err)
		}
		return string(b[:len(b)-1])
	}
	meta, _ := encodeMeta(nil, Meta{ID: "x"})
	for _, tc := range []struct {
		name, line string
		want       head
		ok         bool
	}{
		{"message", enc(MessageRecord("r1", user("hi"))), head{"message", "2026-11-22T04:00:00Z", "r1", "user"}, true},
		{"message without run", enc(MessageRecord("", llm.Message{Role: llm.RoleTool, Content: `"}`})), head{"message", "2026-11-22T04:00:00Z", "", "tool"}, true},
		{"run", enc(RunRecord(Run{ID: "r2", Status: StatusOK})), head{"run", "2026-11-22T04:00:00Z", "r2", ""}, true},
		{"meta", string(meta[:len(meta)-1]), head{Type: "meta"}, true},
		{"escaped run id", `{"type":"message","at":"2026-11-22T04:00:00Z","runId":"r\u0031","role":"user","content":"x"}`, head{"message", "2026-11-22T04:00:00Z", "r1", "user"}, true},
		{"other field order", `{"role":"assistant","type":"message","runId":"r3"}`, head{Type: "message", RunID: "r3", Role: "assistant"}, true},
		{"spaces", `{ "type" : "run", "runId" : "r4" }`, head{Type: "run", RunID: "r4"}, true},
		{"torn", `{"type":"message","at":"2026-11-22T04:00:00Z","runId":"r1","role":"user","content":"hal`, head{}, false},
		{"no type", `{"role":"user"}`, head{}, false},
		{"not json", `hello`, head{}, false},
		{"array", `[1,2]`, head{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := peek([]byte(tc.line))
			if ok != tc.ok || got != tc.want {
				t.Errorf("peek(%s) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
			}
			if k := lineKind([]byte(tc.line)); tc.ok && k != tc.want.Type {
				t.Errorf("lineKind = %q", k)
			}
		})
	}
}
