package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/backend/chat"
	"hearth/backend/event"
	"hearth/backend/extract"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/internal/testdocs"
)

// pagedPages are the acceptance test's pages: page-sized sections, the harbour
// toll on page 150.
func pagedPages(pages int) []string {
	out := make([]string, pages)
	for p := 1; p <= pages; p++ {
		var b strings.Builder
		fmt.Fprintf(&b, "Section %d\n\n", p)
		for l := 0; l < 12; l++ {
			fmt.Fprintf(&b, "Page %d line %d tells of the river, the mills and the weather.\n", p, l)
		}
		if p == 150 {
			b.WriteString("The harbour toll is paid in amber tokens at the lighthouse gate.\n")
		}
		out[p-1] = b.String()
	}
	return out
}

// pagedDocuments are the same pages as a text file and as a PDF (its text layer,
// cited by page); the test asserts nothing that depends on the format.
func pagedDocuments(pages int) map[string][]byte {
	ps := pagedPages(pages)
	return map[string][]byte{"ledger.txt": []byte(strings.Join(ps, "\n")), "ledger.pdf": testdocs.PDF(ps)}
}

// sendAndWait sends in and waits for its run to finish.
func sendAndWait(t *testing.T, a *App, in chat.Input) []event.Event {
	t.Helper()
	var ev events
	done := make(chan struct{})
	if _, err := a.Chat.Send(in, func(e event.Event) {
		ev.sink(e)
		if e.Type == event.RunFinished {
			close(done)
		}
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the run did not finish")
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	return ev.evs
}

// A 200-page document in a chat with a 4 096-token model: too big to send whole,
// it is searched; the model calls attachment_search and the page-150 passage
// reaches it, with its place. The chat notes what it did, the record survives
// the source moving, and deleting the chat removes its folder.
func TestBigAttachmentSearchedInASmallWindow(t *testing.T) {
	for name, data := range pagedDocuments(200) {
		t.Run(name, func(t *testing.T) {
			if strings.HasSuffix(name, ".pdf") && !extract.CanReadPDF() && os.Getenv("CI") == "" {
				t.Skip("pdftotext (poppler-utils) is not installed; make test installs it")
			}
			bigAttachmentSearched(t, name, data)
		})
	}
}

func bigAttachmentSearched(t *testing.T, name string, data []byte) {
	search, _ := json.Marshal(map[string]string{"query": "harbour toll"})
	a, fake := chatService(t, `{"agents":{"defaults":{"model":"ollama/small:1b"}}}`,
		fakeollama.Reply{ToolCalls: []fakeollama.ToolCall{{Name: "attachment_search", Arguments: search}}},
		fakeollama.Reply{Content: "In amber tokens, at the lighthouse gate [ledger.txt line 1950]."})
	src := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(src, data, 0o600); err != nil {
		t.Fatal(err)
	}
	evs := sendAndWait(t, a, chat.Input{SessionID: "ledger-chat", Text: "How is the harbour toll paid?", Files: []string{src}})

	var noted string
	for _, e := range evs {
		if e.Type == event.Notice {
			if b, _ := json.Marshal(e.Data); strings.Contains(string(b), "notice.attachSearched") {
				noted = string(b)
			}
		}
	}
	if noted == "" {
		t.Errorf("no note that the file was searched: %+v", evs)
	}
	reqs := fake.ChatRequests()
	if len(reqs) < 2 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	first := reqs[0]
	if first.Model != "small:1b" {
		t.Errorf("model %q", first.Model)
	}
	if user := first.Messages[len(first.Messages)-1]; !strings.Contains(user.Content, "amber tokens") {
		t.Errorf("the first request has no relevant passage before the question: %.400q", user.Content)
	}
	if strings.Count(first.Messages[len(first.Messages)-1].Content, "Page 1 line") > 0 {
		t.Error("the whole document was sent")
	}
	var tool string
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" {
			tool = m.Content
		}
	}
	// Headed by its place: "[ledger.txt line N]", or "[ledger.pdf p. 150]" for a PDF.
	place := "[" + name + " line "
	if strings.HasSuffix(name, ".pdf") {
		place = "[" + name + " p. 150]"
	}
	if !strings.Contains(tool, "amber tokens at the lighthouse gate") || !strings.Contains(tool, place) {
		t.Errorf("attachment_search's result to the model: %.600q", tool)
	}

	// The source moves: the chat keeps its record and its copy.
	if err := os.Remove(src); err != nil {
		t.Fatal(err)
	}
	h, err := a.Sessions.History("ledger-chat")
	if err != nil {
		t.Fatal(err)
	}
	rec := h.Messages[0].Attachments
	if len(rec) != 1 || rec[0].Name != name || rec[0].Mode != "searched" || rec[0].Bytes != int64(len(data)) || rec[0].File != name {
		t.Fatalf("recorded attachments: %+v", rec)
	}
	copyPath := a.Attach.Path("ledger-chat", rec[0].File)
	if _, err := os.Stat(copyPath); err != nil {
		t.Fatal(err)
	}
	if err := a.Sessions.Delete("ledger-chat"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(copyPath)); !os.IsNotExist(err) {
		t.Errorf("the deleted chat's attachments stay: %v", err)
	}
}

// A small file goes whole; a refused one is a record with its code, and the
// message's text still goes.
func TestSmallAttachmentWholeAndRefusedOneRecorded(t *testing.T) {
	a, fake := chatService(t, "", fakeollama.Reply{Content: "Thursday."})
	sendAndWait(t, a, chat.Input{Text: "When is the meeting?", Pasted: []chat.PastedFile{
		{Name: "memo.txt", Data: "VGhlIG1lZXRpbmcgbW92ZWQgdG8gVGh1cnNkYXku"}, // "The meeting moved to Thursday."
		{Name: "photo.bin", Data: "AAEC"},
	}})
	reqs := fake.ChatRequests()
	user := reqs[0].Messages[len(reqs[0].Messages)-1].Content
	if !strings.Contains(user, "Attached file memo.txt") || !strings.Contains(user, "moved to Thursday") || !strings.Contains(user, "When is the meeting?") {
		t.Errorf("user message sent: %q", user)
	}
	list, err := a.Sessions.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions: %+v %v", list, err)
	}
	h, err := a.Sessions.History(list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	rec := h.Messages[0].Attachments
	if len(rec) != 2 || rec[0].Mode != "whole" || rec[1].Mode != "refused" || rec[1].Error != "attach.unsupported" {
		t.Errorf("records: %+v", rec)
	}
}
