package session

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/backend/llm"
)

// clock is a test clock that moves one second per reading.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock {
	return &clock{t: time.Date(2026, 11, 22, 4, 0, 0, 0, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

func newTestStore(t testing.TB) (*Store, *clock) {
	t.Helper()
	c := newClock()
	return NewStore(t.TempDir()+"/sessions", Options{Now: c.Now}), c
}

func mustCreate(t testing.TB, s *Store, opts CreateOptions) Meta {
	t.Helper()
	m, err := s.Create(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustAppend(t testing.TB, s *Store, id string, recs ...Record) {
	t.Helper()
	if err := s.Append(id, recs...); err != nil {
		t.Fatal(err)
	}
}

func mustLoad(t testing.TB, s *Store, id string) *Session {
	t.Helper()
	sess, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

func user(text string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: text} }

func assistant(text string) llm.Message { return llm.Message{Role: llm.RoleAssistant, Content: text} }

// toolBatch is an assistant message calling one tool and the tool's result.
func toolBatch(runID, callID, name, args, result string) []Record {
	return []Record{
		MessageRecord(runID, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{
			{ID: callID, Name: name, Arguments: json.RawMessage(args)}}}),
		MessageRecord(runID, llm.Message{Role: llm.RoleTool, Content: result, ToolCallID: callID, ToolName: name}),
	}
}

func appendRaw(t testing.TB, path, data string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func warningsContain(ws []Warning, line int, sub string) bool {
	for _, w := range ws {
		if w.Line == line && strings.Contains(w.Message, sub) {
			return true
		}
	}
	return false
}
