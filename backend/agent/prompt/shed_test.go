package prompt

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"hearth/backend/llm"
)

// manyTools are the core tools and some optional ones with long
// descriptions and documented parameters, like a real tool list with an MCP
// server.
var manyTools = func() []llm.ToolDef {
	def := func(name, desc, short string) llm.ToolDef {
		params := fmt.Sprintf(`{"type":"object","properties":{"path":{"type":"string","description":%q,"title":"Path"},"description":{"type":"string","description":"a property named description stays"}},"required":["path"]}`,
			strings.Repeat("what the path means for "+name+". ", 4))
		return llm.ToolDef{Name: name, Description: desc, Short: short, Parameters: json.RawMessage(params)}
	}
	long := func(s string) string {
		return s + " " + strings.Repeat("More details about how it works and when to use it. ", 6)
	}
	return []llm.ToolDef{
		def("edit_file", long("Replace exact text in a file."), "Replace text in a file."),
		def("exec", long("Run a shell command."), "Run a shell command."),
		def("read_file", long("Read a text file."), "Read a file."),
		def("cron", long("Reminders: add, list or remove."), "Manage reminders."),
		def("web_search", long("Search the web for pages."), "Search the web."),
		def("mcp_notes_find", long("Find notes in the notes app by title."), ""),
		def("spawn", long("Run a task in the background."), "Run a background task."),
	}
}()

// checkTools asserts what Fit promises about the tools it sends.
func checkTools(t *testing.T, tools []llm.ToolDef, history []llm.Message, f Fit) {
	t.Helper()
	byName := map[string]llm.ToolDef{}
	for _, tl := range tools {
		byName[tl.Name] = tl
	}
	sent := map[string]bool{}
	prev := -1
	for _, tl := range f.Tools {
		orig, ok := byName[tl.Name]
		if !ok {
			t.Fatalf("sent tool %s that was not offered", tl.Name)
		}
		idx := slices.IndexFunc(tools, func(x llm.ToolDef) bool { return x.Name == tl.Name })
		if idx < prev {
			t.Fatalf("tool order changed at %s", tl.Name)
		}
		prev = idx
		sent[tl.Name] = true
		short := slices.Contains(f.Shed.Shortened, tl.Name)
		switch {
		case short && tl.Description != ShortDescription(orig):
			t.Fatalf("%s listed as shortened but sent as %q", tl.Name, tl.Description)
		case !short && (tl.Description != orig.Description || string(tl.Parameters) != string(orig.Parameters)):
			t.Fatalf("%s changed without being listed as shortened", tl.Name)
		}
	}
	lastUser := 0
	for i, m := range history {
		if m.Role == llm.RoleUser {
			lastUser = i
		}
	}
	used := map[string]bool{}
	if len(history) > 0 {
		for _, m := range history[lastUser:] {
			for _, tc := range m.ToolCalls {
				used[tc.Name] = true
			}
		}
	}
	var dropped []string
	for _, tl := range tools {
		if sent[tl.Name] {
			continue
		}
		dropped = append(dropped, tl.Name)
		if IsCoreTool(tl.Name) || used[tl.Name] {
			t.Fatalf("left out %s, which must stay", tl.Name)
		}
	}
	slices.Sort(dropped)
	got := slices.Clone(f.Shed.Tools)
	slices.Sort(got)
	if !slices.Equal(dropped, got) {
		t.Fatalf("left out %v, Shed says %v", dropped, f.Shed.Tools)
	}
	// The order: tools go only after every tool with a short form is
	// shortened, and shortening only after older turns are all out.
	if len(f.Shed.Tools) > 0 {
		for _, tl := range f.Tools {
			if (Counter{}).Tools([]llm.ToolDef{shortTool(byName[tl.Name])}) < (Counter{}).Tools([]llm.ToolDef{byName[tl.Name]}) && !slices.Contains(f.Shed.Shortened, tl.Name) {
				t.Fatalf("left out tools %v while %s still had its long description", f.Shed.Tools, tl.Name)
			}
		}
	}
	if (len(f.Shed.Shortened) > 0 || len(f.Shed.Tools) > 0) && len(history) > 0 && f.FirstKept < lastUser && history[lastUser].Role == llm.RoleUser {
		t.Fatalf("tools shortened or left out while older turns (from %d) were still sent", f.FirstKept)
	}
}

