package prompt

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"hearth/backend/llm"
)

var testTools = []llm.ToolDef{
	{Name: "read_file", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
	{Name: "exec", Description: "Run a shell command.", Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)},
}

// textPool is random prose to slice messages from: generating every message
// rune by rune made the property test slow under -race.
type textPool struct {
	r          *rand.Rand
	ascii, cjk string
}

func newTextPool(r *rand.Rand) *textPool {
	var a, c strings.Builder
	for i := range 64 * 1024 {
		if i%7 == 6 {
			a.WriteByte(' ')
			c.WriteByte(' ')
			continue
		}
		a.WriteByte(byte('a' + r.IntN(26)))
		if i%3 == 0 {
			c.WriteRune(rune(0x4E00 + r.IntN(0x5000)))
		} else {
			c.WriteByte(byte('a' + r.IntN(26)))
		}
	}
	return &textPool{r: r, ascii: a.String(), cjk: c.String()}
}

// text returns about n bytes of prose, a quarter of the time with CJK mixed in.
func (p *textPool) text(n int) string {
	src := p.ascii
	if p.r.IntN(4) == 0 {
		src = p.cjk
	}
	n = min(n, len(src))
	i := p.r.IntN(len(src) - n + 1)
	j := i + n
	for i > 0 && !utf8.RuneStart(src[i]) {
		i--
	}
	for j < len(src) && !utf8.RuneStart(src[j]) {
		j++
	}
	return src[i:j]
}

// randHistory is a session of turns: a user message, rounds of assistant tool
// calls each answered by its results (some up to 50 KB), and a final answer.
// The last turn may be unfinished (a run in progress).
func randHistory(r *rand.Rand, p *textPool, turns int) []llm.Message {
	var h []llm.Message
	id := 0
	for t := range turns {
		h = append(h, llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("turn %d: %s", t, p.text(1+r.IntN(400)))})
		for range r.IntN(3) {
			n := 1 + r.IntN(3)
			call := llm.Message{Role: llm.RoleAssistant, Content: p.text(r.IntN(60))}
			if r.IntN(3) == 0 {
				call.Reasoning = p.text(r.IntN(3000))
			}
			for range n {
				id++
				call.ToolCalls = append(call.ToolCalls, llm.ToolCall{ID: fmt.Sprintf("c%d", id), Name: "read_file", Arguments: json.RawMessage(`{"path":"a.txt"}`)})
			}
			h = append(h, call)
			for _, tc := range call.ToolCalls {
				size := r.IntN(2000)
				if r.IntN(5) == 0 {
					size = r.IntN(50 * 1024)
				}
				h = append(h, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, ToolName: tc.Name, Content: p.text(size)})
			}
		}
		if t < turns-1 || r.IntN(2) == 0 {
			h = append(h, llm.Message{Role: llm.RoleAssistant, Content: p.text(r.IntN(800))})
		}
	}
	return h
}

func cloneHistory(h []llm.Message) []llm.Message {
	out := make([]llm.Message, len(h))
	for i, m := range h {
		m.ToolCalls = append([]llm.ToolCall(nil), m.ToolCalls...)
		out[i] = m
	}
	return out
}

