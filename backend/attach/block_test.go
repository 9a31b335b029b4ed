package attach

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/backend/extract"
	"hearth/backend/tools"
)

func TestSplitKeepsPlacesAndBounds(t *testing.T) {
	doc := &extract.Doc{Pages: []extract.Page{{Line: 1, Text: "one\ntwo\n\n" + strings.Repeat("word ", 600) + "\nlast line\n"}}}
	ps := Split("a.txt", doc)
	if len(ps) < 3 || ps[0].Line != 1 || !strings.HasPrefix(ps[0].Text, "one") {
		t.Fatalf("passages: %+v", ps[:1])
	}
	for _, p := range ps {
		if len(p.Text) > passageBytes {
			t.Errorf("passage of %d bytes", len(p.Text))
		}
	}
	if last := ps[len(ps)-1]; last.Line < 4 || !strings.Contains(last.Text, "last line") {
		t.Errorf("last passage: %+v", last)
	}
	pdf := &extract.Doc{Pages: []extract.Page{{N: 1, Text: "first"}, {N: 2, Text: "second"}}}
	if ps := Split("r.pdf", pdf); len(ps) != 2 || ps[1].Where() != "r.pdf p. 2" {
		t.Errorf("pages: %+v", ps)
	}
}

func TestBlockWholeCutAndSearched(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	small := s.Add("c", []Source{{Name: "memo.txt", Data: []byte("The meeting moved to Thursday.\n")}})
	block, notes := s.Block(ctx, "c", "when is the meeting?", small, 1000)
	if !strings.Contains(block, "Attached file memo.txt") || !strings.Contains(block, "Thursday") {
		t.Errorf("whole block: %q", block)
	}
	if len(notes) != 1 || notes[0].Code != "notice.attachWhole" {
		t.Errorf("notes: %+v", notes)
	}
	// Nearly fits: its start, cut at a line end, saying so.
	var long strings.Builder
	for i := range 100 {
		long.WriteString("Line " + strings.Repeat("x", 30) + " number " + string(rune('a'+i%26)) + "\n")
	}
	mid := s.Add("c", []Source{{Name: "long.txt", Data: []byte(long.String())}})
	room := len(long.String()) / 4 * 9 / 10
	block, notes = s.Block(ctx, "c", "anything", mid, room)
	if !strings.Contains(block, "is left out") || len(block) > room*4 || notes[0].Code != "notice.attachCut" {
		t.Errorf("cut block (%d bytes, room %d): %+v", len(block), room*4, notes)
	}
	// Too big: searched, the relevant passage given.
	name, data := pagedDoc(200)
	big := s.Add("c", []Source{{Name: name, Data: data}})
	block, notes = s.Block(ctx, "c", "Where is the harbour toll paid?", big, 800)
	if !strings.Contains(block, "amber tokens") || !strings.Contains(block, "[ledger.txt line ") {
		t.Errorf("searched block: %q", block)
	}
	if notes[0].Code != "notice.attachSearched" || notes[0].Args["passages"] == "" {
		t.Errorf("notes: %+v", notes)
	}
	if len(block) > 800*4 {
		t.Errorf("block over its room: %d bytes", len(block))
	}
	// A later message of the chat gets the relevant passages of every file.
	block, notes = s.Block(ctx, "c", "which day is the meeting", nil, 800)
	if !strings.Contains(block, "Thursday") || len(notes) != 0 {
		t.Errorf("later message: %q %+v", block, notes)
	}
	// Another chat's files are never given.
	if block, _ := s.Block(ctx, "other", "harbour toll", nil, 800); block != "" {
		t.Errorf("another chat got: %q", block)
	}
	if block, _ := s.Block(ctx, "c", "harbour", nil, 0); block != "" {
		t.Errorf("no room, yet: %q", block)
	}
}

