package prompt

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/llm"
	"hearth/backend/skills"
	"hearth/backend/workspace"
)

// benchWorkspace is a default workspace with a 100 KB MEMORY.md, files old
// enough for the cache to trust their stat data.
func benchWorkspace(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	if _, err := workspace.Onboard(dir); err != nil {
		b.Fatal(err)
	}
	var mem strings.Builder
	for i := 0; mem.Len() < 100*1024; i++ {
		fmt.Fprintf(&mem, "- Fact %d: the user prefers short answers and tea at %02d:00.\n", i, i%24)
	}
	writeFile(b, dir, MemoryFile, mem.String(), past)
	for _, f := range workspace.Files() {
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(f)), past, past); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

func benchSkills(n int) []skills.Summary {
	s := make([]skills.Summary, n)
	for i := range s {
		s[i] = skills.Summary{Name: fmt.Sprintf("skill-%02d", i), Description: "Does one useful thing with files, reminders or the web.",
			Location: fmt.Sprintf("skills/skill-%02d/SKILL.md", i), Available: i%5 != 0}
		if !s[i].Available {
			s[i].Missing = "bin: ffmpeg"
		}
	}
	return s
}

// BenchmarkSystemPrompt measures SystemPrompt with a 100 KB MEMORY.md and 50
// skill summaries. Target: under 2 ms per build, cached or not (the chat runs
// it before every model call: docs/design/prompt-size.md#the-system-prompt).
func BenchmarkSystemPrompt(b *testing.B) {
	dir := benchWorkspace(b)
	list := benchSkills(50)
	opts := Options{Workspace: dir, OS: "Linux", TimeZone: "UTC", Now: fixedClock(past),
		Skills: func() ([]string, []skills.Summary) { return nil, list }}
	b.Run("cached", func(b *testing.B) {
		p, err := New(opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.SystemPrompt(); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := p.SystemPrompt(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("uncached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p, err := New(opts)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.SystemPrompt(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchHistory is n messages in turns of four: a question, a tool call, its
// result (2 KB, every tenth 50 KB; not in the last turn) and an answer.
func benchHistory(n int) []llm.Message {
	h := make([]llm.Message, 0, n)
	small, big := strings.Repeat("log line ok\n", 170), strings.Repeat("log line ok\n", 4300)
	for i := 0; len(h) < n; i++ {
		id := fmt.Sprint(i)
		res := small
		if i%10 == 5 {
			res = big
		}
		h = append(h,
			llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("Question %d: what is in the log today?", i)},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "read_file", Arguments: json.RawMessage(`{"path":"app.log"}`)}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, ToolName: "read_file", Content: res},
			llm.Message{Role: llm.RoleAssistant, Content: strings.Repeat("The log shows nothing unusual. ", 10)},
		)
	}
	return h[:n]
}

// BenchmarkFit fits 100 and 1 000 message histories into an 8k window, and
// into a window so large that everything fits (the worst case: every message
// is estimated). Target: time grows no worse than linearly with the history
// (1 000 ≤ ~10× 100); in an 8k window it barely grows, because messages older
// than the first that does not fit are never estimated.
func BenchmarkFit(b *testing.B) {
	system := strings.Repeat("You are Hearth. ", 100)
	tools := builtinTools()
	for _, window := range []int{8192, 1 << 30} {
		name := "8k"
		if window > 8192 {
			name = "all-fit"
		}
		for _, n := range []int{100, 1000} {
			h := benchHistory(n)
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := (Counter{Ratio: 1.1}).Fit(Request{System: system, Tools: tools, History: h, Window: window, Reply: 2048}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