// checkFit asserts every promise Fit makes about a result.
func checkFit(t *testing.T, c Counter, system string, tools []llm.ToolDef, history []llm.Message, ctx, reply int, f Fit) {
	t.Helper()
	if f.Reply > reply || f.Reply < ReplyFloor(ctx, reply) || (f.Reply < reply) != (f.Shed.ReplyFrom == reply) {
		t.Fatalf("reply reserve %d (shed from %d): want %d down to the floor %d", f.Reply, f.Shed.ReplyFrom, reply, ReplyFloor(ctx, reply))
	}
	if f.Tokens > f.Budget || f.Budget != budgetFor(ctx, f.Reply) {
		t.Fatalf("tokens %d over budget %d (context %d − reply %d)", f.Tokens, f.Budget, ctx, f.Reply)
	}
	if f.Reply < reply && f.Tokens <= budgetFor(ctx, f.Reply+1) {
		t.Fatalf("reply reserve lowered to %d although %d tokens fit beside %d", f.Reply, f.Tokens, f.Reply+1)
	}
	if got := c.Request(system, f.Tools, f.Messages); got != f.Tokens {
		t.Fatalf("reported tokens %d, re-estimated %d", f.Tokens, got)
	}
	if got := (Counter{}).Request(system, f.Tools, f.Messages); got != f.RawTokens {
		t.Fatalf("reported raw tokens %d, re-estimated %d", f.RawTokens, got)
	}
	checkTools(t, tools, history, f)
	if f.Dropped != f.FirstKept || f.Dropped+len(f.Messages) != len(history) {
		t.Fatalf("dropped %d, first kept %d, kept %d of %d", f.Dropped, f.FirstKept, len(f.Messages), len(history))
	}
	lastUser := -1
	for i, m := range history {
		if m.Role == llm.RoleUser {
			lastUser = i
		}
	}
	if f.FirstKept > 0 && f.FirstKept < len(history) && history[f.FirstKept].Role != llm.RoleUser {
		// Only orphan tool results of a history without a user message may go.
		for _, m := range history[:f.FirstKept] {
			if lastUser >= 0 || m.Role != llm.RoleTool {
				t.Fatalf("cut inside a turn: first kept message is %s", history[f.FirstKept].Role)
			}
		}
	}
	if lastUser >= 0 && f.FirstKept > lastUser {
		t.Fatal("the current user message was dropped")
	}
	// Nothing was dropped that would have fitted: the turn before the first
	// kept one would overflow. (Once tools are shortened or left out, older
	// turns stay out: they come before tools in the fit order.)
	if f.FirstKept > 0 && !f.Truncated && f.Omitted == 0 && len(f.Shed.Shortened) == 0 && len(f.Shed.Tools) == 0 {
		prev := f.FirstKept - 1
		for prev > 0 && history[prev].Role != llm.RoleUser {
			prev--
		}
		if prev == 0 && history[0].Role == llm.RoleTool {
			return // an orphan fragment is always dropped
		}
		more := f.Tokens
		for _, m := range history[prev:f.FirstKept] {
			more += c.Message(sendable(m, true))
		}
		if more <= f.Budget {
			t.Fatalf("dropped a turn that fits: %d tokens with it, budget %d", more, f.Budget)
		}
	}
	calls := map[string]bool{}
	for i, m := range f.Messages {
		h := history[f.FirstKept+i]
		if m.Role != h.Role || m.ToolCallID != h.ToolCallID || !reflect.DeepEqual(m.ToolCalls, h.ToolCalls) {
			t.Fatalf("message %d changed beyond its content", i)
		}
		withRecall := m.Role == llm.RoleUser && strings.HasSuffix(m.Content, "\n\n"+h.Content)
		if m.Content != h.Content && !withRecall && !f.Truncated && f.Omitted == 0 {
			t.Fatalf("message %d content changed without Truncated/Omitted", i)
		}
		for _, tc := range m.ToolCalls {
			calls[tc.ID] = true
		}
		if m.Role == llm.RoleTool && !calls[m.ToolCallID] {
			t.Fatalf("tool result %s sent without its call", m.ToolCallID)
		}
	}
}

// TestFitProperty fits many random histories (up to 100 turns, tool outputs up
// to 50 KB) into random windows: no result may exceed its budget or break a
// turn, and the current user message is always sent.
func TestFitProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pool := newTextPool(r)
	system := strings.Repeat("You are Hearth. ", 100)
	windows := []int{2048, 4096, 8192, 32768}
	var noRoom, dropped, truncated, omitted int
	for iter := range 150 {
		history := randHistory(r, pool, 1+r.IntN(100))
		if r.IntN(4) == 0 {
			// The session's window may cut a turn: start anywhere.
			history = history[r.IntN(len(history)):]
		}
		orig := cloneHistory(history)
		ctx := windows[r.IntN(len(windows))]
		reply := 256 + r.IntN(ctx/4)
		c := Counter{Ratio: []float64{0, 0.7, 1, 1.6}[r.IntN(4)]}
		msgs := history
		if r.IntN(2) == 0 {
			msgs = CompactToolResults(history, KeepToolResults)
		}
		f, err := c.Fit(Request{System: system, Tools: testTools, History: msgs, Window: ctx, Reply: reply})
		if err != nil {
			if !errors.Is(err, ErrNoRoom) {
				t.Fatalf("iter %d: unexpected error %v", iter, err)
			}
			t.Logf("iter %d: %v", iter, err)
			noRoom++
			continue
		}
		checkFit(t, c, system, testTools, msgs, ctx, reply, f)
		if f.Dropped > 0 {
			dropped++
		}
		if f.Truncated {
			truncated++
		}
		if f.Omitted > 0 {
			omitted++
		}
		if !reflect.DeepEqual(history, orig) {
			t.Fatalf("iter %d: Fit or compaction modified the history", iter)
		}
	}
	t.Logf("150 histories: %d dropped turns, %d omitted results, %d truncated, %d no room", dropped, omitted, truncated, noRoom)
	if dropped == 0 || truncated == 0 || omitted == 0 {
		t.Error("the random histories no longer exercise every path of Fit")
	}
}