// stage is how far down the fit order a result went.
func stage(f Fit) int {
	switch {
	case f.Shed.CurrentTurn:
		return 6
	case len(f.Shed.Tools) > 0:
		return 5
	case len(f.Shed.Shortened) > 0:
		return 4
	case f.Shed.Recall:
		return 3
	case f.Shed.Turns > 0:
		return 2
	case f.Shed.ReplyFrom > 0:
		return 1
	}
	return 0
}

// orderHistory is three older turns and a current one with a tool result.
func orderHistory() []llm.Message {
	var h []llm.Message
	for i := range 3 {
		h = append(h,
			llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("older question %d %s", i, strings.Repeat("words ", 120))},
			llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("older answer %d %s", i, strings.Repeat("words ", 120))})
	}
	return append(h,
		llm.Message{Role: llm.RoleUser, Content: "What is in my notes? " + strings.Repeat("context ", 40)},
		llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: json.RawMessage(`{"path":"notes.md"}`)}}},
		llm.Message{Role: llm.RoleTool, ToolCallID: "c1", ToolName: "read_file", Content: strings.Repeat("a line of my notes\n", 60)})
}

// TestFitOrder shrinks the window step by step: each step of the fit order
// is reached in turn, never skipped, each only when everything before it is
// used up, and at the end the request fails with advice.
func TestFitOrder(t *testing.T) {
	system := strings.Repeat("You are Hearth, a helper. ", 40)
	recall := "[Possibly relevant history]\n" + strings.Repeat("- an old note about notes\n", 12) + "[End]"
	h := orderHistory()
	seen := map[int]int{} // stage → widest window that reached it
	last := 0
	var failed error
	for window := 8192; window >= 600; window -= 8 {
		req := Request{System: system, Tools: manyTools, History: h, Recall: recall, Window: window, Reply: 2048}
		f, err := Counter{}.Fit(req)
		if err != nil {
			failed = err
			break
		}
		checkFit(t, Counter{}, system, manyTools, h, window, 2048, f)
		s := stage(f)
		if s < last {
			t.Fatalf("window %d: stage %d after stage %d in a wider window", window, s, last)
		}
		last = s
		if _, ok := seen[s]; !ok {
			seen[s] = window
		}
		if s == 3 {
			// The recall block went only once no older turn was left to make
			// way for it, or it was bigger than a long chat's share.
			user := f.Messages[slices.IndexFunc(f.Messages, func(m llm.Message) bool { return m.Role == llm.RoleUser })]
			withRecall := user
			withRecall.Content = recall + "\n\n" + user.Content
			extra := Counter{}.Message(withRecall) - Counter{}.Message(user)
			budget := budgetFor(window, ReplyFloor(window, 2048))
			if f.FirstKept < lastUserIndex(h) && extra <= longChatRecall(budget) {
				t.Fatalf("window %d: recall block left out while older turns could make way for it", window)
			}
		}
		if s >= 3 && !f.Shed.Recall {
			t.Fatalf("window %d: tools shortened or the turn cut before the recall block went", window)
		}
		if s < 3 && !strings.HasPrefix(lastUser(f.Messages), recall) {
			t.Fatalf("window %d: recall block missing although kept", window)
		}
		if s >= 3 && strings.Contains(lastUser(f.Messages), "Possibly relevant") {
			t.Fatalf("window %d: recall block sent although left out", window)
		}
	}
	for s := 0; s <= 6; s++ {
		if _, ok := seen[s]; !ok {
			t.Errorf("stage %d never reached: %v", s, seen)
		}
	}
	t.Logf("widest window per stage: %v", seen)
	var nr *NoRoomError
	if !errors.As(failed, &nr) || !errors.Is(failed, ErrNoRoom) {
		t.Fatalf("the smallest windows must fail with a NoRoomError, got %v", failed)
	}
}

func lastUser(msgs []llm.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleUser {
			return msgs[i].Content
		}
	}
	return ""
}

