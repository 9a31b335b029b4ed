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

// A turn's rounds compact a growing history again and again through one
// Placeholders: every round's copy is what CompactToolResults makes, the same
// text under two tool names gets each name's placeholder, and a short result
// remembered stays itself.
func TestPlaceholdersCompactLikeCompactToolResults(t *testing.T) {
	var ph Placeholders
	h := []llm.Message{{Role: llm.RoleUser, Content: "go"}}
	for i := range 30 {
		id, name := fmt.Sprint(i), []string{"grep", "read_file"}[i%2]
		content := strings.Repeat("line of output\n", 10) // the same text from both tools
		if i%7 == 0 {
			content = "ok"
		}
		h = append(h,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: name}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: name, Content: content},
		)
		for _, keep := range []int{KeepToolResults, 2} {
			orig := cloneHistory(h)
			got, want := ph.Compact(h, keep), CompactToolResults(h, keep)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d keep %d: remembered placeholders differ from CompactToolResults:\n%+v\nwant %+v", i, keep, got, want)
			}
			if !reflect.DeepEqual(h, orig) {
				t.Fatal("compaction modified the history")
			}
		}
	}
	got := ph.Compact(h, 0)
	if !strings.Contains(got[6].Content, "of grep omitted") || !strings.Contains(got[4].Content, "of read_file omitted") {
		t.Errorf("placeholders %q and %q; want each its tool's name", got[6].Content, got[4].Content)
	}
}