func TestToolsSearchAndRead(t *testing.T) {
	s, _ := newStore(t)
	name, data := pagedDoc(200)
	s.Add("c", []Source{{Name: name, Data: data}})
	ts := s.Tools()
	reg := tools.NewRegistry(tools.RegistryOptions{})
	for _, tl := range ts {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	call := func(sid, tool string, args any) string {
		t.Helper()
		b, _ := json.Marshal(args)
		ctx := tools.WithCall(context.Background(), tools.CallInfo{SessionID: sid})
		res := reg.Call(ctx, tool, b)
		return res.Content
	}
	out := call("c", "attachment_search", map[string]any{"query": "harbour toll amber"})
	if !strings.HasPrefix(out, "1. [ledger.txt line ") || !strings.Contains(out, "lighthouse gate") {
		t.Errorf("search: %q", out)
	}
	if out := call("elsewhere", "attachment_search", map[string]any{"query": "harbour"}); !strings.Contains(out, "no attached files") {
		t.Errorf("another chat: %q", out)
	}
	out = call("c", "read_attachment", map[string]any{"name": "ledger.txt", "from": 3, "to": 4})
	if !strings.HasPrefix(out, "[ledger.txt lines 3-4 of ") || !strings.Contains(out, "Page 1 line 0") {
		t.Errorf("read: %q", out)
	}
	if out := call("c", "read_attachment", map[string]any{"name": "../secret.txt"}); !strings.Contains(out, "no attached file") {
		t.Errorf("read outside: %q", out)
	}
	if out := call("c", "read_attachment", map[string]any{"name": "ledger.txt", "from": 1, "to": 100000}); len(out) > maxReadChars+200 {
		t.Errorf("read unbounded: %d", len(out))
	}
}

func FuzzSafeName(f *testing.F) {
	for _, s := range []string{"a.txt", "../../x", "..", "", "\x00", strings.Repeat("é", 200) + ".pdf", "a\\b\\c.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		n := SafeName(name)
		if n == "" || len(n) > maxNameBytes || strings.ContainsAny(n, "/\x00") || n[0] == '.' {
			t.Fatalf("SafeName(%q) = %q", name, n)
		}
	})
}

func FuzzSplit(f *testing.F) {
	f.Add("a\n\nb\nc", 1)
	f.Add(strings.Repeat("x", 3000), 0)
	f.Fuzz(func(t *testing.T, text string, page int) {
		page = max(0, page%1000)
		doc := &extract.Doc{Pages: []extract.Page{{N: page, Line: 1, Text: text}}}
		total := 0
		for _, p := range Split("f.txt", doc) {
			if len(p.Text) > passageBytes || p.Text == "" {
				t.Fatalf("passage %q", p.Text)
			}
			total += len(p.Text)
		}
		if total > len(text) {
			t.Fatalf("passages hold %d bytes of %d", total, len(text))
		}
	})
}

// FuzzPassagesFile reads a passages file as found in a chat's folder (damaged, or
// planted): the chat's block and tools never fail on it.
func FuzzPassagesFile(f *testing.F) {
	f.Add([]byte(`[{"file":"a.txt","line":1,"text":"alpha beta"}]`), "alpha")
	f.Add([]byte(`[{"file":"../x","page":-3,"text":""}]`), "x")
	f.Add([]byte(`{"not":"a list"}`), "")
	f.Fuzz(func(t *testing.T, blob []byte, query string) {
		s, dir := newStore(t)
		chat := filepath.Join(dir, "c")
		if err := os.MkdirAll(chat, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(chat, passagesName("a.txt")), blob, 0o600); err != nil {
			t.Fatal(err)
		}
		block, _ := s.Block(context.Background(), "c", query, nil, 500)
		if len(block) > 500*4 {
			t.Fatalf("block of %d bytes", len(block))
		}
		for _, f := range s.Files("c") {
			if f != "a.txt" {
				t.Fatalf("file %q from a passages file", f)
			}
		}
	})
}
