package recall

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"hearth/backend/agent/prompt"
	"hearth/backend/llm"
	"hearth/backend/session"
	"hearth/backend/tools"
)

// The live turn's own message never affects what the block holds: the agent
// saves the user's message to its chat before it builds the request, so the
// index holds the question when the block searches. The block is the same
// with the question in the index and without it — it neither appears in the
// block nor pushes the evidence under the floor.
func TestLiveTurnDoesNotAffectTheBlock(t *testing.T) {
	const q = "what did Ana tell me about the brakes on my car?"
	block := func(withQuestion bool) string {
		ws, sdir := t.TempDir(), t.TempDir()
		writeFile(t, ws, HistoryFile, history(
			"Car service at Oak garage; Ana said the brake pads are worn.",
			"Dinner with Bruno at Harbour, tried the grilled octopus.",
			"Ana says hello from Riverside.",
		))
		st := session.NewStore(sdir, session.Options{})
		newChat(t, st, "old", "Which tyres did the garage fit on my car?", "Winter tyres from Nokian, fitted at Oak garage.")
		newChat(t, st, "live", "Good morning!", "Good morning, how can I help?")
		if withQuestion {
			if err := st.Append("live", session.MessageRecord("r", llm.Message{Role: llm.RoleUser, Content: q})); err != nil {
				t.Fatal(err)
			}
		}
		x := NewIndex(IndexOptions{Workspace: ws, SessionsDir: sdir})
		defer x.Close()
		var w Windows
		w.Set("live", 0) // the whole live chat is in the request
		rc := &Recaller{Index: x, Block: BlockOptions{Enabled: true, MinScore: 0.2}, InWindow: w.From}
		return rc.ForRoom(context.Background(), "live", q, 1000)
	}
	with, without := block(true), block(false)
	if with != without {
		t.Fatalf("the question in the index changed the block:\nwith:\n%s\nwithout:\n%s", with, without)
	}
	if !strings.Contains(with, "brake pads are worn") || strings.Contains(with, "sessions/live") {
		t.Fatalf("block:\n%s", with)
	}
}

// A scored hit does not depend on what else is indexed: the evidence scores
// the same next to a chunk repeating the question's words ("car" is in
// neither: a word the index never saw weighs nothing).
func TestKeywordScoreIsAbsolute(t *testing.T) {
	score := func(extra ...string) float64 {
		ws := t.TempDir()
		writeFile(t, ws, HistoryFile, history(append([]string{"Ana said the brake pads are worn.", "Bruno fixed the shed roof."}, extra...)...))
		x := NewIndex(IndexOptions{Workspace: ws})
		defer x.Close()
		res, err := x.Search(context.Background(), "Ana brake pads worn car", 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if strings.Contains(h.Snippet, "pads are worn.") {
				return h.Score
			}
		}
		t.Fatalf("evidence not found: %+v", res.Hits)
		return 0
	}
	if a, b := score(), score("Ana: brake pads worn. Ana: brake pads worn."); a != b {
		t.Errorf("score %v alone, %v beside a better match", a, b)
	}
}

