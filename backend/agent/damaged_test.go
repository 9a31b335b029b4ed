package agent

import (
	"os"
	"strings"
	"testing"

	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
)

// A chat whose file holds a well-formed but wrong line (a tool call's arguments stored
// as a JSON string) goes on: the turn runs, the history sent holds the arguments as an
// object, and the chat hears about the damaged line once (issue 19: every turn failed).
func TestDamagedLineNeverStopsTheChat(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "First."}, {Content: "Second."}, {Content: "Third."}}})
	res, _ := h.send("", "hello")
	p, err := h.store.Path(res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"type":"message","runId":"rx","role":"assistant","content":"","toolCalls":[{"id":"c9","name":"read_file","arguments":"{\"path\":\"x\"}"}]}` + "\n" +
		`{"type":"message","runId":"rx","role":"tool","toolCallId":"c9","content":"ok"}` + "\n")
	_ = f.Close()

	res2, evs := h.send(res.SessionID, "again")
	if res2.Status != event.StatusOK {
		t.Fatalf("the turn after the damaged line: %+v", res2)
	}
	n := ofType[event.NoticeData](evs)
	if len(n) != 1 || n[0].Code != "notice.damagedChat" || !strings.Contains(n[0].Message, "stored as a JSON string") {
		t.Fatalf("notices %+v", n)
	}
	reqs := h.fake.ChatRequests()
	var sent string
	for _, m := range reqs[len(reqs)-1].Messages {
		if len(m.ToolCalls) > 0 {
			sent = string(m.ToolCalls)
		}
	}
	if !strings.Contains(sent, `"arguments":{"path":"x"}`) {
		t.Errorf("the history sent the call's arguments as %q", sent)
	}
	if res3, evs3 := h.send(res.SessionID, "and again"); res3.Status != event.StatusOK || len(ofType[event.NoticeData](evs3)) != 0 {
		t.Errorf("third turn: %+v, notices %+v", res3, ofType[event.NoticeData](evs3))
	}
}
