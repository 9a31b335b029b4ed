package recall

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// MEMORY.md and USER.md are searched like any note (a line of MEMORY.md is
// what memory_search finds for it), but the recall block leaves them out:
// every request carries them in its system prompt already.
func TestMemoryAndUserFilesSearchable(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, MemoryFile, "# Memory\n\n- Allergic to hazelnuts.\n- Car: a green Volvo estate.")
	writeFile(t, ws, "USER.md", "# User\n\nName: Mira. Works night shifts at the observatory.")
	writeFile(t, ws, "memory/2026-01-04.md", "Bought hazelnut spread for the guests.")
	x := NewIndex(IndexOptions{Workspace: ws})
	r, err := x.Search(context.Background(), "green Volvo", 3)
	if err != nil || len(r.Hits) == 0 || r.Hits[0].Source != MemoryFile {
		t.Fatalf("MEMORY.md line not found first: %+v %v", r.Hits, err)
	}
	r, _ = x.Search(context.Background(), "observatory night shifts", 3)
	if len(r.Hits) == 0 || r.Hits[0].Source != "USER.md" {
		t.Fatalf("USER.md not found: %+v", r.Hits)
	}
	rc := &Recaller{Index: x, Block: BlockOptions{Enabled: true, MinScore: 0.1, MaxChars: 1500}}
	if b := rc.For(context.Background(), "s", "am I allergic to hazelnuts?"); strings.Contains(b, MemoryFile) || !strings.Contains(b, "hazelnut spread") {
		t.Errorf("block:\n%s", b)
	}
}