// The tools left out are the ones least related to the message; a tool the
// model already called in this turn stays.
func TestFitDropsLeastRelevantTools(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		used string
		want []string // must stay
		gone []string // must be left out first
	}{
		{"Search the web for the weather in Paris", "", []string{"web_search"}, []string{"spawn", "cron"}},
		{"Remind me tomorrow to water the plants", "", []string{"cron"}, []string{"web_search", "spawn"}},
		{"Find my notes about the garden", "", []string{"mcp_notes_find"}, []string{"web_search", "cron"}},
		{"do it", "spawn", []string{"spawn"}, nil},
	} {
		h := []llm.Message{{Role: llm.RoleUser, Content: tc.msg}}
		if tc.used != "" {
			h = append(h, llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "u", Name: tc.used, Arguments: json.RawMessage(`{}`)}}},
				llm.Message{Role: llm.RoleTool, ToolCallID: "u", ToolName: tc.used, Content: "started"})
		}
		// The narrowest window that still fits: most optional tools go.
		var best Fit
		for window := 4096; window > 256; window -= 4 {
			f, err := Counter{}.Fit(Request{System: "sys", Tools: manyTools, History: h, Window: window, Reply: 64})
			if err != nil {
				break
			}
			checkFit(t, Counter{}, "sys", manyTools, h, window, 64, f)
			if len(f.Shed.Tools) > 0 && len(f.Tools) > len(coreToolsIn(manyTools))+len(tc.want) {
				best = f
			}
			if len(f.Tools) == len(coreToolsIn(manyTools))+len(tc.want) {
				best = f
				break
			}
		}
		for _, w := range tc.want {
			if !slices.ContainsFunc(best.Tools, func(x llm.ToolDef) bool { return x.Name == w }) {
				t.Errorf("%q: %s left out (%v)", tc.msg, w, best.Shed.Tools)
			}
		}
		for _, g := range tc.gone {
			if !slices.Contains(best.Shed.Tools, g) {
				t.Errorf("%q: %s kept, left out only %v", tc.msg, g, best.Shed.Tools)
			}
		}
	}
}

func coreToolsIn(tools []llm.ToolDef) []string {
	var out []string
	for _, t := range tools {
		if IsCoreTool(t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}

func TestShortForms(t *testing.T) {
	for _, tc := range []struct{ desc, short, want string }{
		{"Read a file. Long text follows here.", "", "Read a file."},
		{"Read a file. Long text.", "Read.", "Read."},
		{strings.Repeat("word ", 40), "", strings.TrimSpace(strings.Repeat("word ", 16)) + "…"},
		{"e.g. things", "", "e.g. things"},
	} {
		if got := ShortDescription(llm.ToolDef{Description: tc.desc, Short: tc.short}); got != tc.want {
			t.Errorf("ShortDescription(%q, %q) = %q, want %q", tc.desc, tc.short, got, tc.want)
		}
	}
	st := shortTool(manyTools[0])
	var schema map[string]any
	if err := json.Unmarshal(st.Parameters, &schema); err != nil {
		t.Fatal(err)
	}
	props := schema["properties"].(map[string]any)
	if _, ok := props["description"]; !ok {
		t.Error("a property named description was removed")
	}
	if p := props["path"].(map[string]any); p["description"] != nil || p["title"] != nil || p["type"] != "string" {
		t.Errorf("path property %v: want its type without docs", p)
	}
	if len(st.Parameters) >= len(manyTools[0].Parameters)/2 {
		t.Errorf("short schema %d bytes of %d", len(st.Parameters), len(manyTools[0].Parameters))
	}
}

// A request that cannot fit says what would: a smaller reply limit when one
// works, a larger window — never one beyond the model's own maximum.
func TestNoRoomAdvice(t *testing.T) {
	h := []llm.Message{{Role: llm.RoleUser, Content: "hello"}}
	sys := strings.Repeat("persona text ", 700) // ~2300 tokens
	_, err := Counter{}.Fit(Request{System: sys, Tools: manyTools, History: h, Window: 3072, Reply: 2048})
	var nr *NoRoomError
	if !errors.As(err, &nr) {
		t.Fatalf("err = %v", err)
	}
	adv := strings.Join(nr.Advice(3072), "; ")
	if strings.Contains(adv, "contextTokens") {
		t.Errorf("advice suggests a window the model does not have: %s", adv)
	}
	if !strings.Contains(adv, "lower agents.defaults.maxTokens to") || !strings.Contains(adv, "at least 4096 tokens") || !strings.Contains(adv, "workspace files") {
		t.Errorf("advice %q", adv)
	}
	if r := nr.ReplyThatFits(); r < 128 || nr.Need > budgetFor(3072, r) {
		t.Errorf("reply that fits %d for need %d", r, nr.Need)
	}
	adv = strings.Join(nr.Advice(32768), "; ")
	if !strings.Contains(adv, "raise agents.defaults.contextTokens to 4096 (this model allows up to 32768)") {
		t.Errorf("advice for a model with a larger maximum: %s", adv)
	}
	// An MCP tool the model called in this turn stays, so fewer MCP servers
	// is worth saying.
	used := append(slices.Clone(h), llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "m", Name: "mcp_notes_find", Arguments: json.RawMessage(`{}`)}}},
		llm.Message{Role: llm.RoleTool, ToolCallID: "m", ToolName: "mcp_notes_find", Content: "found"})
	_, err = Counter{}.Fit(Request{System: sys, Tools: manyTools, History: used, Window: 3072, Reply: 2048})
	if !errors.As(err, &nr) || nr.MCPTools != 1 || !slices.Contains(nr.Advice(3072), "turn off MCP servers you do not need") {
		t.Errorf("MCP advice: %v %+v", err, nr)
	}
	// A tiny window fails however little is sent.
	if _, err := (Counter{}).Fit(Request{System: "sys", History: h, Window: 256, Reply: 2048}); !errors.Is(err, ErrNoRoom) {
		t.Fatalf("256-token window: %v", err)
	}
}

