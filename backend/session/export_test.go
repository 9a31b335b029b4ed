package session

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"hearth/backend/llm"
)

// exportFixture is a session with a finished run with tools, a failed run
// and an interrupted one.
func exportFixture(t *testing.T) (*Store, string) {
	t.Helper()
	s, _ := newTestStore(t)
	m := mustCreate(t, s, CreateOptions{ID: "20261122T040000-abcd0123", Model: "ollama/qwen3:4b"})
	result := "total 2\n```\nnot a fence\n```\n" + strings.Repeat("x", 400)
	mustAppend(t, s, m.ID, MessageRecord("r1", llm.Message{Role: llm.RoleUser, Content: "What files are here?", Images: [][]byte{{1, 2, 3}}}))
	mustAppend(t, s, m.ID,
		MessageRecord("r1", llm.Message{Role: llm.RoleAssistant, Reasoning: "I should list them.", ToolCalls: []llm.ToolCall{
			{ID: "c1", Name: "list_dir", Arguments: json.RawMessage(`{"path":".","depth":1}`)}}}),
		MessageRecord("r1", llm.Message{Role: llm.RoleTool, Content: result, ToolCallID: "c1", ToolName: "list_dir"}))
	mustAppend(t, s, m.ID, MessageRecord("r1", assistant("Two files.")), RunRecord(Run{ID: "r1", Status: StatusOK, Final: "Two files."}))
	mustAppend(t, s, m.ID, MessageRecord("r2", user("And now?")), RunRecord(Run{ID: "r2", Status: StatusError, Error: "model not found\n(pull it)"}))
	mustAppend(t, s, m.ID, MessageRecord("r3", user("Last try")))
	return s, m.ID
}

const wantMarkdown = "# What files are here?\n" +
	"\n" +
	"Session `20261122T040000-abcd0123` · created 2026-11-22 · model `ollama/qwen3:4b`\n" +
	"\n" +
	"## You · 2026-11-22 04:00\n" +
	"\n" +
	"What files are here?\n" +
	"\n" +
	"_[1 image(s) attached]_\n" +
	"\n" +
	"### Assistant · 2026-11-22 04:00\n" +
	"\n" +
	"<details><summary>Reasoning</summary>\n" +
	"\n" +
	"I should list them.\n" +
	"\n" +
	"</details>\n" +
	"\n" +
	"**Tool call** `list_dir`:\n" +
	"\n" +
	"```json\n" +
	"{\n" +
	"  \"path\": \".\",\n" +
	"  \"depth\": 1\n" +
	"}\n" +
	"```\n" +
	"\n" +
	"**Result** of `list_dir`:\n" +
	"\n" +
	"````text\n"

func TestExportMarkdown(t *testing.T) {
	s, id := exportFixture(t)
	var b bytes.Buffer
	if err := s.Export(id, FormatMarkdown, &b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if !strings.HasPrefix(md, wantMarkdown) {
		t.Fatalf("markdown starts\n%s\nwant\n%s", md[:min(len(md), len(wantMarkdown)+80)], wantMarkdown)
	}
	for _, want := range []string{
		"total 2\n```\nnot a fence\n```\nxxxx",
		"\n… (128 more characters)\n````\n",
		"\n### Assistant · 2026-11-22 04:00\n\nTwo files.\n",
		"\n## You · 2026-11-22 04:00\n\nAnd now?\n\n_Run failed: model not found (pull it)_\n",
		"\n## You · 2026-11-22 04:00\n\nLast try\n\n_Run interrupted: this turn did not finish._\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, strings.Repeat("x", 301)) {
		t.Error("tool result not shortened")
	}
}

func TestExportJSON(t *testing.T) {
	s, id := exportFixture(t)
	var b bytes.Buffer
	if err := s.Export(id, FormatJSON, &b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Format      string
		Meta        Meta
		Messages    []Entry
		Runs        []map[string]any
		Interrupted []string
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	sess := mustLoad(t, s, id)
	// Compact JSON on both sides: the export indents tool-call arguments.
	gotMsgs, _ := json.Marshal(doc.Messages)
	wantMsgs, _ := json.Marshal(sess.Entries)
	if doc.Format != "hearth.session/v1" || !reflect.DeepEqual(doc.Meta, sess.Meta) || !bytes.Equal(gotMsgs, wantMsgs) {
		t.Errorf("document differs from the session:\n%s", b.String())
	}
	if len(doc.Runs) != 2 || doc.Runs[1]["status"] != "error" || doc.Runs[0]["durationMs"] != 0.0 ||
		!reflect.DeepEqual(doc.Interrupted, []string{"r3"}) {
		t.Errorf("runs %v interrupted %v", doc.Runs, doc.Interrupted)
	}
	for _, want := range []string{`"images": [`, `"AQID"`, `"toolCalls": [`, `"reasoning": "I should list them."`, `"runId": "r1"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
	if err := s.Export(id, "pdf", &b); err == nil {
		t.Error("unknown format accepted")
	}
}

func TestExportEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, &Session{Meta: Meta{ID: "x"}}); err != nil || !strings.HasPrefix(b.String(), "# Untitled session\n") {
		t.Errorf("%q %v", b.String(), err)
	}
	b.Reset()
	if err := WriteJSON(&b, &Session{Meta: Meta{ID: "x"}}); err != nil || !strings.Contains(b.String(), `"messages": []`) {
		t.Errorf("%s %v", b.String(), err)
	}
}