func TestFitKeepsEverythingThatFits(t *testing.T) {
	h := []llm.Message{
		{Role: llm.RoleUser, Content: "hi"},
		{Role: llm.RoleAssistant, Content: "hello"},
		{Role: llm.RoleUser, Content: "how are you?"},
	}
	f, err := Counter{}.Fit(Request{System: "sys", History: h, Window: 8192, Reply: 2048})
	if err != nil || len(f.Messages) != 3 || f.Dropped != 0 || f.Truncated {
		t.Fatalf("fit = %+v, %v", f, err)
	}
}

func TestFitDropsOldestWholeTurns(t *testing.T) {
	big := strings.Repeat("word ", 800) // ~1000 tokens
	var h []llm.Message
	for i := range 10 {
		h = append(h,
			llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("question %d", i)},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: fmt.Sprint(i), Name: "read_file", Arguments: json.RawMessage(`{}`)}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: fmt.Sprint(i), ToolName: "read_file", Content: big},
			llm.Message{Role: llm.RoleAssistant, Content: "done"},
		)
	}
	h = append(h, llm.Message{Role: llm.RoleUser, Content: "last question"})
	f, err := Counter{}.Fit(Request{System: "sys", Tools: testTools, History: h, Window: 4096, Reply: 1024})
	if err != nil {
		t.Fatal(err)
	}
	checkFit(t, Counter{}, "sys", testTools, h, 4096, 1024, f)
	if f.Dropped == 0 || f.Dropped%4 != 0 || len(f.Messages) < 5 {
		t.Fatalf("dropped %d, kept %d: want whole 4-message turns dropped and some kept", f.Dropped, len(f.Messages))
	}
	if f.Messages[len(f.Messages)-1].Content != "last question" || f.Truncated {
		t.Fatal("last question not kept intact")
	}
}

func TestFitTruncatesHugeCurrentMessage(t *testing.T) {
	head, tail := "START of the question. ", " END [Runtime Context]"
	h := []llm.Message{
		{Role: llm.RoleUser, Content: "older"},
		{Role: llm.RoleAssistant, Content: "answer"},
		{Role: llm.RoleUser, Content: head + strings.Repeat("x", 60000) + tail},
	}
	f, err := Counter{}.Fit(Request{System: "sys", Tools: testTools, History: h, Window: 4096, Reply: 1024})
	if err != nil {
		t.Fatal(err)
	}
	checkFit(t, Counter{}, "sys", testTools, h, 4096, 1024, f)
	got := f.Messages[len(f.Messages)-1].Content
	if !f.Truncated || f.Dropped != 2 || !strings.HasPrefix(got, head) || !strings.HasSuffix(got, tail) ||
		!strings.Contains(got, "chars cut from the middle to fit the context window") {
		t.Fatalf("truncated=%v dropped=%d content %q…%q", f.Truncated, f.Dropped, got[:40], got[len(got)-40:])
	}
	if f.Tokens < f.Budget*3/4 {
		t.Errorf("cut too much: %d tokens of %d", f.Tokens, f.Budget)
	}
}

func TestFitShrinksCurrentTurnToolResults(t *testing.T) {
	h := []llm.Message{{Role: llm.RoleUser, Content: "summarise the logs"}}
	for i := range 6 {
		id := fmt.Sprint(i)
		h = append(h,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "read_file", Arguments: json.RawMessage(`{}`)}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, Content: strings.Repeat("log line\n", 1000)},
		)
	}
	f, err := Counter{}.Fit(Request{System: "sys", History: h, Window: 8192, Reply: 2048})
	if err != nil {
		t.Fatal(err)
	}
	checkFit(t, Counter{}, "sys", nil, h, 8192, 2048, f)
	if f.Omitted == 0 || f.Messages[0].Content != "summarise the logs" {
		t.Fatalf("omitted %d, first %q", f.Omitted, f.Messages[0].Content)
	}
	if got := f.Messages[2].Content; got != ToolPlaceholder("read_file", 9000) {
		t.Errorf("placeholder = %q (name taken from the call)", got)
	}
	if newest := f.Messages[len(f.Messages)-1].Content; strings.HasPrefix(newest, "[tool result of") {
		t.Error("the newest tool result was replaced")
	}
}

