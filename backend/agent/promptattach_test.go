package agent

import (
	"context"
	"strings"
	"testing"

	"hearth/backend/agent/prompt"
	"hearth/backend/i18n"
	"hearth/backend/internal/fakeollama"
	"hearth/backend/llm"
)

// The attachment block goes before the recall block on the current user message,
// takes its room first (the recall block gets what is left), is given the
// message's own attachments, and its notes come back as information, not warnings.
func TestPromptContextAttachmentBlockComesFirst(t *testing.T) {
	var gotCurrent []Attachment
	var attachRoom, recallRoom int
	p := &PromptContext{
		System:    func() (string, error) { return "You are Hearth.", nil },
		Estimator: prompt.NewEstimator(),
		Attach: func(_ context.Context, id, text string, current []Attachment, room int) (string, []i18n.Message) {
			gotCurrent, attachRoom = current, room
			return "Attached file memo.txt:\n" + strings.Repeat("word ", 200), []i18n.Message{i18n.M("notice.attachWhole", "name", "memo.txt")}
		},
		Recall: func(_ context.Context, _, _ string, room int) string {
			recallRoom = room
			return "[recalled]"
		},
	}
	hist := turns(2)
	hist[len(hist)-1].Attachments = []llm.Attachment{{Name: "memo.txt", File: "memo.txt", Mode: "whole", Bytes: 1000}}
	out, err := p.Build(context.Background(), ContextInput{SessionID: "c", Model: "ollama/qwen3:4b", History: hist, ContextLimit: 4096, ReplyTokens: 512})
	if err != nil {
		t.Fatal(err)
	}
	last := out.Messages[len(out.Messages)-1].Content
	if !strings.HasPrefix(last, "Attached file memo.txt:") || !strings.Contains(last, "[recalled]\n\nquestion b") {
		t.Errorf("current message: %.200q", last)
	}
	if len(gotCurrent) != 1 || gotCurrent[0].Name != "memo.txt" {
		t.Errorf("current attachments: %+v", gotCurrent)
	}
	if attachRoom <= 0 || recallRoom >= attachRoom || recallRoom < 0 {
		t.Errorf("rooms: attach %d, recall %d", attachRoom, recallRoom)
	}
	if len(out.Notes) != 1 || out.Notes[0].Code != "notice.attachWhole" || len(out.Notices) != 0 {
		t.Errorf("notes %+v, notices %+v", out.Notes, out.Notices)
	}
	if hist[len(hist)-1].Content != "question b" {
		t.Error("the stored history was changed")
	}
}

// The attachment tools are offered only once the chat has an attachment.
func TestAttachToolsOnlyInChatsWithAttachments(t *testing.T) {
	p := &PromptContext{System: func() (string, error) { return "", nil }, Estimator: prompt.NewEstimator(),
		AttachTools: []string{"attachment_search", "read_attachment"}}
	defs := []llm.ToolDef{{Name: "read_file"}, {Name: "attachment_search"}, {Name: "read_attachment"}}
	names := func(hist []llm.Message) []string {
		out, err := p.Build(context.Background(), ContextInput{SessionID: "c", Model: "ollama/qwen3:4b", History: hist, Tools: defs, ContextLimit: 8192, ReplyTokens: 512})
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, d := range out.Tools {
			n = append(n, d.Name)
		}
		return n
	}
	hist := turns(2)
	if got := names(hist); strings.Join(got, ",") != "read_file" {
		t.Errorf("a chat without attachments is offered %v", got)
	}
	hist[0].Attachments = []llm.Attachment{{Name: "a.txt", Mode: "searched"}}
	if got := names(hist); len(got) != 3 {
		t.Errorf("a chat with an attachment is offered %v", got)
	}
	if len(defs) != 3 {
		t.Error("the caller's definitions were changed")
	}
}

// An edited question keeps the files it came with.
func TestEditKeepsTheQuestionsAttachments(t *testing.T) {
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "A1"}, {Content: "A1 edited"}}})
	files := []llm.Attachment{{Name: "memo.txt", File: "memo.txt", Mode: "whole", Bytes: 5}}
	res, _ := h.do(Request{Text: "Q1", Attachments: files})
	if res2, _ := h.do(Request{SessionID: res.SessionID, Edit: 1, Text: "Q1 better"}); res2.Final != "A1 edited" {
		t.Fatalf("%+v", res2)
	}
	sess, err := h.store.Load(res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if e := sess.Entries[0]; e.Content != "Q1 better" || len(e.Attachments) != 1 || e.Attachments[0].Name != "memo.txt" {
		t.Errorf("edited question: %+v", e)
	}
}

// The notes told about a message's attachments are kept on the run's line, once
// each however many rounds the turn takes, so the chat opened again shows them.
func TestRunLineKeepsAttachmentNotes(t *testing.T) {
	p := &PromptContext{
		System:    func() (string, error) { return "You are Hearth.", nil },
		Estimator: prompt.NewEstimator(),
		Attach: func(_ context.Context, _, _ string, current []Attachment, _ int) (string, []i18n.Message) {
			if len(current) == 0 {
				return "", nil
			}
			return "Attached file memo.txt:\nhello", []i18n.Message{i18n.M("notice.attachWhole", "name", "memo.txt")}
		},
	}
	h := newHarness(t, fakeollama.Script{Replies: []fakeollama.Reply{{Content: "It says hello."}, {Content: "Nothing else."}}},
		func(o *Options) { o.Context = p })
	files := []llm.Attachment{{Name: "memo.txt", File: "memo.txt", Mode: "whole", Bytes: 5}}
	res, _ := h.do(Request{Text: "What does it say?", Attachments: files})
	if _, _ = h.do(Request{SessionID: res.SessionID, Text: "Anything else?"}); res.Final != "It says hello." {
		t.Fatalf("%+v", res)
	}
	sess, err := h.store.Load(res.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Runs) != 2 {
		t.Fatalf("runs %+v", sess.Runs)
	}
	n := sess.Runs[0].Notes
	if len(n) != 1 || n[0].Code != "notice.attachWhole" || n[0].Args["name"] != "memo.txt" || n[0].Message != "memo.txt: whole" || n[0].Level != "info" {
		t.Errorf("first run's notes %+v", n)
	}
	if sess.Runs[1].Notes != nil {
		t.Errorf("a message without files kept notes %+v", sess.Runs[1].Notes)
	}
}
