package sessions

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/llm"
	"hearth/backend/session"
)

// chat stores one exchange in session id.
func chat(t *testing.T, s *Service, id, question, answer string) {
	t.Helper()
	st := s.Store()
	if _, err := st.Ensure(session.CreateOptions{ID: id}); err != nil {
		t.Fatal(err)
	}
	err := st.Append(id,
		session.MessageRecord("r1", llm.Message{Role: llm.RoleUser, Content: question}),
		session.MessageRecord("r1", llm.Message{Role: llm.RoleAssistant, Content: answer}),
		session.RunRecord(session.Run{ID: "r1", Status: session.StatusOK, Final: answer}))
	if err != nil {
		t.Fatal(err)
	}
}

func TestNewTouchesNothingAndListsEmpty(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	s := New(Options{Store: session.NewStore(dir, session.Options{})})
	list, err := s.List()
	if err != nil || len(list) != 0 {
		t.Fatalf("List = %v, %v", list, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("listing created %s: %v", dir, err)
	}
}

func TestDeleteAsksInUseFirstAndTellsDeleted(t *testing.T) {
	busy := errors.New("session is busy with run r9")
	var inUse error
	var deleted []string
	s := New(Options{Store: session.NewStore(t.TempDir(), session.Options{}), Workspace: t.TempDir,
		InUse:   func(string) error { return inUse },
		Deleted: func(id string) { deleted = append(deleted, id) }})
	chat(t, s, "c1", "hi", "hello")
	inUse = busy
	if err := s.Delete("c1"); !errors.Is(err, busy) || !strings.Contains(err.Error(), "stop it first") {
		t.Fatalf("busy delete: %v", err)
	}
	if list, _ := s.List(); len(list) != 1 || len(deleted) != 0 {
		t.Fatalf("a running chat was deleted: %v %v", list, deleted)
	}
	inUse = nil
	if err := s.Delete("c1"); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.List(); len(list) != 0 || len(deleted) != 1 || deleted[0] != "c1" {
		t.Errorf("after delete: %v, told %v", list, deleted)
	}
}

func TestHistoryExportAndRename(t *testing.T) {
	s := New(Options{Store: session.NewStore(t.TempDir(), session.Options{})})
	chat(t, s, "exp", "question", "Exported answer.")
	if err := s.Rename("exp", "My chat"); err != nil {
		t.Fatal(err)
	}
	h, err := s.History("exp")
	if err != nil || h.Title != "My chat" || len(h.Messages) != 2 || len(h.Runs) != 1 || h.Interrupted == nil {
		t.Fatalf("History = %+v, %v", h, err)
	}
	dir := t.TempDir()
	md := filepath.Join(dir, ExportName(h.Title, "markdown"))
	if err := s.ExportFile("exp", "markdown", md); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(md); !strings.Contains(string(b), "Exported answer.") || !strings.HasSuffix(md, "My chat.md") {
		t.Errorf("%s: %s", md, b)
	}
	js := filepath.Join(dir, "c.json")
	if err := s.ExportFile("exp", "json", js); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(js); !json.Valid(b) {
		t.Errorf("json export not JSON: %s", b)
	}
	if err := s.ExportFile("exp", "pdf", filepath.Join(dir, "x.pdf")); err == nil {
		t.Error("pdf accepted")
	}
	if _, err := os.Stat(filepath.Join(dir, "x.pdf")); !os.IsNotExist(err) {
		t.Error("a failed export left a file")
	}
	if got := ExportName(`a/b:c`, "json"); got != "a-b-c.json" {
		t.Errorf("ExportName = %q", got)
	}
}

// The window's history of a regenerated chat: the newest answer in Messages, the
// earlier one in Versions; the chat's model choice is remembered.
func TestHistoryVersionsAndModel(t *testing.T) {
	s := New(Options{Store: session.NewStore(filepath.Join(t.TempDir(), "sessions"), session.Options{})})
	chat(t, s, "c", "Joke?", "Joke one")
	st := s.Store()
	if err := st.Rewind("c", 1); err != nil {
		t.Fatal(err)
	}
	if err := st.Append("c", session.MessageRecord("r2", llm.Message{Role: llm.RoleAssistant, Content: "Joke two"}),
		session.RunRecord(session.Run{ID: "r2", Status: session.StatusOK})); err != nil {
		t.Fatal(err)
	}
	if err := s.SetModel("c", " ollama/llama3.2:1b "); err != nil {
		t.Fatal(err)
	}
	h, err := s.History("c")
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Messages) != 2 || h.Messages[1].Content != "Joke two" || h.Model != "ollama/llama3.2:1b" {
		t.Errorf("history %+v", h)
	}
	if len(h.Versions) != 1 || h.Versions[0].At != 1 || h.Versions[0].Messages[0].Content != "Joke one" || h.Versions[0].Runs[0].ID != "r1" {
		t.Errorf("versions %+v", h.Versions)
	}
	chat(t, s, "plain", "Hi", "Hello")
	if h, _ := s.History("plain"); h.Versions == nil || len(h.Versions) != 0 {
		t.Errorf("a chat without versions: %+v", h.Versions)
	}
}

// Search finds titles and what was said, newest chat first, with the match marked; tool
// results are left out.
func TestSearchChats(t *testing.T) {
	s := New(Options{Store: session.NewStore(filepath.Join(t.TempDir(), "sessions"), session.Options{})})
	chat(t, s, "a", "Where is the kayak?", "The kayak is in the garage.")
	chat(t, s, "b", "Plan the garden", "Water the tomatoes first.")
	if err := s.Store().Append("b", session.MessageRecord("r2", llm.Message{Role: llm.RoleTool, Content: "kayak.txt"})); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Search("KAYAK", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 { // the title (made from the question), the question, the answer
		t.Fatalf("hits %+v", hits)
	}
	for _, h := range hits {
		if h.SessionID != "a" {
			t.Errorf("hit in %s: %+v", h.SessionID, h)
		}
		if got := string([]rune(h.Snippet)[h.Start:h.End]); !strings.EqualFold(got, "kayak") {
			t.Errorf("marked %q in %q", got, h.Snippet)
		}
	}
	if hits[0].Index != -1 || hits[2].Index != 1 || hits[2].Role != "assistant" {
		t.Errorf("order or index: %+v", hits)
	}
	if hits, _ := s.Search("  ", 10); len(hits) != 0 {
		t.Errorf("blank query: %+v", hits)
	}
	long := strings.Repeat("word ", 100) + "needle " + strings.Repeat("more ", 100)
	chat(t, s, "c", "x", long)
	hits, _ = s.Search("needle", 10)
	if len(hits) != 1 || !strings.HasPrefix(hits[0].Snippet, "…") || !strings.HasSuffix(hits[0].Snippet, "…") || len([]rune(hits[0].Snippet)) > 140 {
		t.Errorf("long message snippet: %+v", hits)
	}
}