func TestFitDropsReasoningOfEarlierTurns(t *testing.T) {
	h := []llm.Message{
		{Role: llm.RoleUser, Content: "first"},
		{Role: llm.RoleAssistant, Content: "one", Reasoning: strings.Repeat("think ", 500)},
		{Role: llm.RoleUser, Content: "second"},
		{Role: llm.RoleAssistant, Reasoning: "I should read it.", ToolCalls: []llm.ToolCall{{ID: "1", Name: "read_file", Arguments: json.RawMessage(`{}`)}}},
		{Role: llm.RoleTool, ToolCallID: "1", Content: "text"},
	}
	orig := cloneHistory(h)
	f, err := Counter{}.Fit(Request{System: "sys", History: h, Window: 8192, Reply: 1024})
	if err != nil {
		t.Fatal(err)
	}
	checkFit(t, Counter{}, "sys", nil, h, 8192, 1024, f)
	if f.Messages[1].Reasoning != "" || f.Messages[3].Reasoning != "I should read it." {
		t.Fatalf("reasoning sent: earlier %q, current %q", f.Messages[1].Reasoning, f.Messages[3].Reasoning)
	}
	if !reflect.DeepEqual(h, orig) {
		t.Fatal("history modified")
	}
}

func TestFitDropsCurrentReasoningWhenTooBig(t *testing.T) {
	h := []llm.Message{
		{Role: llm.RoleUser, Content: "fix the bug"},
		{Role: llm.RoleAssistant, Reasoning: strings.Repeat("hmm ", 8000), ToolCalls: []llm.ToolCall{{ID: "1", Name: "read_file", Arguments: json.RawMessage(`{}`)}}},
		{Role: llm.RoleTool, ToolCallID: "1", Content: "package main"},
	}
	f, err := Counter{}.Fit(Request{System: "sys", History: h, Window: 4096, Reply: 1024})
	if err != nil {
		t.Fatal(err)
	}
	checkFit(t, Counter{}, "sys", nil, h, 4096, 1024, f)
	if !f.Truncated || f.Messages[1].Reasoning != "" || f.Messages[0].Content != "fix the bug" || f.Messages[2].Content != "package main" {
		t.Fatalf("want only the reasoning dropped: %+v", f)
	}
}

func TestFitNoRoom(t *testing.T) {
	_, err := Counter{}.Fit(Request{System: strings.Repeat("a", 40000), Window: 4096, Reply: 1024})
	var nr *NoRoomError
	if !errors.As(err, &nr) || !errors.Is(err, ErrNoRoom) || len(nr.Advice(0)) == 0 {
		t.Fatalf("huge system prompt: err = %v", err)
	}
	// A reply limit larger than the window is lowered, not a failure.
	f, err := Counter{}.Fit(Request{System: "sys", Window: 1024, Reply: 2048})
	if err != nil || f.Reply >= 1024 || f.Reply < MinReplyFloor || f.Shed.ReplyFrom != 2048 {
		t.Fatalf("reply larger than context: reply %d, %v", f.Reply, err)
	}
	// Many images cannot be cut down.
	imgs := make([][]byte, 20)
	f, err = Counter{}.Fit(Request{System: "sys", History: []llm.Message{{Role: llm.RoleUser, Content: "look", Images: imgs}}, Window: 8192, Reply: 1024})
	if !errors.Is(err, ErrNoRoom) || f.Messages != nil {
		t.Fatalf("20 images: err = %v", err)
	}
}

func TestFitDropsOrphanToolResults(t *testing.T) {
	h := []llm.Message{
		{Role: llm.RoleTool, ToolCallID: "gone", Content: "result of a call cut off by the window"},
		{Role: llm.RoleAssistant, Content: "done"},
		{Role: llm.RoleUser, Content: "next"},
	}
	f, err := Counter{}.Fit(Request{System: "sys", History: h, Window: 8192, Reply: 1024})
	if err != nil || f.Dropped != 2 || f.Messages[0].Content != "next" {
		t.Fatalf("orphan fragment kept: %+v %v", f, err)
	}
	f, err = Counter{}.Fit(Request{System: "sys", History: h[:2], Window: 8192, Reply: 1024})
	if err != nil || f.Dropped != 1 || f.Messages[0].Content != "done" {
		t.Fatalf("orphan at the start of a history without user message kept: %+v %v", f, err)
	}
}