// memory_search sizes its answer to the room the window leaves the turn and
// never returns more than the spill limit: whole passages are left out from
// the end, and the result says how many more there are.
func TestSearchNeverSpilled(t *testing.T) {
	ws := t.TempDir()
	var entries []string
	rng := rand.New(rand.NewPCG(3, 9))
	for i := range 400 {
		entries = append(entries, fmt.Sprintf("Session %d: talked about the tomatoes in the greenhouse with Ana. %s.",
			i, strings.Join(synthWords(rng, 20+i%150), " ")))
	}
	writeFile(t, ws, HistoryFile, history(entries...))
	x := NewIndex(IndexOptions{Workspace: ws})
	defer x.Close()
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(SearchTool(x, ToolOptions{Tokens: SearchTokens(0)})); err != nil {
		t.Fatal(err)
	}
	system := strings.Repeat("You are Hearth, a helper on the user's computer. ", 50) // about 600 tokens
	q := "what did Ana and I say about the tomatoes in the greenhouse?"
	for _, window := range []int{2048, 4096, 8192, 32768} {
		for _, limit := range []int{tools.DefaultMaxResultChars, 2000} {
			fit, err := prompt.Counter{}.Fit(prompt.Request{System: system, Window: window, Reply: 2048,
				History: []llm.Message{{Role: llm.RoleUser, Content: q}}})
			if err != nil {
				t.Fatalf("window %d: %v", window, err)
			}
			ctx := tools.WithCall(context.Background(), tools.CallInfo{SessionID: "s", RoomTokens: fit.TurnRoom, MaxResultChars: limit})
			for _, args := range []string{fmt.Sprintf(`{"query":%q}`, q), fmt.Sprintf(`{"query":%q,"also":["vegetables","glasshouse"],"skip":3}`, q)} {
				res := reg.Call(ctx, "memory_search", []byte(args))
				if res.IsError || len(res.Content) > limit {
					t.Fatalf("window %d, limit %d: %d chars (error %v)", window, limit, len(res.Content), res.IsError)
				}
				if !strings.Contains(res.Content, "more passages") || !strings.Contains(res.Content, "greenhouse") {
					t.Errorf("window %d, limit %d: %s", window, limit, res.Content)
				}
				if window == 32768 && limit == tools.DefaultMaxResultChars && len(res.Content) < limit/2 {
					t.Errorf("window %d: only %d chars of %d used", window, len(res.Content), limit)
				}
			}
		}
	}
}

// A question in other words finds the passage through the related words of
// its own (expand.go), and through the words the model adds ("also").
func TestParaphraseFound(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, history(
		"User: If there's mochi ice cream on the pudding menu, I'm ordering it.",
		"User: The boiler needs a new valve before winter.",
		"User: Lily of the valley, always, they make any room.",
	))
	x := NewIndex(IndexOptions{Workspace: ws})
	defer x.Close()
	res, err := x.Find(context.Background(), Query{Text: "what sweet should I get after the meal?", Tokens: 500, MinScore: 0.2})
	if err != nil || len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Snippet, "mochi") {
		t.Fatalf("related words: %+v %v", res.Hits, err)
	}
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(SearchTool(x, ToolOptions{})); err != nil {
		t.Fatal(err)
	}
	if r := reg.Call(context.Background(), "memory_search", []byte(`{"query":"which blooms cheer me up?","also":["lily","valley"]}`)); !strings.Contains(r.Content, "Lily of the valley") {
		t.Fatalf("also: %s", r.Content)
	}
}

// The model's "also" words are bounded: a thousand huge ones search like the
// first few; a negative skip is refused with the reason.
func TestAlsoBounded(t *testing.T) {
	ws := t.TempDir()
	writeFile(t, ws, HistoryFile, history("Ana lent me her tent for the lake."))
	x := NewIndex(IndexOptions{Workspace: ws})
	defer x.Close()
	reg := tools.NewRegistry(tools.RegistryOptions{})
	if err := reg.Register(SearchTool(x, ToolOptions{})); err != nil {
		t.Fatal(err)
	}
	also := make([]string, 1000)
	for i := range also {
		also[i] = strings.Repeat("camping ", 2000)
	}
	also[0] = "tent"
	args, _ := json.Marshal(map[string]any{"query": "what did Ana lend me?", "also": also})
	res := reg.Call(context.Background(), "memory_search", args)
	if res.IsError || !strings.Contains(res.Content, "tent for the lake") || len(res.Content) > tools.DefaultMaxResultChars {
		t.Fatalf("%v %s", res.IsError, res.Content)
	}
	if r := reg.Call(context.Background(), "memory_search", []byte(`{"query":"tent","skip":-5}`)); !r.IsError || !strings.Contains(r.Content, "skip") {
		t.Errorf("negative skip: %s", r.Content)
	}
	if q := withAlso("q", also); len(q) > 1+maxAlso*81 {
		t.Errorf("query of %d bytes", len(q))
	}
}
