package app

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"hearth/backend/agent"
	"hearth/backend/event"
	"hearth/backend/internal/fakeollama"
)

// A web tool local-only mode turned off is refused saying so, and where to turn it back
// on — not "unknown tool" — and the model reads the same.
func TestLocalOnlyRefusesAWebToolByName(t *testing.T) {
	args, _ := json.Marshal(map[string]string{"url": "https://example.com/"})
	svc, fake, _, _ := bgService(t, `{"localOnly": true}`,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "web_fetch", Arguments: args}}},
		fakeollama.Reply{Content: "I cannot fetch pages here."})
	var mu sync.Mutex
	var results []event.ToolResultData
	run, err := svc.Chat.Start(context.Background(), agent.Request{SessionID: "c", Text: "read example.com"}, func(ev event.Event) {
		if d, ok := ev.Data.(event.ToolResultData); ok {
			mu.Lock()
			results = append(results, d)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if res := run.Wait(); res.Status != event.StatusOK {
		t.Fatalf("run %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(results) != 1 {
		t.Fatalf("results %+v", results)
	}
	r := results[0]
	if r.OK || r.Code != "tool.off.localOnly" || r.Args["tool"] != "web_fetch" || strings.Contains(r.Content, "unknown tool") ||
		!strings.Contains(r.Content, "local-only") || !strings.Contains(r.Content, "Settings") {
		t.Errorf("refusal %+v", r)
	}
	msgs := fake.ChatRequests()[1].Messages
	if last := msgs[len(msgs)-1]; last.Role != "tool" || !strings.Contains(last.Content, "off in local-only mode") {
		t.Errorf("the model read %+v", last)
	}
}