// Random tool lists and windows: every result keeps its promises about tools.
func TestFitToolsProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pool := newTextPool(r)
	for iter := range 200 {
		h := randHistory(r, pool, 1+r.IntN(6))
		tools := slices.Clone(manyTools)
		r.Shuffle(len(tools), func(i, j int) { tools[i], tools[j] = tools[j], tools[i] })
		tools = tools[:r.IntN(len(tools)+1)]
		window := 512 + r.IntN(6000)
		reply := 128 + r.IntN(2048)
		c := Counter{Ratio: []float64{0, 0.8, 1.3, 2.5}[r.IntN(4)]}
		recall := ""
		if r.IntN(2) == 0 {
			recall = pool.text(600)
		}
		f, err := c.Fit(Request{System: "You are Hearth.", Tools: tools, History: h, Recall: recall, Window: window, Reply: reply})
		if err != nil {
			if !errors.Is(err, ErrNoRoom) {
				t.Fatalf("iter %d: %v", iter, err)
			}
			continue
		}
		checkFit(t, c, "You are Hearth.", tools, h, window, reply, f)
	}
}

// FuzzShortTool feeds tool definitions as MCP servers may send them (any
// description, any schema JSON) to the short form: it never panics, never
// grows a tool, and keeps a valid schema valid JSON.
func FuzzShortTool(f *testing.F) {
	for _, t := range manyTools {
		f.Add(t.Description, string(t.Parameters))
	}
	f.Add("Read. Then", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string","description":"x"}],"items":{"title":"t"}}}}`)
	f.Add(strings.Repeat("ü", 200), `not json`)
	f.Add("", `{"$defs":{"x":{"description":"d","properties":{"description":{"type":"string"}}}}}`)
	f.Fuzz(func(t *testing.T, desc, params string) {
		in := llm.ToolDef{Name: "t", Description: desc, Parameters: json.RawMessage(params)}
		out := shortTool(in)
		if utf8.ValidString(desc) && !utf8.ValidString(out.Description) {
			t.Fatalf("short description of valid text is invalid UTF-8: %q", out.Description)
		}
		if utf8.RuneCountInString(out.Description) > max(utf8.RuneCountInString(desc), maxDerivedShort+1) {
			t.Fatalf("short description %q longer than %q", out.Description, desc)
		}
		if json.Valid(in.Parameters) && (!json.Valid(out.Parameters) || len(out.Parameters) > len(in.Parameters)+len(in.Parameters)/2+16) {
			t.Fatalf("schema %s became %s", in.Parameters, out.Parameters)
		}
	})
}

// lastUserIndex is the index of the last user message of h (-1: none).
func lastUserIndex(h []llm.Message) int {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role == llm.RoleUser {
			return i
		}
	}
	return -1
}
