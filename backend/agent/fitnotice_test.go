package agent

import (
	"strings"
	"testing"

	"hearth/backend/agent/prompt"
	"hearth/backend/i18n"
)

// The fit notice is coded to its last part, so a zh-CN window words all of it, and its
// English says what the run left out.
func TestFitMessageIsCoded(t *testing.T) {
	tools := []string{"mcp_a_1", "mcp_a_2", "read_file", "exec", "web_fetch", "web_search"}
	m, ok := fitMessage(prompt.Shed{Turns: 1, Recall: true, Tools: tools, CurrentTurn: true, Shortened: []string{"exec"}}, 4096)
	if !ok {
		t.Fatal("no notice")
	}
	want := "Left out to fit the model's context window (4096 tokens): 1 older turn of this chat, the recalled memory, " +
		"6 tools (mcp_a_1, mcp_a_2, read_file, exec, web_fetch, …), parts of this turn's longer tool results. " +
		"Tool descriptions were shortened too. Fewer MCP servers, or a model with a larger window, would keep them."
	if got := m.String(); got != want {
		t.Errorf("English:\n%s\nwant\n%s", got, want)
	}
	codes := []string{m.Code}
	for _, ms := range m.Lists {
		for _, x := range ms {
			codes = append(codes, x.Code)
		}
	}
	for _, c := range codes {
		if !i18n.Has(c) {
			t.Errorf("code %q is not in the catalog", c)
		}
	}
	if zh := m.In(i18n.Chinese); strings.Contains(zh, "{") || !strings.Contains(zh, "4096") {
		t.Errorf("Chinese: %s", zh)
	}
	if m, ok := fitMessage(prompt.Shed{Shortened: []string{"exec"}}, 2048); !ok ||
		m.String() != "To fit the model's context window (2048 tokens), tool descriptions were shortened." {
		t.Errorf("shortened only: %q %v", m.String(), ok)
	}
	if _, ok := fitMessage(prompt.Shed{}, 2048); ok {
		t.Error("a notice for nothing left out")
	}
}
