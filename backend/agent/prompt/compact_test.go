package prompt

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"hearth/backend/llm"
)

func TestCompactToolResults(t *testing.T) {
	var h []llm.Message
	h = append(h, llm.Message{Role: llm.RoleUser, Content: "go"})
	for i := range 15 {
		id := fmt.Sprint(i)
		h = append(h,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "grep"}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: "grep", Content: strings.Repeat("é", 100+i)},
		)
	}
	h[2].ToolName = "" // a result stored without its name: found from the call
	h = append(h, llm.Message{Role: llm.RoleTool, ToolCallID: "x", ToolName: "exec", Content: "ok"})
	orig := cloneHistory(h)

	got := CompactToolResults(h, KeepToolResults)
	if !reflect.DeepEqual(h, orig) {
		t.Fatal("compaction modified the stored history")
	}
	if len(got) != len(h) {
		t.Fatalf("len %d, want %d", len(got), len(h))
	}
	var omitted, kept int
	for i, m := range got {
		if m.Role != llm.RoleTool {
			if !reflect.DeepEqual(m, h[i]) {
				t.Errorf("message %d (%s) changed", i, m.Role)
			}
			continue
		}
		if strings.HasPrefix(m.Content, "[tool result of") {
			omitted++
			continue
		}
		kept++
	}
	// 16 results: the 10 newest stay (including the short "ok"), 6 older go.
	if kept != 10 || omitted != 6 {
		t.Fatalf("kept %d omitted %d, want 10 and 6", kept, omitted)
	}
	if want := "[tool result of grep omitted — 100 chars; call again if needed]"; got[2].Content != want {
		t.Errorf("first placeholder %q, want %q", got[2].Content, want)
	}
	if got[len(got)-1].Content != "ok" {
		t.Error("newest result changed")
	}
}

func TestCompactKeepsShortResults(t *testing.T) {
	h := []llm.Message{
		{Role: llm.RoleTool, ToolName: "exec", Content: "done"},
		{Role: llm.RoleTool, ToolName: "exec", Content: "done"},
	}
	got := CompactToolResults(h, 0)
	if got[0].Content != "done" || got[1].Content != "done" {
		t.Fatalf("short results replaced by longer placeholders: %+v", got)
	}
	if ToolPlaceholder("", 5) != "[tool result of a tool omitted — 5 chars; call again if needed]" {
		t.Error("placeholder without a name")
	}
}