func newChat(t *testing.T, st *session.Store, id string, turns ...string) {
	t.Helper()
	if _, err := st.Create(session.CreateOptions{ID: id, Title: id}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(turns); i += 2 {
		if err := st.Append(id, session.MessageRecord("r", llm.Message{Role: llm.RoleUser, Content: turns[i]}),
			session.MessageRecord("r", llm.Message{Role: llm.RoleAssistant, Content: turns[i+1]})); err != nil {
			t.Fatal(err)
		}
	}
}

// Live chats are searched; the current chat's messages still in its window
// are not recalled into it, its older ones are.
func TestLiveChatsRecalledOutsideTheWindow(t *testing.T) {
	ws, sdir := t.TempDir(), t.TempDir()
	st := session.NewStore(sdir, session.Options{})
	newChat(t, st, "other", "What bread should I bake for the picnic?", "A rye sourdough with caraway seeds keeps well.")
	var turns []string
	turns = append(turns, "Remind me: the locker code at the swimming pool is 4471.", "Noted: the swimming pool locker code is 4471.")
	for i := range 6 {
		turns = append(turns, fmt.Sprintf("Unrelated question %d about the weather.", i), fmt.Sprintf("Answer %d: cloudy.", i))
	}
	turns = append(turns, "Which swimming pool lanes are free on Sunday?", "Lanes three and four are free on Sunday.")
	newChat(t, st, "cur", turns...)
	x := NewIndex(IndexOptions{Workspace: ws, SessionsDir: sdir})
	var w Windows
	rc := &Recaller{Index: x, Block: BlockOptions{Enabled: true, MinScore: 0.1, MaxChars: 1500}, InWindow: w.From}

	b := rc.For(context.Background(), "cur", "what was the caraway bread for the picnic?")
	if !strings.Contains(b, "(chat, ") || !strings.Contains(b, "caraway") {
		t.Errorf("another live chat not recalled:\n%s", b)
	}
	// Before the chat's first run here the whole chat counts as in the window.
	if b := rc.For(context.Background(), "cur", "swimming pool locker code"); strings.Contains(b, "4471") {
		t.Errorf("the current chat recalled into itself:\n%s", b)
	}
	// The last request kept messages from 12 on: the locker code (0–1) is
	// outside the window and recalled, the lanes (14–15) are not.
	w.Set("cur", 12)
	b = rc.For(context.Background(), "cur", "swimming pool locker code lanes")
	if !strings.Contains(b, "4471") || strings.Contains(b, "Lanes three") {
		t.Errorf("window not respected:\n%s", b)
	}
	// memory_search from the chat leaves its window out too.
	reg := tools.NewRegistry(tools.RegistryOptions{})
	reg.Register(SearchTool(x, ToolOptions{Tokens: 1000, InWindow: w.From}))
	ctx := tools.WithCall(context.Background(), tools.CallInfo{SessionID: "cur"})
	res := reg.Call(ctx, "memory_search", []byte(`{"query":"swimming pool locker lanes"}`))
	if !strings.Contains(res.Content, "4471") || strings.Contains(res.Content, "Lanes three") {
		t.Errorf("memory_search:\n%s", res.Content)
	}
}

// A budget is filled with whole chunks best first, distinct, and the last
// one cut to a passage at sentence ends; the total stays within the budget.
func TestSearchBudgetFillsWithDistinctPassages(t *testing.T) {
	ws := t.TempDir()
	long := strings.Repeat("Filler sentence about nothing in particular. ", 20) + "The harbour master said the ferry to Hvar leaves at seven. " +
		strings.Repeat("More filler about other things entirely. ", 20)
	writeFile(t, ws, HistoryFile, history("The ferry to Hvar was cancelled by the harbour master.", "Ferry to Hvar: the harbour master moved it."))
	writeFile(t, ws, "memory/2026-02-02.md", "The ferry to Hvar was cancelled by the harbour master.") // same fact again
	writeFile(t, ws, "notes/trip.md", long)
	x := NewIndex(IndexOptions{Workspace: ws})
	res, err := x.Find(context.Background(), Query{Text: "harbour master ferry Hvar", Tokens: 120, Distinct: true})
	if err != nil {
		t.Fatal(err)
	}
	total, seen := 0, map[string]bool{}
	for _, h := range res.Hits {
		total += len(h.Snippet) + hitOverhead(Chunk{Source: h.Source, Date: h.Date})
		key := strings.TrimPrefix(h.Snippet, h.Date)
		if seen[strings.TrimSpace(strings.TrimPrefix(key, "[] "))] {
			t.Errorf("duplicate hit %q", h.Snippet)
		}
		seen[key] = true
	}
	if total > 120*bytesPerToken {
		t.Errorf("hits take %d bytes, budget %d", total, 120*bytesPerToken)
	}
	dups := 0
	for _, h := range res.Hits {
		if strings.Contains(h.Snippet, "was cancelled by the harbour master") {
			dups++
		}
	}
	if dups != 1 {
		t.Errorf("the same fact %d times: %+v", dups, res.Hits)
	}
	// A long note is cut to the sentence that holds the answer.
	res, _ = x.Find(context.Background(), Query{Text: "when does the ferry leave, harbour master said", Tokens: 80})
	found := false
	for _, h := range res.Hits {
		if h.Source == "notes/trip.md" {
			found = true
			if !strings.Contains(h.Snippet, "The harbour master said the ferry to Hvar leaves at seven.") || len(h.Snippet) > 80*bytesPerToken {
				t.Errorf("passage %q", h.Snippet)
			}
		}
	}
	if !found {
		t.Errorf("long note not returned: %+v", res.Hits)
	}
	// Without a budget a hit is the whole chunk.
	res, _ = x.Search(context.Background(), "harbour master said the ferry leaves at seven", 5)
	for _, h := range res.Hits {
		if h.Source == "notes/trip.md" && len(h.Snippet) < 1000 {
			t.Errorf("whole chunk cut: %d bytes", len(h.Snippet))
		}
	}
}

func TestPassageCutsAtSentences(t *testing.T) {
	text := "One two three. Four five six! The answer is forty-two. Seven eight nine.\nTen eleven."
	for _, tc := range []struct {
		max  int
		want string
	}{
		{len(text), text},
		{40, "… The answer is forty-two. …"},
		{60, "… Four five six! The answer is forty-two. …"},
		{20, "… The answer …"},
	} {
		got := passage(text, []string{"answer", "forty"}, 0, tc.max)
		if got != tc.want || len(got) > tc.max {
			t.Errorf("max %d: %q, want %q", tc.max, got, tc.want)
		}
	}
}

// The block fills its size with several pieces of evidence, each dated and
// sourced, and is absent when nothing clears the threshold.
func TestRecallBlockFillsItsBudget(t *testing.T) {
	ws := t.TempDir()
	var entries []string
	for i := range 8 {
		entries = append(entries, fmt.Sprintf("Kayak trip %d on the Danube with Petra, paddled %d km.", i, 10+i))
	}
	writeFile(t, ws, HistoryFile, history(entries...))
	x := NewIndex(IndexOptions{Workspace: ws})
	rc := &Recaller{Index: x, Block: BlockOptions{Enabled: true, MinScore: 0.35, MaxChars: 700}}
	b := rc.For(context.Background(), "s", "kayak trips on the Danube with Petra")
	lines := strings.Count(b, "\n- (memory/HISTORY.md, 2026-01-")
	if lines < 5 || len(b) > 700 {
		t.Errorf("%d lines, %d chars:\n%s", lines, len(b), b)
	}
	if b := rc.For(context.Background(), "s", "quantum chromodynamics lecture"); b != "" {
		t.Errorf("block below the threshold: %q", b)
	}
}

// NoMore stops at K with the same hits: only the count of the rest goes.
func TestNoMoreSameHits(t *testing.T) {
	ws, dir := t.TempDir(), t.TempDir()
	var entries []string
	for i := range 30 {
		entries = append(entries, fmt.Sprintf("The heron fished at the weir, visit %d, with a note on otters number %d.", i, i*7))
	}
	writeFile(t, ws, HistoryFile, history(entries...))
	x := NewIndex(IndexOptions{Workspace: ws, Dir: dir})
	defer x.Close()
	q := Query{Text: "heron weir otters", K: 5, Distinct: true}
	all, err := x.Find(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	q.NoMore = true
	some, err := x.Find(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if all.More == 0 || some.More != 0 || !reflect.DeepEqual(all.Hits, some.Hits) {
		t.Errorf("without NoMore %d hits, %d more; with it %d hits, %d more", len(all.Hits), all.More, len(some.Hits), some.More)
	}
}

// A block too small for its hits at their usual cut holds more of them, cut
// shorter, and keeps the best ones' usual passages.
func TestBlockCutsShorterToHoldMoreHits(t *testing.T) {
	var hits []Hit
	for i := range 14 {
		text := fmt.Sprintf("User: Small talk number %d about the weather and the bus timetable again. "+
			"User: The fig tree %d needs repotting in spring, said the garden centre. "+
			"Assistant: Noted, I will remember the fig tree. User: More small talk about the week and the rain.", i, i)
		hits = append(hits, Hit{Source: fmt.Sprintf("sessions/c%d", i), Date: "2026-01-02", Snippet: text, Score: 0.9, Mode: ModeKeyword})
	}
	terms := []string{"fig", "tree", "repot"}
	const maxChars = 3000
	plain, n, all := layoutBlock(hits, terms, 0, maxChars, blockHitBytes(maxChars))
	if all {
		t.Fatalf("the test's hits fit whole; make them longer:\n%s", plain)
	}
	b := formatBlock(hits, terms, 0, maxChars)
	if len(b) > maxChars {
		t.Errorf("block of %d bytes, room %d", len(b), maxChars)
	}
	lines := strings.Count(b, "\n- (chat, ")
	if lines <= n {
		t.Errorf("%d hits, as many as the usual cut's %d:\n%s", lines, n, b)
	}
	first := strings.Split(b, "\n")[1]
	if !strings.Contains(first, "fig tree 0") || len(first) < blockHitBytes(maxChars)-40 {
		t.Errorf("the best hit lost its usual passage: %q", first)
	}
}