func TestFitWithoutUserMessage(t *testing.T) {
	h := []llm.Message{
		{Role: llm.RoleAssistant, Content: strings.Repeat("a", 40000)},
		{Role: llm.RoleAssistant, Content: "short"},
	}
	f, err := Counter{}.Fit(Request{System: "sys", History: h, Window: 4096, Reply: 1024})
	if err != nil {
		t.Fatal(err)
	}
	checkFit(t, Counter{}, "sys", nil, h, 4096, 1024, f)
	if f.Dropped != 0 || !f.Truncated {
		t.Fatalf("dropped %d truncated %v: a history without a user message is all current turn", f.Dropped, f.Truncated)
	}
	if f, err := (Counter{}).Fit(Request{System: "sys", Window: 4096, Reply: 1024}); err != nil || len(f.Messages) != 0 {
		t.Fatalf("empty history: %+v %v", f, err)
	}
}

func TestTruncateMiddleUTF8(t *testing.T) {
	s := strings.Repeat("记忆é🙂", 2000)
	got := truncateMiddle(s, 200, Counter{})
	if !strings.Contains(got, "chars cut") || EstimateText(got) > 200 {
		t.Fatalf("estimate %d", EstimateText(got))
	}
	if !strings.HasPrefix(got, "记忆") || !strings.HasSuffix(got, "🙂") || !isValidUTF8(got) {
		t.Fatal("cut broke a rune or lost the ends")
	}
}

func isValidUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// RecallRoom is what a fresh chat's window leaves the block, a bounded share
// taken from older turns when the history does not fit whole (a long chat
// still gets its block, and keeps it through Fit); TurnRoom shrinks as the
// turn grows.
func TestRecallAndTurnRoom(t *testing.T) {
	user := llm.Message{Role: llm.RoleUser, Content: "what did I plan for the weekend?"}
	req := Request{System: strings.Repeat("You are Hearth. ", 100), History: []llm.Message{user}, Window: 8192, Reply: 2048}
	room := Counter{}.RecallRoom(req)
	if room < 1000 || room > 8192/2 {
		t.Fatalf("recall room %d", room)
	}
	long := req
	for range 40 {
		long.History = append([]llm.Message{{Role: llm.RoleUser, Content: strings.Repeat("older words ", 100)},
			{Role: llm.RoleAssistant, Content: "ok"}}, long.History...)
	}
	budget := budgetFor(8192, ReplyFloor(8192, 2048))
	r := Counter{}.RecallRoom(long)
	if r <= 0 || r > longChatRecall(budget) {
		t.Fatalf("recall room %d beside a history that does not fit (at most %d)", r, longChatRecall(budget))
	}
	// A block of that size is kept: older turns make way for it.
	long.Recall = "[Possibly relevant history]\n- " + strings.Repeat("w ", r*3/2) + "\n[End]"
	lf, err := Counter{}.Fit(long)
	if err != nil || lf.Shed.Recall || lf.Shed.Turns == 0 || !strings.HasPrefix(lastUser(lf.Messages), "[Possibly relevant history]") {
		t.Fatalf("long chat: block shed %v, turns left out %d, err %v", lf.Shed.Recall, lf.Shed.Turns, err)
	}
	// One bigger than the long-chat share goes before more turns do.
	long.Recall = "[Possibly relevant history]\n- " + strings.Repeat("w ", budget) + "\n[End]"
	if lf, err := (Counter{}).Fit(long); err != nil || !lf.Shed.Recall {
		t.Fatalf("an oversized block kept in a long chat: %v %v", lf.Shed, err)
	}
	f1, err := Counter{}.Fit(req)
	if err != nil {
		t.Fatal(err)
	}
	grown := req
	grown.History = append(grown.History, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1", Name: "memory_search"}}},
		llm.Message{Role: llm.RoleTool, ToolCallID: "1", Content: strings.Repeat("a passage ", 200)})
	f2, err := Counter{}.Fit(grown)
	if err != nil {
		t.Fatal(err)
	}
	if f1.TurnRoom <= 0 || f2.TurnRoom >= f1.TurnRoom || f1.Tokens+f1.TurnRoom > budgetFor(8192, ReplyFloor(8192, 2048)) {
		t.Errorf("turn room %d then %d (tokens %d)", f1.TurnRoom, f2.TurnRoom, f1.Tokens)
	}
}
